import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { freshProfile, launchHost } from '../../support/host';
import { consoleReady } from '../../support/web';

/**
 * The queue as an attendant scans it, at 1280×800 and 1920×1080, light and dark, in English and
 * Portuguese: every row shows the customer's line across the row, the channel's name in words,
 * the protocol whole or not at all, and no row's text runs under another's. Each view is saved
 * for a person to look at: in QUEUE_SHOTS_DIR when set, else test-results/screenshots.
 */

const DIR = process.env.QUEUE_SHOTS_DIR ?? join('test-results', 'screenshots');

/** The channels' names as the product promises them to read (README: channels), per language. */
const CHANNEL_NAMES: Record<'en' | 'pt', string[]> = {
  en: ['Chat app', 'E-mail', 'SMS', 'Messenger', 'Social', 'Voice'],
  pt: ['App de conversa', 'E-mail', 'SMS', 'Messenger', 'Rede social', 'Voz'],
};

/** Measures every visible row of the list shown, as laid out. */
function rowsAsShown(page: Page) {
  return page.locator('aside.queue [role=list]').evaluate((list) => {
    const out: Array<{
      name: string;
      channel: string;
      channelShown: boolean;
      protocol: string;
      protocolState: 'whole' | 'hidden' | 'cut';
      previewShare: number;
      overlapsNext: boolean;
      linesOverlap: boolean;
    }> = [];
    const items = [...list.querySelectorAll<HTMLElement>('.session-item')];
    const box = list.getBoundingClientRect();
    for (const [i, item] of items.entries()) {
      const r = item.getBoundingClientRect();
      if (r.bottom > box.bottom || r.top < box.top) continue;
      const line1 = item.querySelector<HTMLElement>('.line1')!.getBoundingClientRect();
      const protocol = item.querySelector<HTMLElement>('.protocol')!;
      const p = protocol.getBoundingClientRect();
      const hidden = p.top >= line1.bottom - 1;
      const whole = !hidden && p.right <= line1.right + 0.5 && protocol.scrollWidth <= protocol.clientWidth + 1;
      const channel = item.querySelector<HTMLElement>('.channel .ch-name')!;
      const c = channel.getBoundingClientRect();
      const meta = item.querySelector<HTMLElement>('.meta')!.getBoundingClientRect();
      const preview = item.querySelector<HTMLElement>('.preview')!.getBoundingClientRect();
      // The room the row's text has: the row inside its padding.
      const button = item.querySelector<HTMLElement>('.session-row')!;
      const style = getComputedStyle(button);
      const room = button.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const next = items[i + 1]?.getBoundingClientRect();
      out.push({
        name: item.querySelector<HTMLElement>('.name')!.textContent ?? '',
        channel: channel.textContent ?? '',
        channelShown: c.width > 0 && c.left >= meta.left && c.right <= meta.right + 0.5 && c.bottom <= meta.bottom + 0.5,
        protocol: protocol.title,
        protocolState: hidden ? 'hidden' : whole ? 'whole' : 'cut',
        previewShare: preview.width / room,
        overlapsNext: !!next && next.top < r.bottom - 0.5,
        // The name's line, the customer's line and the channel's line each keep their own height, inside the row.
        linesOverlap: line1.bottom > preview.top + 0.5 || preview.bottom > meta.top + 0.5 || meta.bottom > r.bottom + 0.5,
      });
    }
    return out;
  });
}

const cases = [
  { width: 1280, height: 800, scheme: 'light', lang: 'en' },
  { width: 1280, height: 800, scheme: 'dark', lang: 'en' },
  { width: 1920, height: 1080, scheme: 'light', lang: 'en' },
  { width: 1920, height: 1080, scheme: 'dark', lang: 'en' },
  { width: 1280, height: 800, scheme: 'light', lang: 'pt' },
] as const;

for (const c of cases) {
  test(`queue rows at ${c.width}×${c.height}, ${c.scheme}, ${c.lang}: the customer's line across the row, the channel by name, the protocol whole or not at all`, async ({
    page,
  }) => {
    const pt = c.lang === 'pt';
    const host = await launchHost(freshProfile(), pt ? 'pt-BR' : 'en-US');
    try {
      await page.setViewportSize({ width: c.width, height: c.height });
      await page.emulateMedia({ colorScheme: c.scheme });
      await page.goto(host.url);
      await page.getByRole('button', { name: pt ? 'Abrir o espaço de demonstração' : 'Open the demo workspace' }).click();
      await consoleReady(page);
      await host.app.standin!.simulator.stop();
      await expect(page.locator('html')).toHaveAttribute('data-theme', c.scheme);
      const names = CHANNEL_NAMES[c.lang];
      for (const tab of pt ? ['Aguardando', 'Minhas'] : ['Waiting', 'Mine']) {
        await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
        const list = page.getByRole('list', { name: tab });
        await expect(list.locator('.session-item').first()).toBeVisible();
        // The customers' lines are read after the queue: wait until the rows show them.
        await expect(list.locator('.session-item .preview').first()).not.toHaveText(/^(No message|Nenhuma mensagem)/);
        mkdirSync(DIR, { recursive: true });
        await page.screenshot({ path: join(DIR, `queue-${c.width}x${c.height}-${c.scheme}-${c.lang}-${tab.toLowerCase()}.png`) });
        const rows = await rowsAsShown(page);
        expect(rows.length, 'rows shown').toBeGreaterThan(3);
        for (const r of rows) {
          expect(names, `${r.name}: channel named "${r.channel}"`).toContain(r.channel);
          expect(r.channelShown, `${r.name}: the channel's name is shown whole`).toBe(true);
          expect(r.protocolState, `${r.name}: protocol ${r.protocol}`).not.toBe('cut');
          expect(r.previewShare, `${r.name}: the customer's line spans the row`).toBeGreaterThan(0.98);
          expect(r.overlapsNext, `${r.name}: overlaps the next row`).toBe(false);
          expect(r.linesOverlap, `${r.name}: its lines overlap`).toBe(false);
        }
        // At 1920 the queue is wide enough for every protocol beside its customer's name.
        if (c.width >= 1920) expect(rows.filter((r) => r.protocolState === 'whole').length).toBe(rows.length);
      }
    } finally {
      await host.close();
    }
  });
}
