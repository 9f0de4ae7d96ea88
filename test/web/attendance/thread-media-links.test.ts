import { test, expect, type Page } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { READINGS } from '../../../src-standin/reading';
import { freshProfile, launchHost } from '../../support/host';
import {
  connectToService,
  consoleReady,
  mediaSession,
  openSessionInPortuguese,
  ownOpenSessions,
  selectSession,
  serviceApi,
  shot,
} from '../../support/web';

/**
 * The thread as an attendant reads it: the customer's photo as a thumbnail that opens larger, a
 * voice note with a player, a document as a card to download, each with its caption (bytes read
 * by the console's main process: the page asks no other origin); a line between days and the
 * date on older messages; links that go to the system browser (an https one at once, any other
 * after showing its host), never inside the console; and a reply sent while reading older
 * messages lands at the newest one.
 */

test.use({ viewport: { width: 1280, height: 720 } });

/** Every address the page asked for, to check none is foreign. */
function requestsOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => seen.push(r.url()));
  return seen;
}

for (const reading of READINGS) {
  test(`media messages: a thumbnail that opens larger, a player, a file to download, against the ${reading} reading`, async ({ page }) => {
    test.setTimeout(150_000);
    const sb = await startStandin({ port: 0, sessions: 40, reading });
    const host = await launchHost(freshProfile());
    try {
      const asked = requestsOf(page);
      await page.goto(host.url);
      await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
      await consoleReady(page);
      await selectSession(page, await mediaSession(sb));
      const log = page.getByRole('log');

      // The photo: a thumbnail from our own blob, with its caption; it opens larger and closes.
      const thumb = log.getByRole('button', { name: 'Image foto-da-caixa.png: open it larger' });
      await expect(thumb).toBeVisible({ timeout: 30_000 });
      const img = thumb.getByRole('img');
      await expect(img).toHaveAttribute('src', /^blob:/);
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(320);
      await expect(log.getByText('A caixa chegou amassada')).toBeVisible();
      await thumb.click();
      const large = page.getByRole('dialog', { name: 'foto-da-caixa.png' });
      await expect(large.getByRole('img')).toBeVisible();
      expect((await large.getByRole('img').boundingBox())!.width).toBeGreaterThan((await img.boundingBox())!.width);
      await large.getByRole('button', { name: 'Close the image' }).click();
      await expect(large).toHaveCount(0);

      // The voice note: a player that has read the whole note (1.2 s), with its caption.
      const player = log.locator('audio');
      await expect(player).toHaveAttribute('aria-label', 'Audio message');
      await expect.poll(() => player.evaluate((el: HTMLAudioElement) => Math.round(el.duration * 10) / 10)).toBe(1.2);
      await expect(log.getByText('Ouve o meu áudio, por favor')).toBeVisible();

      // The document: a card whose button saves the file as the customer sent it.
      const card = log.getByRole('group', { name: 'File: nota-fiscal.pdf' });
      await expect(card).toBeVisible();
      await expect(log.getByText('Segue a nota fiscal')).toBeVisible();
      const saving = page.waitForEvent('download');
      await card.getByRole('button', { name: 'Download nota-fiscal.pdf' }).click();
      const download = await saving;
      expect(download.suggestedFilename()).toBe('nota-fiscal.pdf');
      const chunks: Buffer[] = [];
      for await (const c of (await download.createReadStream()) as AsyncIterable<Buffer>) chunks.push(c);
      const saved = Buffer.concat(chunks);
      expect(saved.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await expect(card).toContainText(`${saved.length} bytes`);

      // The media addresses are never shown as text, and the page asked no other origin for them.
      await expect(log.getByText('/media/')).toHaveCount(0);
      expect(asked.filter((u) => !u.startsWith(host.origin) && !u.startsWith('blob:') && !u.startsWith('data:'))).toEqual([]);
      await shot(page, `thread-media-${reading}`);
    } finally {
      await host.close();
      await sb.close();
    }
  });
}

test('days in the thread, links to the system browser, and a reply sent while reading older messages', async ({ page }) => {
  test.setTimeout(150_000);
  const sb = await startStandin({ port: 0, sessions: 40 });
  const opened: string[] = [];
  const host = await launchHost(freshProfile(), 'en-US', { openLink: (url) => (opened.push(url), true) });
  try {
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    const session = (await ownOpenSessions(sb))[0]!;
    const save = (message: string, createdAt: Date, fromUser = true) =>
      api.post('/chatapi/1.0/api/v2/messages/save', { session: { id: session.id }, message, fromUser, createdAt: createdAt.toISOString() });
    const now = new Date();
    const daysAgo = (n: number, hour: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - n, hour, 5);
    // Three days of conversation (the seeded lines sort among them by their own dates).
    const older = daysAgo(3, 9);
    await save('Comprei na loja três dias atrás, o pedido está aqui: http://loja.example/pedido/123.', older);
    // A photo kept on another host: the console does not read it (its token goes to the service only).
    await api.post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: session.id },
      message: 'https://cdn.example/fotos/caixa.jpg',
      contentType: 'image',
      caption: 'Foto no outro site',
      fromUser: true,
      createdAt: daysAgo(3, 10).toISOString(),
    });
    await save('Olá! Ontem mandei o comprovante pelo site https://rastreio.example/abc, viu?', daysAgo(1, 10));
    // Today's, a second apart, the last a second before now (all of them today, even just after midnight).
    const lastToday = new Date(Math.max(now.getTime() - 1000, new Date(now.getFullYear(), now.getMonth(), now.getDate(), 0, 1).getTime()));
    for (let i = 1; i <= 30; i++)
      await save(`Hoje: mensagem ${i} do cliente, ainda aguardando.`, new Date(lastToday.getTime() - (30 - i) * 1000));

    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    await selectSession(page, session);
    const log = page.getByRole('log');
    await expect(log.getByText('Hoje: mensagem 30 do cliente')).toBeVisible({ timeout: 30_000 });

    // Today's messages say their time only; a line says "Today" above the first of them.
    const last = log.getByRole('article').filter({ hasText: 'Hoje: mensagem 30' });
    const hhmm = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit' });
    await expect(last.locator('time')).toHaveText(hhmm.format(lastToday));

    // Scrolled back: "Yesterday" above yesterday's message, and the older day under its date,
    // which its message also says.
    await log.evaluate((el) => (el.scrollTop = 0));
    const dayMonth = new Intl.DateTimeFormat('en', { day: '2-digit', month: '2-digit' }).format(older);
    const olderRow = log.getByRole('article').filter({ hasText: 'três dias atrás' });
    await expect(olderRow).toBeVisible();
    await expect(olderRow.locator('time')).toHaveText(new RegExp(`^${dayMonth}`));
    await expect(log.getByRole('separator', { name: dayMonth })).toBeVisible();
    await expect(log.getByRole('separator', { name: 'Yesterday' })).toBeVisible();
    await expect(log.getByRole('separator', { name: 'Today' })).toHaveCount(1);
    // The separators stand between the days, in order: the older date, then yesterday, then today.
    const tops = await Promise.all(
      [dayMonth, 'Yesterday', 'Today'].map(async (name) => (await log.getByRole('separator', { name }).boundingBox())?.y ?? Infinity),
    );
    expect(tops[0]).toBeLessThan(tops[1]!);

    // The photo on another host says why it is not shown, and offers the browser instead.
    const foreign = log.getByRole('article').filter({ hasText: 'Foto no outro site' });
    await expect(foreign.getByRole('alert')).toHaveText(
      'The media could not be read: This media is not on the service (cdn.example): the console reads media from the service only.',
    );
    await expect(foreign.getByRole('img')).toHaveCount(0);

    // An https link goes to the system browser at once; nothing opens inside the console.
    const pages = page.context().pages().length;
    await log.getByRole('link', { name: 'https://rastreio.example/abc' }).click();
    await expect.poll(() => opened).toEqual(['https://rastreio.example/abc']);
    // An http link shows its host first and goes only when the attendant says so.
    await log.getByRole('link', { name: 'http://loja.example/pedido/123' }).click();
    const ask = page.getByRole('dialog', { name: 'Open this link in your browser?' });
    await expect(ask).toContainText('loja.example');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toHaveCount(0);
    expect(opened).toEqual(['https://rastreio.example/abc']);
    await log.getByRole('link', { name: 'http://loja.example/pedido/123' }).click();
    await ask.getByRole('button', { name: 'Open in the browser' }).click();
    await expect.poll(() => opened).toEqual(['https://rastreio.example/abc', 'http://loja.example/pedido/123']);
    await foreign.getByRole('button', { name: 'Open it in the browser' }).click();
    await expect.poll(() => opened.at(-1)).toBe('https://cdn.example/fotos/caixa.jpg');
    expect(page.context().pages().length).toBe(pages);
    expect(page.url().startsWith(host.origin)).toBe(true);

    // Replying while reading older messages: the view goes to the reply at the bottom.
    await expect.poll(() => log.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)).toBeGreaterThan(300);
    await page.getByRole('textbox', { name: /Reply to/ }).fill('Já verifiquei o seu pedido, chega amanhã.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(log.getByRole('article').filter({ hasText: 'chega amanhã' })).toBeInViewport();
    await expect.poll(() => log.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)).toBeLessThan(30);
  } finally {
    await host.close();
    await sb.close();
  }
});

test('the thread in Portuguese, light and dark: Hoje, Ontem, a photo, a player and a file', async ({ page }) => {
  test.setTimeout(150_000);
  const sb = await startStandin({ port: 0, sessions: 40 });
  const host = await launchHost(freshProfile(), 'pt-BR');
  try {
    const session = await mediaSession(sb);
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    const now = new Date();
    const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 16, 40);
    await api.post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: session.id },
      message: 'Ontem à tarde o rastreio dizia "entregue": https://rastreio.example/abc',
      fromUser: true,
      createdAt: yesterday.toISOString(),
    });
    await api.post('/chatapi/1.0/api/v2/messages/save', { session: { id: session.id }, message: 'Hoje a caixa chegou.', fromUser: true });
    await page.goto(host.url);
    await openSessionInPortuguese(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent, protocol: String(session.protocol) });
    const log = page.getByRole('log');
    await expect(log.getByRole('separator', { name: 'Hoje' })).toBeVisible({ timeout: 30_000 });
    // Yesterday's line is above today's: the thread shows the rows around the reader, so it is
    // seen once scrolled back, as the attendant would.
    await log.evaluate((el) => (el.scrollTop = 0));
    await expect(log.getByRole('separator', { name: 'Ontem' })).toBeVisible();
    await expect(log.getByRole('button', { name: 'Imagem foto-da-caixa.png: ampliar' })).toBeVisible();
    await expect(log.getByRole('group', { name: 'Arquivo: nota-fiscal.pdf' })).toBeVisible();
    await expect(log.locator('audio')).toHaveAttribute('aria-label', 'Mensagem de áudio');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await log.evaluate((el) => (el.scrollTop = 0));
      await shot(page, `thread-days-1280x720-pt-BR-${colorScheme}`);
      await log.getByRole('button', { name: 'Imagem foto-da-caixa.png: ampliar' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await shot(page, `thread-media-1280x720-pt-BR-${colorScheme}`);
    }
  } finally {
    await host.close();
    await sb.close();
  }
});
