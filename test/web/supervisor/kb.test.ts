import { test, expect, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectToService, shot } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';

// A small FAQ in the shape a retailer would publish; paragraphs split on blank lines.
const WARRANTY =
  'R: A garantia estendida Vila Serena cobre defeitos de fabricação por mais 12 meses depois da garantia do fabricante. Para acionar, abra um chamado com a nota fiscal e o número de série do aparelho.';
const FAQ = [
  'P: Vocês entregam em Campinas?\nR: Sim, entregamos em toda a região metropolitana de Campinas em até 3 dias úteis, com frete grátis acima de R$ 150,00.',
  `P: Como funciona a garantia estendida?\n${WARRANTY}`,
  'P: Posso retirar o pedido na loja?\nR: Pode: escolha "Retirar na loja" no carrinho e leve um documento com foto à loja da Rua Augusta a partir do dia seguinte à confirmação.',
  'P: Vocês montam os móveis?\nR: A montagem é gratuita para guarda-roupas e cozinhas compradas no site; agende a visita do montador pelo telefone 0800 123 4567.',
].join('\n\n');

/** Serves the FAQ on loopback, holding each download until `release()` so the indexing state can be seen. */
async function startFileServer() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    void gate.then(() => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(FAQ);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    release,
    close: () =>
      new Promise<void>((r) => {
        release();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function connect(page: Page, baseUrl: string, token: string) {
  await connectToService(page, { baseUrl, token });
  await page.getByRole('button', { name: 'Supervisor' }).click();
  await page.getByRole('tab', { name: 'Knowledge bases' }).click();
}

test('a knowledge base uploaded from a loopback URL is checked before sending, indexes, then answers with scores; a supervisor is told before the form that the role may not upload', async ({
  page,
}) => {
  const sb = await startStandin({ port: 0 });
  const files = await startFileServer();
  const host = await launchHost(freshProfile());
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('kbUpload')) uploads.push(r.postData() ?? '');
  });
  const standIn = async (path: string, body?: unknown) => {
    const res = await fetch(`${sb.baseUrl}/transformersapi/1.0${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${sb.tokens.admin}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const NAME = 'vilaserena.com.br_faq_data_pt';
  const fileUrl = `${files.base}/ajuda/perguntas-frequentes.txt`;
  try {
    await page.goto(host.url);
    // Upload is an administrator's operation on the stand-in.
    await connect(page, sb.baseUrl, sb.tokens.admin);
    const url = page.getByLabel('Public file address');
    const name = page.getByLabel('Knowledge base name');
    const send = page.getByRole('button', { name: 'Upload and index' });
    const upload = page.getByRole('region', { name: 'Upload a file' });
    await expect(upload.getByText('No uploads yet.')).toBeVisible();

    // Refusals made before anything is sent, each with its reason.
    await url.fill(fileUrl);
    await name.fill('FAQ Vila Serena');
    await send.click();
    await expect(upload.getByRole('alert')).toHaveText(
      'The name must look like {hostname}_{identifier}_data_pt in lower case, for example vilaserena.com.br_faq_data_pt.',
    );
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await name.fill('VilaSerena.com.br_FAQ_data_pt');
    await send.click();
    await expect(upload.getByRole('alert')).toHaveText('Use lower case letters in the name: search indexes are lower case.');

    await name.fill(NAME);
    await url.fill('https://drive.google.com/file/d/1AbCdEf/view?usp=sharing');
    await send.click();
    await expect(upload.getByRole('alert')).toHaveText(
      'Google Drive links are refused: they open a viewer page, not the file itself. Give a direct public link to the file.',
    );
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAttribute('aria-invalid', 'false');

    await url.fill(`${files.base}/ajuda/perguntas-frequentes.pages`);
    await send.click();
    await expect(upload.getByRole('alert')).toHaveText(
      '.pages files cannot be indexed. Supported: .xls, .xlsx, .ods, .pdf, .csv, .txt, .tsv, .docx, .xml, .json.',
    );
    await shot(page, 'supervisor-kb-refused');
    expect(uploads).toEqual([]);
    expect(files.hits).toEqual([]);
    expect((await standIn(`/indexes/${NAME}`)).status).toBe(404);

    // A good upload: indexing is under way while the file server holds the download.
    await url.fill(fileUrl);
    await send.click();
    await expect(upload.getByRole('alert')).toHaveCount(0);
    const base = upload.getByRole('listitem').filter({ hasText: NAME });
    await expect(base.getByRole('status')).toHaveText(/^Indexing… uploaded \d{2}:\d{2}/);
    await expect(base).toContainText(fileUrl);
    expect(uploads).toHaveLength(1);
    await expect.poll(() => files.hits).toEqual(['/ajuda/perguntas-frequentes.txt']);
    expect((await standIn(`/indexes/${NAME}`)).json).toMatchObject({ state: 'indexing' });

    // Asking now says plainly that there are no answers yet.
    const ask = page.getByRole('region', { name: 'Ask a test question' });
    await expect(ask.getByLabel('Knowledge base')).toHaveValue(NAME);
    // The bases uploaded are offered by name: picked from the list, never typed from memory.
    await ask.getByLabel('Knowledge base').fill('');
    await base.getByRole('button', { name: `Ask ${NAME}` }).click();
    await expect(ask.getByLabel('Knowledge base')).toHaveValue(NAME);
    // The same name again would replace the base: said before sending.
    await expect(upload.getByRole('status').filter({ hasText: 'sending replaces it' })).toHaveText(
      `A base named ${NAME} was uploaded already: sending replaces it.`,
    );
    const question = 'Como funciona a garantia estendida?';
    await ask.getByLabel('Question').fill(question);
    await ask.getByRole('button', { name: 'Ask' }).click();
    await expect(ask.getByRole('alert')).toHaveText(
      `The knowledge base ${NAME} has no answers yet (404): it does not exist or is still being indexed.`,
    );
    await shot(page, 'supervisor-kb-indexing');

    // The file arrives; the console sees the base answering.
    files.release();
    await expect(base.getByRole('status')).toHaveText(/^Answering since \d{2}:\d{2}/);
    expect((await standIn(`/indexes/${NAME}`)).json).toMatchObject({ state: 'ready', documents: 4 });

    // The right passage comes first, with the score the service gives it.
    const direct = await standIn('/questions', { index: NAME, question, size: 5 });
    const expected = direct.json.answer as Array<{ text: string; score: number }>;
    expect(expected[0]!.text).toContain(WARRANTY);
    await ask.getByRole('button', { name: 'Ask' }).click();
    const answers = ask.getByRole('list', { name: 'Answers' }).getByRole('listitem');
    await expect(answers).toHaveCount(expected.length);
    await expect(answers.first()).toContainText(WARRANTY);
    await expect(answers.first()).toContainText(`score ${expected[0]!.score.toFixed(3)}`);
    await expect(ask.getByRole('alert')).toHaveCount(0);
    await shot(page, 'supervisor-kb');

    // A supervisor (not an administrator) is refused the upload by the service, in plain words.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await connect(page, sb.baseUrl, sb.tokens.supervisor);
    // Nothing of the administrator's session carries over to the next account.
    await expect(upload.getByText('No uploads yet.')).toBeVisible();
    await expect(ask.getByRole('list', { name: 'Answers' })).toHaveCount(0);
    await expect(ask.getByLabel('Question')).toHaveValue('');
    // What the role may do is read from the service first: no form to fill for a 403 at the end.
    await expect(upload.getByRole('status')).toHaveText(
      'Your role on this service may not upload knowledge bases: an administrator does. You can still ask the bases listed here.',
    );
    await expect(page.getByLabel('Public file address')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Upload and index' })).toHaveCount(0);
    await expect(ask.getByLabel('Question')).toBeEditable();
    expect(uploads).toHaveLength(1);
    await shot(page, 'supervisor-kb-agent');
  } finally {
    await host.close();
    await files.close();
    await sb.close();
  }
});
