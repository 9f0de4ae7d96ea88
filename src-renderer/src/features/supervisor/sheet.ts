import type { WorkSheet } from '@e965/xlsx';
import type * as XlsxModule from '@e965/xlsx';
import { csvCell, csvFormat, type CsvFormat } from './csv';

/**
 * A table as a spreadsheet should read it, written once and saved as CSV or XLSX. Each column
 * says what its cells are, so each format can write them as a spreadsheet expects: identifiers
 * as text (a 14-digit protocol must not become 2,02611E+13), instants in local time, durations
 * as h:mm:ss, numbers rounded as the screen shows them.
 */
export type SheetKind = 'text' | 'id' | 'number' | 'dateTime' | 'duration';

export interface SheetColumn {
  header: string;
  kind: SheetKind;
  /** Decimal places for a number column, as the screen rounds it. */
  digits?: number;
}

export type SheetValue = string | number | null | undefined;

export interface Sheet {
  /** The file name without its extension. */
  name: string;
  columns: readonly SheetColumn[];
  rows: ReadonlyArray<ReadonlyArray<SheetValue>>;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant as local "YYYY-MM-DD HH:MM:SS": every spreadsheet reads it as a date and time. */
export function localDateTime(iso: string): string | null {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Seconds as "h:mm:ss" (hours past 24 kept, as a spreadsheet's [h]:mm:ss shows them). */
export function clockDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export function rounded(v: number, digits: number | undefined): number {
  if (digits === undefined) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

const asNumber = (v: SheetValue): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** One cell of a CSV line. */
function csvSheetCell(v: SheetValue, c: SheetColumn, f: CsvFormat): string {
  if (v === null || v === undefined || v === '') return '';
  switch (c.kind) {
    case 'id': {
      const text = String(v);
      // ="…" keeps a run of digits as text when a spreadsheet opens the file; only digits go in
      // it, so nothing a customer typed can become a formula.
      return /^\d+$/.test(text) ? `="${text}"` : csvCell(text, f);
    }
    case 'number': {
      const n = asNumber(v);
      return n === null ? csvCell(String(v), f) : csvCell(rounded(n, c.digits), f);
    }
    case 'dateTime':
      return csvCell(typeof v === 'string' ? (localDateTime(v) ?? v) : String(v), f);
    case 'duration': {
      const n = asNumber(v);
      return n === null ? '' : clockDuration(n);
    }
    default:
      return csvCell(String(v), f);
  }
}

/** The sheet as CSV text in the locale's notation, a byte-order mark first (accented headers). */
export function sheetCsv(sheet: Sheet, locale: string): string {
  const f = csvFormat(locale);
  const head = sheet.columns.map((c) => csvCell(c.header, f)).join(f.separator);
  const lines = sheet.rows.map((r) => sheet.columns.map((c, i) => csvSheetCell(r[i], c, f)).join(f.separator));
  return `\uFEFF${[head, ...lines].join('\r\n')}\r\n`;
}

/** A local date and time as a spreadsheet's day number (days since 1899-12-30, local clock). */
function serialOf(iso: string): number | null {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  const localMs = Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds());
  return (localMs - Date.UTC(1899, 11, 30)) / 86_400_000;
}

const numberFormat = (digits: number | undefined) => (digits ? `0.${'0'.repeat(digits)}` : digits === 0 ? '0' : 'General');

/** One worksheet with typed cells: text, numbers, dates, times. */
function worksheetOf(XLSX: typeof XlsxModule, sheet: Sheet): WorkSheet {
  const ws: WorkSheet = {};
  const put = (r: number, c: number, cell: Record<string, unknown>) => {
    ws[XLSX.utils.encode_cell({ r, c })] = cell;
  };
  sheet.columns.forEach((col, c) => put(0, c, { t: 's', v: col.header }));
  sheet.rows.forEach((row, i) => {
    sheet.columns.forEach((col, c) => {
      const v = row[c];
      if (v === null || v === undefined || v === '') return;
      const n = asNumber(v);
      if (col.kind === 'number' && n !== null) put(i + 1, c, { t: 'n', v: rounded(n, col.digits), z: numberFormat(col.digits) });
      else if (col.kind === 'duration' && n !== null) put(i + 1, c, { t: 'n', v: Math.round(n) / 86_400, z: '[h]:mm:ss' });
      else if (col.kind === 'dateTime' && typeof v === 'string' && serialOf(v) !== null)
        put(i + 1, c, { t: 'n', v: serialOf(v), z: 'yyyy-mm-dd hh:mm:ss' });
      else put(i + 1, c, { t: 's', v: String(v) });
    });
  });
  ws['!ref'] = XLSX.utils.encode_range({
    s: { r: 0, c: 0 },
    e: { r: Math.max(sheet.rows.length, 1), c: Math.max(sheet.columns.length - 1, 0) },
  });
  ws['!cols'] = sheet.columns.map((col) => ({
    wch: Math.max(col.header.length + 2, col.kind === 'dateTime' ? 20 : col.kind === 'id' ? 16 : 10),
  }));
  return ws;
}

/** Sheets as one XLSX workbook (bytes), one worksheet each, named by the sheet. */
export async function bookXlsx(sheets: readonly Sheet[]): Promise<Uint8Array> {
  // Loaded on first export only: the library is large and most sessions never export.
  const XLSX = await import('@e965/xlsx');
  const wb = XLSX.utils.book_new();
  // A worksheet's name is at most 31 characters and some signs are not allowed in it.
  for (const sheet of sheets)
    XLSX.utils.book_append_sheet(wb, worksheetOf(XLSX, sheet), sheet.name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31));
  return XLSX.write(wb, { type: 'array', bookType: 'xlsx', compression: true }) as Uint8Array;
}

/** The sheet as an XLSX workbook (bytes). */
export const sheetXlsx = (sheet: Sheet): Promise<Uint8Array> => bookXlsx([sheet]);

/**
 * Several tables as one CSV: each under a line with its name, a blank line between them (a CSV
 * holds one sheet; a spreadsheet opens this as one, the tables one below another).
 */
export function bookCsv(sheets: readonly Sheet[], locale: string): string {
  const f = csvFormat(locale);
  return `\uFEFF${sheets.map((s) => `${csvCell(s.name, f)}\r\n${sheetCsv(s, locale).slice(1)}`).join('\r\n')}`;
}

export type SheetFormat = 'csv' | 'xlsx';

const MIME: Record<SheetFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * Offers the sheet as a file download from the page: the browser saves it, and Electron, with no
 * download handler set, asks where to save it.
 */
export async function downloadSheet(sheet: Sheet, format: SheetFormat, locale: string): Promise<void> {
  offer(`${sheet.name}.${format}`, format, format === 'csv' ? sheetCsv(sheet, locale) : await sheetXlsx(sheet));
}

/** Several tables as one file: a worksheet each in XLSX, one below another in CSV. */
export async function downloadBook(name: string, sheets: readonly Sheet[], format: SheetFormat, locale: string): Promise<void> {
  offer(`${name}.${format}`, format, format === 'csv' ? bookCsv(sheets, locale) : await bookXlsx(sheets));
}

function offer(fileName: string, format: SheetFormat, body: string | Uint8Array): void {
  const url = URL.createObjectURL(new Blob([body as BlobPart], { type: MIME[format] }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
