import { test, expect, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStandin, type Standin } from '../../../src-standin/index';
import { startCaptureProxy } from '../../support/capture-proxy';
import { launchHost, usedConsoleProfile } from '../../support/host';
import { connectToService, consoleReady, ownOpenSessions, selectSession, shot, type Rec } from '../../support/web';

/**
 * Knowledge bases are chosen, never typed from memory: the bases a workspace used or uploaded
 * are offered as a list in the help tab (the one searched last picked) and on the supervisor's
 * page, and both survive a restart of the console.
 */

test.use({ viewport: { width: 1280, height: 800 } });

const FAQ_BASE = 'vilaserena.com.br_faqcsv_data_pt';
const DEMO_BASE = 'demo_atendimento_data_pt';
const CSV = 'id;pergunta;resposta\n1;Como troco minha senha?;Toque em Esqueci minha senha e siga o link enviado ao seu e-mail.';
const ANSWER = 'Toque em Esqueci minha senha e siga o link enviado ao seu e-mail.';

async function csvServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' });
    res.end(CSV);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/faq.csv`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function indexBase(sb: Standin, fileUrl: string, name: string): Promise<void> {
  const ai = async (path: string, body?: unknown) => {
    const res = await fetch(`${sb.baseUrl}/transformersapi/1.0${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${sb.tokens.admin}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as Rec;
  };
  await ai('/upload_files', { url_file: fileUrl, index_engine: name });
  await expect.poll(async () => (await ai(`/indexes/${name}`)).state).toBe('ready');
}

/** The indexes named in the questions that reached the service. */
const askedIndexes = (bodies: string[]) => bodies.map((b) => (JSON.parse(b) as { index: string }).index);

async function openHelp(page: Page, s: Rec) {
  await consoleReady(page);
  await selectSession(page, s);
  const help = page.getByRole('region', { name: 'Composer help' });
  await help.getByRole('tab', { name: 'Knowledge base' }).click();
  return help;
}

test('the attendant picks a knowledge base from the list the workspace kept, without typing, and the question reaches the service with its name', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const sb = await startStandin({ port: 0, sessions: 30 });
  const proxy = await startCaptureProxy(sb.baseUrl);
  const files = await csvServer();
  const QUESTIONS = '/transformersapi/1.0/questions';
  try {
    await indexBase(sb, files.url, FAQ_BASE);
    const [s] = await ownOpenSessions(sb, 1);
    // First run: the attendant names two bases once (a remote workspace knows none yet).
    const profile = await usedConsoleProfile(page, async (p, host) => {
      await p.goto(host.url);
      await connectToService(p, { baseUrl: proxy.url, token: sb.tokens.agent });
      const help = await openHelp(p, s!);
      await expect(help.getByText('No knowledge base is known in this workspace yet')).toBeVisible();
      await expect(help.getByRole('combobox', { name: 'Knowledge base' })).toHaveCount(0);
      await help.getByRole('searchbox', { name: 'Ask the knowledge base' }).fill('Como troco minha senha?');
      for (const name of [FAQ_BASE, DEMO_BASE]) {
        // Once a base is known the field for another one is folded away under its summary.
        if (name === DEMO_BASE) await help.getByText('Another base', { exact: true }).click();
        await help.getByRole('textbox', { name: 'Name of another knowledge base' }).fill(name);
        await help.getByRole('button', { name: 'Search' }).click();
        await expect(help.getByRole('combobox', { name: 'Knowledge base' })).toHaveValue(name);
      }
      await expect.poll(() => askedIndexes(proxy.bodiesTo(QUESTIONS))).toEqual([FAQ_BASE, DEMO_BASE]);
    });

    // After a restart on the same profile: both are offered, the last searched picked.
    const host = await launchHost(profile);
    try {
      await page.goto(host.url);
      const help = await openHelp(page, s!);
      const list = help.getByRole('combobox', { name: 'Knowledge base' });
      await expect(list).toHaveValue(DEMO_BASE);
      await expect(list.getByRole('option')).toHaveText([DEMO_BASE, FAQ_BASE]);
      await expect(help.getByText(/Knowledge base: —/)).toHaveCount(0);
      await list.selectOption(FAQ_BASE);
      await help.getByRole('searchbox', { name: 'Ask the knowledge base' }).fill('Como troco minha senha?');
      const before = proxy.bodiesTo(QUESTIONS).length;
      await help.getByRole('button', { name: 'Search' }).click();
      await expect(help.getByRole('list', { name: 'Knowledge base' }).getByRole('listitem').first()).toContainText(ANSWER);
      expect(askedIndexes(proxy.bodiesTo(QUESTIONS).slice(before))).toEqual([FAQ_BASE]);
      await shot(page, 'help-kb-chosen');
    } finally {
      await page.goto('about:blank');
      await host.close();
    }
  } finally {
    await files.close();
    await proxy.close();
    await sb.close();
  }
});

test("the supervisor's knowledge-base page lists the bases the workspace uploaded, after a restart too", async ({ page }) => {
  test.setTimeout(180_000);
  const sb = await startStandin({ port: 0 });
  const files = await csvServer();
  try {
    const profile = await usedConsoleProfile(page, async (p, host) => {
      await p.goto(host.url);
      await connectToService(p, { baseUrl: sb.baseUrl, token: sb.tokens.admin });
      await p.getByRole('button', { name: 'Supervisor' }).click();
      await p.getByRole('tab', { name: 'Knowledge bases' }).click();
      const known = p.getByRole('region', { name: 'Bases of this workspace' });
      await expect(known.getByText('None yet')).toBeVisible();
      await p.getByLabel('Public file address').fill(files.url);
      await p.getByLabel('Knowledge base name').fill(FAQ_BASE);
      await p.getByRole('button', { name: 'Upload and index' }).click();
      const upload = p.getByRole('region', { name: 'Upload a file' });
      await expect(upload.getByRole('listitem').filter({ hasText: FAQ_BASE }).getByRole('status')).toHaveText(/^Answering since/);
    });
    const host = await launchHost(profile);
    try {
      await page.goto(host.url);
      await page.getByRole('button', { name: 'Supervisor' }).click();
      await page.getByRole('tab', { name: 'Knowledge bases' }).click();
      const known = page.getByRole('list', { name: 'Bases of this workspace' });
      await expect(known.getByRole('listitem')).toHaveText([`${FAQ_BASE} Ask`]);
      await known.getByRole('button', { name: `Ask ${FAQ_BASE}` }).click();
      const ask = page.getByRole('region', { name: 'Ask a test question' });
      await expect(ask.getByLabel('Knowledge base')).toHaveValue(FAQ_BASE);
      await ask.getByLabel('Question').fill('Como troco minha senha?');
      await ask.getByRole('button', { name: 'Ask' }).click();
      await expect(ask.getByRole('list', { name: 'Answers' })).toContainText('Esqueci minha senha');
      await shot(page, 'supervisor-kb-known');
    } finally {
      await page.goto('about:blank');
      await host.close();
    }
  } finally {
    await files.close();
    await sb.close();
  }
});
