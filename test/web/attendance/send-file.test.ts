import { test, expect, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { startStandin, type Standin } from '../../../src-standin/index';
import { parcelPng } from '../../../src-standin/media';
import { freshProfile, launchHost, webBridge } from '../../support/host';
import { connectToService, consoleReady, openEvents, railButton, selectSession, serviceApi, shot, type Rec } from '../../support/web';

/**
 * Sending a file (README: "Sending files"): the attendant attaches a PDF with a caption, the
 * console lends it at its public address (here the listener itself: the stand-in runs on this
 * computer), the stand-in fetches it as a messaging provider does, and the thread shows it. A
 * file the group does not take, or too large, is refused before anything reaches the service;
 * without a public address the composer says what to set up.
 */

test.use({ viewport: { width: 1280, height: 800 } });

/** A PDF of about 1.1 MiB: it travels to the console in several pieces. */
function boleto(): Buffer {
  const body = Buffer.alloc(1_200_000, 0x20);
  body.write('BT /F1 12 Tf (Boleto - vencimento 10/12) Tj ET', 0, 'latin1');
  return Buffer.concat([Buffer.from('%PDF-1.4\n'), body, Buffer.from('\n%%EOF\n')]);
}

type Fetch = { messageId: number; sessionId: number; state: string; size: number | null; sha256: string | null; url: string };
const fetchesOf = async (sb: Standin): Promise<Fetch[]> =>
  (await serviceApi(sb.baseUrl, sb.tokens.admin).get('/__standin/media-fetches')).fetches as Fetch[];
const messagesOf = (sb: Standin, sessionId: number) =>
  serviceApi(sb.baseUrl, sb.tokens.agent).list('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(sessionId) }]);

/** A group, by its name (read from the service). */
const groupNamed = (sb: Standin, name: string): Promise<Rec> =>
  serviceApi(sb.baseUrl, sb.tokens.agent).post('/chatapi/1.0/api/v2/groups/unique', {
    conditions: [{ key: 'name', operator: 'EQ', value: name }],
    sort: false,
  });

/** The demo attendant's open session in a group, by the group's name (read from the service). */
async function ownSessionIn(sb: Standin, groupName: string): Promise<Rec> {
  const api = serviceApi(sb.baseUrl, sb.tokens.agent);
  const group = await groupNamed(sb, groupName);
  const [session] = await api.list(
    '/user-session',
    [
      { key: 'status', operator: 'EQ', value: 'OPEN' },
      { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
      { key: 'groupConf.id', operator: 'EQNUM', value: String(group.id), logic: 'AND' },
    ],
    { direction: 'DESC', size: 1 },
  );
  expect(session, `an open session of ${sb.demoAgent.userName} in ${groupName}`).toBeTruthy();
  return session!;
}

async function pick(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach a file' }).click();
  await (await chooser).setFiles(file);
}

test('a PDF with a caption: sent with progress, fetched and stored by the service, shown in the thread', async ({ page }) => {
  test.setTimeout(120_000);
  const sb = await startStandin({ port: 0, sessions: 40 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    const session = await ownSessionIn(sb, 'Atendimento Geral');
    const sessionId = session.id as number;
    await selectSession(page, session);
    const before = (await messagesOf(sb, sessionId)).length;

    const pdf = boleto();
    await pick(page, { name: 'boleto-dezembro.pdf', mimeType: 'application/pdf', buffer: pdf });
    const chip = page.getByRole('group', { name: 'Attached file: boleto-dezembro.pdf' });
    // Its size as people read it, in MiB with one decimal.
    const size = `${+(pdf.length / (1024 * 1024)).toFixed(1)} MiB`;
    await expect(chip).toContainText(size);
    await expect(chip).toContainText('What you type in the reply box goes with it as its caption.');
    await page.getByRole('textbox', { name: /Reply to/ }).fill('Segue o boleto de dezembro.');
    await shot(page, 'send-file-attached');

    // The progress is shown while the pieces travel: every status the chip shows is noted as the
    // page draws it (an observer in the page, so no step is missed between two looks).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[role="group"][aria-label^="Attached file"] [role="status"]')) {
          const t = el.textContent?.trim() ?? '';
          if (t && seen.at(-1) !== t) seen.push(t);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(chip).toHaveCount(0, { timeout: 30_000 });
    const steps = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    // Pieces counted up, then the service's save.
    expect(steps.filter((t) => /^Sending boleto-dezembro\.pdf: \d+%$/.test(t)).length, steps.join(' | ')).toBeGreaterThan(1);
    expect(steps.at(-1)).toBe('Handing boleto-dezembro.pdf to the service…');

    // The thread: the file's card with its name and size, and the caption.
    const log = page.getByRole('log');
    const card = log.getByRole('group', { name: 'File: boleto-dezembro.pdf' });
    await expect(card).toBeVisible();
    await expect(card).toContainText(size);
    await expect(log.getByText('Segue o boleto de dezembro.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: /Reply to/ })).toHaveValue('');

    // The service: one message with the file's URL at this console's listener, its type and caption...
    const after = await messagesOf(sb, sessionId);
    expect(after.length).toBe(before + 1);
    const sent = after.find((m) => m.contentType === 'application/pdf')!;
    expect(sent).toMatchObject({ caption: 'Segue o boleto de dezembro.', fromUser: false, errorConversation: false });
    expect(String(sent.message)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/[A-Za-z0-9_-]{43}\/boleto-dezembro\.pdf$/);
    // ...fetched and stored whole by the service, as a provider does.
    await expect.poll(async () => (await fetchesOf(sb)).find((f) => f.messageId === sent.id)?.state).toBe('stored');
    expect((await fetchesOf(sb)).find((f) => f.messageId === sent.id)).toMatchObject({
      sessionId,
      size: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
    });
    // Fetched once: the loan is over.
    expect((await fetch(String(sent.message))).status).toBe(404);

    // The card saves the very bytes sent.
    const saving = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download boleto-dezembro.pdf' }).click();
    const chunks: Buffer[] = [];
    for await (const c of (await (await saving).createReadStream()) as AsyncIterable<Buffer>) chunks.push(c);
    expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
    await shot(page, 'send-file-sent');
  } finally {
    await host.close();
    await sb.close();
  }
});

test('a photo the service could not deliver: shown as a thumbnail, then marked as not delivered once the service says so', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sb = await startStandin({ port: 0, sessions: 40 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    const session = await ownSessionIn(sb, 'Atendimento Geral');
    const sessionId = session.id as number;
    await selectSession(page, session);
    // The provider reads the file, then refuses it (a type it does not deliver, say).
    await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/messages/save' }, kind: 'refusesMedia', count: 1 }]);

    await pick(page, { name: 'caixa-amassada.png', mimeType: 'image/png', buffer: parcelPng() });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const log = page.getByRole('log');
    const thumb = log.getByRole('button', { name: 'Image caixa-amassada.png: open it larger' });
    await expect(thumb).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => thumb.getByRole('img').evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(320);

    // The service marked it (its flag for a failed conversation), and the thread says so.
    const sent = (await messagesOf(sb, sessionId)).find((m) => m.contentType === 'image/png')!;
    await expect.poll(async () => (await fetchesOf(sb)).find((f) => f.messageId === sent.id)?.state).toBe('failed');
    expect((await messagesOf(sb, sessionId)).find((m) => m.id === sent.id)).toMatchObject({ errorConversation: true });
    const bubble = log.getByRole('article').filter({ has: page.getByRole('button', { name: 'Image caixa-amassada.png: open it larger' }) });
    await expect(bubble.getByRole('alert')).toHaveText('The service could not deliver this message.', { timeout: 15_000 });
    await shot(page, 'send-file-undelivered');
  } finally {
    await host.close();
    await sb.close();
  }
});

test('a file the group does not take, one of a kind never sent, and one too large: said at once, and nothing reaches the service', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sb = await startStandin({ port: 0, sessions: 40 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    // Financeiro takes text and documents only (its acceptedMedias, read here from the service).
    const session = await ownSessionIn(sb, 'Financeiro');
    const group = await groupNamed(sb, 'Financeiro');
    expect(String(group.acceptedMedias).split(',')).not.toContain('image');
    const sessionId = session.id as number;
    await selectSession(page, session);
    const before = (await messagesOf(sb, sessionId)).length;
    const composer = page.getByRole('group', { name: /^Reply to/ });

    // A photo dropped on the reply box: taken, then refused for the group.
    const photo = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'comprovante.png', { type: 'image/png' }));
      return dt;
    });
    const box = page.getByRole('textbox', { name: /Reply to/ });
    await box.dispatchEvent('dragover', { dataTransfer: photo });
    await box.dispatchEvent('drop', { dataTransfer: photo });
    await expect(composer.getByRole('alert')).toHaveText('The group Financeiro does not take images: it takes PDF documents.');
    await expect(page.getByRole('group', { name: /^Attached file/ })).toHaveCount(0);
    await shot(page, 'send-file-refused');

    await pick(page, { name: 'fotos.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\u0003\u0004') });
    await expect(composer.getByRole('alert')).toHaveText('fotos.zip cannot be sent: only images, PDF documents and audio files can.');

    await pick(page, { name: 'extrato-anual.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(17 * 1024 * 1024, 0x25) });
    await expect(composer.getByRole('alert')).toHaveText('extrato-anual.pdf is 17 MiB: files up to 16 MiB can be sent.');
    await expect(page.getByRole('group', { name: /^Attached file/ })).toHaveCount(0);
    // With no file attached and nothing typed, Send does nothing.
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();

    // The main process refuses the same even when asked directly (a page that skipped its checks).
    const bridge = await webBridge(host);
    const direct = await bridge('attendance:fileBegin', { sessionId, name: 'comprovante.png', contentType: 'image/png', size: 8 });
    expect(JSON.stringify(direct.body)).toContain('Financeiro does not take images; it takes PDF documents.');

    expect((await messagesOf(sb, sessionId)).length).toBe(before);
    expect(await fetchesOf(sb)).toEqual([]);
  } finally {
    await host.close();
    await sb.close();
  }
});

test('without a public address (polling only) the composer says what to set up and sends nothing', async ({ page }) => {
  test.setTimeout(120_000);
  const sb = await startStandin({ port: 0, sessions: 40 });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    await openEvents(page);
    await page.getByRole('tab', { name: 'Live source' }).click();
    await page.getByRole('radio', { name: 'Polling only' }).check();
    await page.getByRole('button', { name: 'Save and switch' }).click();
    await expect(page.getByText('Saved. Live events now come from the source chosen.')).toBeVisible();
    await railButton(page, 'Sessions').click();

    const session = await ownSessionIn(sb, 'Atendimento Geral');
    const sessionId = session.id as number;
    await selectSession(page, session);
    const before = (await messagesOf(sb, sessionId)).length;
    await pick(page, { name: 'etiqueta-devolucao.pdf', mimeType: 'application/pdf', buffer: boleto() });
    await expect(page.getByRole('group', { name: /^Reply to/ }).getByRole('alert')).toHaveText(
      "Files cannot be sent while this workspace polls only: the service fetches a file from this console's listener. In Settings, Developer / integration, choose This computer's listener as the Live source, and start a tunnel.",
    );
    await expect(page.getByRole('group', { name: /^Attached file/ })).toHaveCount(0);
    await shot(page, 'send-file-no-address');
    expect((await messagesOf(sb, sessionId)).length).toBe(before);
    expect(await fetchesOf(sb)).toEqual([]);
  } finally {
    await host.close();
    await sb.close();
  }
});
