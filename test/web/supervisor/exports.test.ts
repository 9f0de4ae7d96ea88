import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { startStandin } from '../../../src-standin/index';
import { READINGS } from '../../../src-standin/reading';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady, serviceApi, shot, type Rec } from '../../support/web';

/**
 * A supervisor in São Paulo exports the attendance report and the NPS figures in Portuguese and
 * opens them in a spreadsheet: the files are read back the way a spreadsheet reads them (SheetJS
 * with the pt-BR list separator for CSV), against both readings of the interface.
 */
const ZONE = 'America/Sao_Paulo';
test.use({ timezoneId: ZONE, viewport: { width: 1440, height: 900 } });

/** What a clock in São Paulo reads at an instant, as "YYYY-MM-DD HH:MM:SS". */
function saoPaulo(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const p = (t: string) => parts.find((x) => x.type === t)!.value;
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')}`;
}

const hms = (s: number) => {
  const r = Math.round(s);
  return `${Math.floor(r / 3600)}:${String(Math.floor((r % 3600) / 60)).padStart(2, '0')}:${String(r % 60).padStart(2, '0')}`;
};

async function download(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

/** The first sheet as rows of cells, header row first. */
function cellsOf(wb: XLSX.WorkBook): XLSX.CellObject[][] {
  const ws = wb.Sheets[wb.SheetNames[0]!]!;
  const range = XLSX.utils.decode_range(ws['!ref']!);
  const rows: XLSX.CellObject[][] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row: XLSX.CellObject[] = [];
    for (let c = range.s.c; c <= range.e.c; c++)
      row.push((ws[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined) ?? { t: 'z' });
    rows.push(row);
  }
  return rows;
}

// The library types its number-format helper loosely; these are the two calls used here.
const SSF = XLSX.SSF as { is_date(fmt: string): boolean; format(fmt: string, v: number): string };

/** A CSV as a pt-BR spreadsheet opens it: UTF-8 by its byte-order mark, ";" between cells. */
function readCsv(bytes: Buffer): XLSX.CellObject[][] {
  const text = bytes.toString('utf8');
  expect(text.charCodeAt(0), 'a byte-order mark first').toBe(0xfeff);
  return cellsOf(XLSX.read(text.slice(1), { type: 'string', FS: ';' }));
}

const HEADERS = ['Protocolo', 'Atendente', 'Grupo', 'Canal', 'Aberto', 'Encerrado', 'Espera', 'Atendimento', 'Duração', 'Situação'];

for (const reading of READINGS) {
  test(`the report and NPS exports read back in a pt-BR spreadsheet, CSV and XLSX (${reading} reading)`, async ({ page }) => {
    const sb = await startStandin({ port: 0, sessions: 60, reading });
    const host = await launchHost(freshProfile());
    try {
      await page.goto(host.url);
      await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.supervisor });
      await consoleReady(page);
      await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
      await page.getByRole('button', { name: 'Supervisão' }).click();
      await page.getByRole('tab', { name: 'Tempo de atendimento' }).click();
      await expect(page.getByRole('table', { name: 'Relatório de tempo de atendimento' }).locator('tfoot')).toBeVisible();

      const rows = await serviceApi(sb.baseUrl, sb.tokens.supervisor).listAll('/report-attendance-time');
      const byProtocol = new Map(rows.map((r) => [String(r.protocol), r]));
      expect(rows.length).toBeGreaterThan(3);

      /** Every exported row against the service's: the same row, as a person reads it. */
      const checkReport = (
        cells: XLSX.CellObject[][],
        dateText: (c: XLSX.CellObject) => string,
        timeText: (c: XLSX.CellObject) => string,
      ) => {
        const [head, ...body] = cells;
        expect(head!.map((c) => c.v)).toEqual(HEADERS);
        expect(body).toHaveLength(rows.length);
        for (const row of body) {
          expect(row[0]!.t, 'a protocol is text, never a number in scientific notation').toBe('s');
          const r = byProtocol.get(String(row[0]!.v)) as Rec;
          expect(r, `protocol ${String(row[0]!.v)} is one of the service's`).toBeDefined();
          expect(row[1]!.v).toBe(r.agentName);
          expect(dateText(row[4]!)).toBe(saoPaulo(String(r.createdAtProtocol)));
          if (typeof r.closedAtProtocol === 'string') expect(dateText(row[5]!)).toBe(saoPaulo(r.closedAtProtocol));
          expect(timeText(row[6]!)).toBe(hms(Number(r.waitingTime)));
          expect(timeText(row[8]!)).toBe(hms(Number(r.protocolDuration)));
          expect(row[9]!.v).toBe(r.lastStatus === 'CLOSED' ? 'Encerrado' : r.lastStatus === 'OPEN' ? 'Aberto' : row[9]!.v);
          expect(String(row[9]!.v)).not.toMatch(/^[A-Z_]+$/);
        }
      };

      // CSV: the spreadsheet reads dates and durations as dates and times, the protocol as text.
      const csv = await download(page, 'Exportar CSV');
      expect(csv.name).toBe('relatorio-tempo-de-atendimento.csv');
      checkReport(
        readCsv(csv.bytes),
        (c) => {
          expect(c.t, 'a date, not text').toBe('n');
          return String(c.w);
        },
        (c) => {
          expect(c.t, 'a time, not text').toBe('n');
          return String(c.w);
        },
      );

      // XLSX: typed cells; a date and a duration are numbers with a date or time format.
      const xlsx = await download(page, 'Exportar XLSX');
      expect(xlsx.name).toBe('relatorio-tempo-de-atendimento.xlsx');
      const asTime = (fmt: string) => (c: XLSX.CellObject) => {
        expect(c.t).toBe('n');
        expect(c.z).toBe(fmt);
        expect(SSF.is_date(String(c.z)), `${String(c.z)} is a date or time format`).toBe(true);
        return SSF.format(String(c.z), Number(c.v));
      };
      checkReport(cellsOf(XLSX.read(xlsx.bytes, { type: 'buffer', cellNF: true })), asTime('yyyy-mm-dd hh:mm:ss'), asTime('[h]:mm:ss'));
      await shot(page, `supervisor-report-pt-${reading}`);

      // NPS: one row, the survey, period and group shown, rounded as shown.
      await page.getByRole('tab', { name: 'NPS' }).click();
      await page.getByLabel('Nome da pesquisa').fill('nps-atendimento');
      await page.getByLabel('Grupo').selectOption({ label: 'Financeiro' });
      await page.getByRole('button', { name: 'Mostrar NPS' }).click();
      const shownIndex = (await page.getByTestId('nps-index').textContent())!;
      const shownAverage = (await page.getByTestId('nps-average').textContent())!;
      const shownTotal = (await page.getByTestId('nps-total').textContent())!;
      const npsHead = [
        'Nome da pesquisa',
        'De',
        'Até',
        'Grupo',
        'Índice NPS',
        'Nota média',
        'Respostas',
        'Positivas (9–10)',
        'Neutras (7–8)',
        'Negativas (0–6)',
      ];

      const npsCsv = readCsv((await download(page, 'Exportar CSV')).bytes);
      expect(npsCsv).toHaveLength(2);
      expect(npsCsv[0]!.map((c) => c.v)).toEqual(npsHead);
      const [survey, , , group, index, average, total] = npsCsv[1]!;
      expect([survey!.v, group!.v]).toEqual(['nps-atendimento', 'Financeiro']);
      // The cells' text is what the screen shows (decimal comma, the same places).
      expect(String(index!.w)).toBe(shownIndex);
      expect(String(average!.w)).toBe(shownAverage);
      expect(String(total!.w)).toBe(shownTotal);

      const npsXlsx = cellsOf(XLSX.read((await download(page, 'Exportar XLSX')).bytes, { type: 'buffer', cellNF: true }));
      expect(npsXlsx[0]!.map((c) => c.v)).toEqual(npsHead);
      const x = npsXlsx[1]!;
      expect(x[3]!.v).toBe('Financeiro');
      for (const [cell, shown] of [
        [x[4]!, shownIndex],
        [x[5]!, shownAverage],
      ] as const) {
        expect(cell.t).toBe('n');
        expect(cell.v).toBe(Number(shown.replace(',', '.')));
      }
      expect(x[6]!).toMatchObject({ t: 'n', v: Number(shownTotal) });
      await shot(page, `supervisor-nps-pt-${reading}`);
    } finally {
      await host.close();
      await sb.close();
    }
  });
}
