import { test, expect, type Locator, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { groupNameOf, idIn } from '../../support/records';
import { startStandin, type Standin } from '../../../src-standin/index';
import { MEDIA, MEDIA_PATH } from '../../../src-standin/media';
import { READINGS } from '../../../src-standin/reading';
import { startCaptureProxy } from '../../support/capture-proxy';
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
  type Rec,
} from '../../support/web';

/**
 * Help that respects the reply: an AI draft or a knowledge-base answer over typed text asks
 * where it goes, and is undone in one step; an empty box takes it at once; answers from a CSV
 * base read as prose; a `/code` with no match says so; the draft answers the conversation's
 * topic; an image is described by the service's AI, and held back under the documents rule.
 */

test.use({ viewport: { width: 1280, height: 720 } });

const PHOTO = MEDIA.find((m) => m.kind === 'image')!;
const CSV_BASE = 'vilaserena.com.br_faqcsv_data_pt';
const CSV = [
  'id;pergunta;resposta',
  '1;Como troco minha senha?;Na tela de entrada, toque em Esqueci minha senha e siga o link enviado ao seu e-mail.',
  '2;Qual o prazo de entrega?;A entrega leva de 3 a 7 dias úteis nas capitais.',
].join('\n');
const CSV_ANSWER = 'Na tela de entrada, toque em Esqueci minha senha e siga o link enviado ao seu e-mail.';

/** Serves the CSV base on loopback, as a public file address would. */
async function csvServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' });
    res.end(CSV);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/faq.csv`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Uploads the CSV base to the stand-in (an administrator's operation) and waits until it answers. */
async function indexCsvBase(sb: Standin, fileUrl: string): Promise<void> {
  const ai = async (path: string, body?: unknown) => {
    const res = await fetch(`${sb.baseUrl}/transformersapi/1.0${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${sb.tokens.admin}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as Rec;
  };
  await ai('/upload_files', { url_file: fileUrl, index_engine: CSV_BASE });
  await expect.poll(async () => (await ai(`/indexes/${CSV_BASE}`)).state).toBe('ready');
}

/** An open session of the demo attendant's whose group offers no canned reply starting with /bol. */
async function sessionWithoutBoleto(sb: Standin): Promise<Rec> {
  const mine = await ownOpenSessions(sb, 50);
  const s = mine.find((x) => groupNameOf(x) !== 'Financeiro' && groupNameOf(x));
  expect(s, 'a session outside Financeiro').toBeTruthy();
  return s!;
}

const caretOf = (box: Locator) =>
  box.evaluate((el) => [(el as HTMLTextAreaElement).selectionStart, (el as HTMLTextAreaElement).selectionEnd]);

/** Asks for an AI draft from the help panel; returns the question shown over typed text. */
async function askDraft(page: Page): Promise<Locator> {
  const help = page.getByRole('region', { name: 'Composer help' });
  await help.getByRole('tab', { name: 'AI draft' }).click();
  await help.getByRole('button', { name: 'Write a draft' }).click();
  return page.getByRole('group', { name: 'Your reply already has text. Where should the AI draft go?' });
}

for (const reading of READINGS) {
  test(`an AI draft or a knowledge-base answer never overwrites typed text unasked, and each placement is undone in one step (${reading} reading)`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const sb = await startStandin({ port: 0, sessions: 60, reading });
    const proxy = await startCaptureProxy(sb.baseUrl);
    const files = await csvServer();
    const host = await launchHost(freshProfile());
    try {
      await indexCsvBase(sb, files.url);
      const api = serviceApi(sb.baseUrl, sb.tokens.agent);
      const s = await mediaSession(sb);
      const sessionId = Number(idIn(s.id));
      // A password problem, then a vague line whose words alone would match the delivery time.
      for (const message of ['Não consigo entrar no aplicativo, diz que minha senha está errada.', 'Quanto tempo mais vai demorar?'])
        await api.post('/chatapi/1.0/api/v2/messages/save', { session: { id: sessionId }, message, fromUser: true });

      await page.goto(host.url);
      await connectToService(page, { baseUrl: proxy.url, token: sb.tokens.agent });
      await consoleReady(page);
      await selectSession(page, s);
      const log = page.getByRole('log', { name: /Messages with/ });
      await expect(log.getByText('Quanto tempo mais vai demorar?')).toBeVisible();
      const side = page.getByRole('complementary', { name: 'Session details' });
      await side.getByRole('tab', { name: 'Help' }).click();
      const box = page.getByRole('textbox', { name: /Reply to/ });
      const TYPED = 'Olá! Já verifico.';
      await box.fill(TYPED);
      await box.press('End');
      for (let i = 0; i < TYPED.length - 4; i++) await box.press('ArrowLeft');
      expect(await caretOf(box)).toEqual([4, 4]);

      // Over typed text: the question, with the draft; the reply untouched until an answer.
      const drafts = () => proxy.bodiesTo('/transformersapi/1.0/nlp').length;
      const ask = await askDraft(page);
      await expect(ask).toBeVisible();
      await expect(ask.getByRole('button', { name: 'Replace my text' })).toBeFocused();
      await expect(box).toHaveValue(TYPED);
      expect(drafts()).toBe(1);
      const draft = (await ask.locator('.help-choice-text').textContent())!.trim();
      // On topic: a password answer, not a delivery time.
      expect(draft).toContain('senha');
      expect(draft).not.toMatch(/entrega/i);
      await shot(page, `reply-help-ask-${reading}`);

      // Insert at the cursor: where the caret was, words apart.
      await ask.getByRole('button', { name: 'Insert at the cursor' }).click();
      await expect(box).toHaveValue(`Olá! ${draft} Já verifico.`);
      await expect(ask).toHaveCount(0);
      // The Undo button gives back what was typed, the caret where it was.
      await page.getByRole('button', { name: 'Undo', exact: true }).click();
      await expect(box).toHaveValue(TYPED);
      expect(await caretOf(box)).toEqual([4, 4]);
      await expect(page.getByRole('button', { name: 'Undo', exact: true })).toHaveCount(0);

      // Add at the end; Ctrl+Z gives back the typed text.
      await (await askDraft(page)).getByRole('button', { name: 'Add at the end' }).click();
      await expect(box).toHaveValue(`${TYPED} ${draft}`);
      await expect(box).toBeFocused();
      await page.keyboard.press('Control+z');
      await expect(box).toHaveValue(TYPED);

      // Replace; Ctrl+Z again.
      await (await askDraft(page)).getByRole('button', { name: 'Replace my text' }).click();
      await expect(box).toHaveValue(draft);
      await page.keyboard.press('Control+z');
      await expect(box).toHaveValue(TYPED);

      // Keep my text (by Escape): nothing changes.
      const kept = await askDraft(page);
      await expect(kept).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(kept).toHaveCount(0);
      await expect(box).toHaveValue(TYPED);
      await expect(box).toBeFocused();

      // An empty box takes the draft at once, no question.
      await box.fill('');
      const before = drafts();
      const none = await askDraft(page);
      await expect(box).toHaveValue(draft);
      expect(drafts()).toBe(before + 1);
      await expect(none).toHaveCount(0);

      // A knowledge-base answer from a CSV base: prose, no column names; into an empty box at once.
      await box.fill('');
      const help = page.getByRole('region', { name: 'Composer help' });
      await help.getByRole('tab', { name: 'Knowledge base' }).click();
      await help.getByRole('searchbox', { name: 'Ask the knowledge base' }).fill('Como troco minha senha?');
      // No base is known in this workspace yet: the field for another one is open.
      await help.getByRole('textbox', { name: 'Name of another knowledge base' }).fill(CSV_BASE);
      await help.getByRole('button', { name: 'Search' }).click();
      const answers = help.getByRole('list', { name: 'Knowledge base' });
      await expect(answers.getByRole('listitem').first()).toContainText(CSV_ANSWER);
      await expect(answers).not.toContainText(/pergunta|resposta|id:/i);
      await answers
        .getByRole('button', { name: /^Insert: / })
        .first()
        .click();
      await expect(box).toHaveValue(CSV_ANSWER);
      // Over typed text it asks too, naming the knowledge base.
      await box.fill('Oi!');
      await answers
        .getByRole('button', { name: /^Insert: / })
        .first()
        .click();
      const kbAsk = page.getByRole('group', { name: 'Your reply already has text. Where should the knowledge-base answer go?' });
      await kbAsk.getByRole('button', { name: 'Add at the end' }).click();
      await expect(box).toHaveValue(`Oi! ${CSV_ANSWER}`);
    } finally {
      await host.close();
      await files.close();
      await proxy.close();
      await sb.close();
    }
  });

  test(`"/bol" with no canned reply says so; an image is described by the service's AI from its address, and held back when that names a CPF (${reading} reading)`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const sb = await startStandin({ port: 0, sessions: 60, reading });
    const proxy = await startCaptureProxy(sb.baseUrl);
    const host = await launchHost(freshProfile());
    try {
      await page.goto(host.url);
      await connectToService(page, { baseUrl: proxy.url, token: sb.tokens.agent });
      await consoleReady(page);
      const box = page.getByRole('textbox', { name: /Reply to/ });

      // "/bol" where the group has no /boleto: said, not blank; a code that matches shows the list.
      await selectSession(page, await sessionWithoutBoleto(sb));
      await expect(page.getByRole('log', { name: /Messages with/ })).toBeVisible();
      await box.fill('Segue /bol');
      await expect(page.getByRole('status').filter({ hasText: 'No canned reply matches /bol' })).toBeVisible();
      await expect(page.getByRole('listbox', { name: 'Canned replies' })).toHaveCount(0);
      await box.fill('/sau');
      await expect(page.getByRole('listbox', { name: 'Canned replies' })).toBeVisible();
      await expect(page.getByText(/No canned reply matches/)).toHaveCount(0);
      await box.fill('');

      // The photo: described by the service's AI, marked as AI, from the service's own address.
      const s = await mediaSession(sb);
      await selectSession(page, s);
      const log = page.getByRole('log', { name: /Messages with/ });
      const photo = log.getByRole('article').filter({ has: page.getByRole('button', { name: `Image ${PHOTO.name}: open it larger` }) });
      await photo.scrollIntoViewIfNeeded();
      const nlp = () => proxy.bodiesTo('/transformersapi/1.0/nlp');
      await photo.getByRole('button', { name: 'Describe image' }).click();
      const described = photo.getByRole('note', { name: 'AI description' });
      await expect(described).toContainText(PHOTO.description!.pt);
      await expect(described).toContainText('Written by the AI for you; the customer does not see it.');
      expect(nlp()).toHaveLength(1);
      const items = (JSON.parse(nlp()[0]!) as { messages: Array<{ content: Array<Rec> }> }).messages.flatMap((m) => m.content);
      expect(items).toContainEqual({ type: 'image_url', image_url: { url: `${proxy.url}${MEDIA_PATH}${PHOTO.name}` } });
      expect(nlp()[0]).not.toContain(sb.tokens.agent);
      await photo.getByRole('note', { name: 'AI description' }).scrollIntoViewIfNeeded();
      await shot(page, `reply-help-describe-${reading}`);

      // An image whose address names a CPF: not sent, and the attendant is told why.
      await serviceApi(sb.baseUrl, sb.tokens.agent).post('/chatapi/1.0/api/v2/messages/save', {
        session: { id: Number(idIn(s.id)) },
        message: `${MEDIA_PATH}rg-529.982.247-25.png`,
        contentType: 'image',
        caption: 'Meu documento',
        fromUser: true,
      });
      const document = log.getByRole('article').filter({ hasText: 'Meu documento' });
      await expect(document).toBeVisible();
      await document.getByRole('button', { name: 'Describe image' }).click();
      await expect(
        document.getByRole('alert').filter({ hasText: 'Not sent to the AI: the image address contains a CPF or CNPJ.' }),
      ).toBeVisible();
      expect(nlp()).toHaveLength(1);
    } finally {
      await host.close();
      await proxy.close();
      await sb.close();
    }
  });
}

test('the question, Undo and an image description in Portuguese, light and dark, at 1280×720', async ({ page }) => {
  test.setTimeout(240_000);
  const sb = await startStandin({ port: 0, sessions: 40 });
  const host = await launchHost(freshProfile(), 'pt-BR');
  try {
    const s = await mediaSession(sb);
    await serviceApi(sb.baseUrl, sb.tokens.agent).post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: Number(idIn(s.id)) },
      message: 'Esqueci minha senha e não consigo entrar no aplicativo.',
      fromUser: true,
    });
    await page.goto(host.url);
    await openSessionInPortuguese(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent, protocol: String(s.protocol) });
    const log = page.getByRole('log');
    const photo = log.getByRole('article').filter({ has: page.getByRole('button', { name: `Imagem ${PHOTO.name}: ampliar` }) });
    await photo.scrollIntoViewIfNeeded();
    await photo.getByRole('button', { name: 'Descrever imagem' }).click();
    await expect(photo.getByRole('note', { name: 'Descrição por IA' })).toContainText(PHOTO.description!.pt);

    const box = page.getByRole('textbox', { name: /Responder a/ });
    await box.fill('Olá! Já verifico.');
    await page.getByRole('complementary', { name: 'Detalhes da sessão' }).getByRole('tab', { name: 'Ajuda' }).click();
    const help = page.getByRole('region', { name: 'Ajuda para responder' });
    await help.getByRole('tab', { name: 'Rascunho com IA' }).click();
    await help.getByRole('button', { name: 'Escrever um rascunho' }).click();
    const ask = page.getByRole('group', { name: 'Sua resposta já tem texto. Onde colocar o rascunho da IA?' });
    await expect(ask.getByRole('button', { name: 'Inserir no cursor' })).toBeVisible();
    await expect(ask.getByRole('button', { name: 'Acrescentar ao final' })).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await photo.getByRole('note').scrollIntoViewIfNeeded();
      await shot(page, `reply-help-ask-1280x720-pt-BR-${colorScheme}`);
    }
    await ask.getByRole('button', { name: 'Substituir meu texto' }).click();
    await expect(page.getByRole('button', { name: 'Desfazer', exact: true })).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await shot(page, `reply-help-undo-1280x720-pt-BR-${colorScheme}`);
    }
    await page.getByRole('button', { name: 'Desfazer', exact: true }).click();
    await expect(box).toHaveValue('Olá! Já verifico.');
    await box.fill('/zzz');
    await expect(page.getByRole('status').filter({ hasText: 'Nenhuma resposta pronta corresponde a /zzz' })).toBeVisible();
  } finally {
    await host.close();
    await sb.close();
  }
});
