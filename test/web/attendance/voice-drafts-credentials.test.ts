import { test, expect, type Page } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStandin, type Standin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import {
  openDemo,
  connectToService,
  ownOpenSessions,
  repliesOn,
  selectSession,
  serviceApi,
  shot,
  type Rec,
  consoleReady,
} from '../../support/web';
import { startCaptureProxy } from '../../support/capture-proxy';

const CPF_SHOWN = '529.982.247-25';
const CPF_HIDDEN = '111.444.777-35';

test.use({ viewport: { width: 1366, height: 768 } });

const newestMine = async (sb: Standin): Promise<Rec> => (await ownOpenSessions(sb))[0]!;

/** Selects a session in the queue and waits for its thread; returns the customer's name. */
async function openSession(page: Page, s: Rec): Promise<string> {
  const name = await selectSession(page, s);
  await expect(page.getByRole('log', { name: /Messages with/ })).toBeVisible();
  return name;
}

test('voice sits in the thread (panel tab, calls in the details, read aloud on messages and the draft); the AI gets revealed documents only when the attendant includes them', async ({
  page,
}) => {
  const sb = await startStandin({ port: 0 });
  const proxy = await startCaptureProxy(sb.baseUrl);
  const host = await launchHost(freshProfile());
  try {
    const s = await newestMine(sb);
    const sessionId = s.id as number;
    await serviceApi(sb.baseUrl, sb.tokens.agent).post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: sessionId },
      message: `Para a segunda via: meu CPF é ${CPF_SHOWN} e o da minha esposa é ${CPF_HIDDEN}.`,
      fromUser: true,
    });
    await page.goto(host.url);
    await connectToService(page, { baseUrl: proxy.url, token: sb.tokens.agent, userName: sb.demoAgent.userName });
    await consoleReady(page);
    const name = await openSession(page, s);
    const log = page.getByRole('log', { name: /Messages with/ });
    const line = log.getByRole('article').filter({ hasText: 'Para a segunda via: meu CPF' });
    await expect(line).toBeVisible();
    await expect(line).not.toContainText(CPF_SHOWN);

    // Voice: the recorder as a tab of the side panel, the calls in the session details.
    const side = page.getByRole('complementary', { name: 'Session details' });
    await side.getByRole('tab', { name: 'Voice' }).click();
    const panel = side.getByRole('region', { name: `Voice for ${name}` });
    await expect(panel.getByRole('button', { name: 'Record' })).toBeVisible();
    await shot(page, 'polish-voice-tab');
    await side.getByRole('tab', { name: 'Details' }).click();
    await expect(side.getByRole('region', { name: 'Calls' })).toBeVisible();
    await expect(side.getByRole('list', { name: 'Calls' })).toBeVisible();

    // Read aloud on a message: speech comes back, and a hidden document is spoken as its kind.
    await line.hover();
    await line.getByRole('button', { name: 'Read aloud' }).click();
    await expect(line.getByRole('status')).toContainText(/s of speech/);
    const tts = proxy.bodiesTo('/voicemodelapi/1.0/tts').at(-1) ?? '';
    expect(tts).toContain('meu CPF é CPF e o da minha esposa é CPF');
    expect(tts).not.toContain('247-25');
    // Read aloud on the reply draft.
    const box = page.getByRole('textbox', { name: /Reply to/ });
    const readDraft = page.getByRole('button', { name: 'Read the reply aloud' });
    await expect(readDraft).toBeDisabled();
    await box.fill('Obrigada, já verifico.');
    await expect(readDraft).toBeEnabled();

    // No document revealed: the AI help offers no choice and sends everything masked.
    await side.getByRole('tab', { name: 'Help' }).click();
    const help = page.getByRole('region', { name: 'Composer help' });
    await help.getByRole('tab', { name: 'AI draft' }).click();
    const include = help.getByRole('checkbox', { name: /Include the documents you revealed/ });
    await expect(include).toHaveCount(0);
    const lastNlp = () => proxy.bodiesTo('/transformersapi/1.0/nlp').at(-1) ?? '';
    const drafts = () => proxy.bodiesTo('/transformersapi/1.0/nlp').length;
    let before = drafts();
    await help.getByRole('button', { name: 'Write a draft' }).click();
    await expect.poll(drafts).toBe(before + 1);
    expect(lastNlp()).toContain('***.***.247-25');
    expect(lastNlp()).not.toContain(CPF_SHOWN);

    // The attendant reveals one document: the choice appears, unticked; the default stays masked.
    await line.getByRole('button', { name: 'Show CPF' }).first().click();
    await expect(line).toContainText(CPF_SHOWN);
    await expect(line).not.toContainText(CPF_HIDDEN);
    await expect(include).toBeVisible();
    await expect(include).not.toBeChecked();
    before = drafts();
    await help.getByRole('button', { name: 'Write a draft' }).click();
    await expect.poll(drafts).toBe(before + 1);
    expect(lastNlp()).not.toContain(CPF_SHOWN);

    // Included on purpose: that one document goes in clear, the other stays masked, once.
    await include.check();
    await expect(help).toContainText('The documents you revealed go in clear for this request only');
    await shot(page, 'polish-reveal-choice');
    before = drafts();
    await help.getByRole('button', { name: 'Write a draft' }).click();
    await expect.poll(drafts).toBe(before + 1);
    expect(lastNlp()).toContain(CPF_SHOWN);
    expect(lastNlp()).not.toContain(CPF_HIDDEN);
    await expect(include).not.toBeChecked();

    // The knowledge base: masked by default, the revealed one when included.
    await help.getByRole('tab', { name: 'Knowledge base' }).click();
    await help.getByRole('searchbox', { name: 'Ask the knowledge base' }).fill(`Segunda via para o CPF ${CPF_SHOWN}`);
    await help.getByText(/^Knowledge base: /).click();
    await help.getByRole('textbox', { name: 'Knowledge base' }).fill('demo_atendimento_data_pt');
    const questions = () => proxy.bodiesTo('/transformersapi/1.0/questions').map((b) => String((JSON.parse(b) as Rec).question));
    await help.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => questions().at(-1)).toBe('Segunda via para o CPF ***.***.247-25');
    await help.getByRole('checkbox', { name: /Include the documents you revealed/ }).check();
    await help.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => questions().at(-1)).toBe(`Segunda via para o CPF ${CPF_SHOWN}`);
  } finally {
    await host.close();
    await proxy.close();
    await sb.close();
  }
});

test('a reply that fails on a network error goes back into the saved draft: Send retries it once, and a restart keeps it', async ({
  page,
}) => {
  const profile = freshProfile();
  let host = await launchHost(profile);
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Open the demo workspace' }).click();
    await consoleReady(page);
    let sb = host.app.standin!;
    await sb.simulator.stop();
    const s = await newestMine(sb);
    const sessionId = s.id as number;
    await openSession(page, s);
    const log = page.getByRole('log', { name: /Messages with/ });
    const box = page.getByRole('textbox', { name: /Reply to/ });
    // In the demo attendant's own folder of the workspace (the one account signed in there).
    const accounts = join(profile, 'workspaces', 'demo', 'accounts');
    const draftFile = join(accounts, readdirSync(accounts)[0]!, 'drafts', `session-${sessionId}.json`);
    const offline = page.getByRole('status', { name: /^Offline since/ });

    // The service answers 503 to the send: the bubble says so and the reply is in the draft.
    const first = 'Seu pedido foi liberado e sai hoje para entrega.';
    await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/messages/save' }, kind: 'status', status: 503 }]);
    await box.fill(first);
    await box.press('Enter');
    const failed = log.getByRole('article').filter({ hasText: first });
    await expect(failed.getByRole('alert')).toContainText('Not sent');
    await expect(failed).toContainText('Kept in your reply draft');
    await expect(failed.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(failed.getByRole('button', { name: 'Discard' })).toBeVisible();
    await expect(box).toHaveValue(first);
    await expect.poll(() => existsSync(draftFile) && readFileSync(draftFile, 'utf8').includes(first)).toBe(true);
    await shot(page, 'polish-failed-reply-kept');

    // The service is back: Send on the kept draft retries that reply, so it goes once.
    await sb.faults.clear();
    await expect(offline).toBeHidden();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(log.getByRole('article').filter({ hasText: first }).getByText('Sent')).toBeVisible();
    await expect(log.getByRole('article').filter({ hasText: first })).toHaveCount(1);
    await expect(box).toHaveValue('');
    await expect.poll(async () => (await repliesOn(sb, sessionId)).filter((m) => m === first).length).toBe(1);
    await expect.poll(() => existsSync(draftFile) && readFileSync(draftFile, 'utf8').includes(first)).toBe(false);

    // Fails again, and the console restarts before anything else: the reply is still there.
    const second = 'Qualquer dúvida, estou à disposição.';
    await sb.faults.set([{ match: { method: 'POST', path: '/chatapi/1.0/api/v2/messages/save' }, kind: 'reset' }]);
    await box.fill(second);
    await box.press('Enter');
    await expect(log.getByRole('article').filter({ hasText: second }).getByRole('alert')).toContainText('Not sent');
    await expect(log.getByRole('article').filter({ hasText: second })).toContainText('Kept in your reply draft');
    await expect.poll(() => existsSync(draftFile) && readFileSync(draftFile, 'utf8').includes(second)).toBe(true);
    await host.close();
    host = await launchHost(profile);
    await page.goto(host.url);
    await consoleReady(page);
    sb = host.app.standin!;
    await sb.simulator.stop();
    // The first reply made it wait for the customer: read where it sits now.
    await openSession(
      page,
      (
        await serviceApi(sb.baseUrl, sb.tokens.agent).list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(sessionId) }])
      )[0]!,
    );
    await expect(box).toHaveValue(second);
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(log.getByRole('article').filter({ hasText: second }).getByText('Sent')).toBeVisible();
    await expect.poll(async () => (await repliesOn(sb, sessionId)).filter((m) => m === second).length).toBe(1);
    await expect(box).toHaveValue('');
  } finally {
    await host.close();
  }
});

test('without a keyring the provider credential form warns, keeps them for this run only and says so, and saves them only with consent', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    await openSession(page, await newestMine(sb));
    const help = page.getByRole('region', { name: 'Composer help' });
    await help.getByRole('tab', { name: 'AI draft' }).click();
    await help.getByLabel('Provider').selectOption('openai');
    const form = help.getByRole('form', { name: 'Provider credentials' });
    await expect(form).toContainText('This machine has no keyring');
    const consent = form.getByRole('checkbox', { name: 'Keep the credentials with weak protection on this machine' });
    await expect(consent).not.toBeChecked();

    await form.getByLabel('Token').fill('tok-polish-web-1');
    await form.getByRole('button', { name: 'Save credentials' }).click();
    await expect(form.getByRole('status')).toContainText('Kept for this run only');
    await expect(form).toContainText('Credentials set');
    await shot(page, 'polish-credentials-session');

    await form.getByLabel('Token').fill('tok-polish-web-2');
    await consent.check();
    await form.getByRole('button', { name: 'Save credentials' }).click();
    await expect(form.getByRole('status')).toContainText('Saved on this computer with weak protection');
    await expect(consent).not.toBeChecked();
  } finally {
    await host.close();
  }
});
