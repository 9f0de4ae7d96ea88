import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStandin, type Standin } from '../../../src-standin/index';
import { ownOpenSessions, repliesOn, selectSession, serviceApi, type Rec, shot, consoleReady } from '../../support/web';
import { freshProfile, launchHost, usedConsoleProfile } from '../../support/host';
import { typedNote } from '../../support/records';
import { tempDirs } from '../../support/temp-dirs';

/** A v2 call straight to the stand-in, to set a scene or check what the console did. */
const api = (baseUrl: string, token: string, path: string, body: unknown) =>
  serviceApi(baseUrl, token).post(`/chatapi/1.0/api/v2${path}`, body);

/** The folder of the one account signed in to a workspace (drafts and notes waiting are the account's). */
function accountFolder(wsDir: string): string {
  const accounts = readdirSync(join(wsDir, 'accounts')).filter((name) => name !== 'unidentified');
  expect(accounts).toHaveLength(1);
  return join(wsDir, 'accounts', accounts[0]!);
}

const bySession = (sessionId: number) => ({
  conditions: [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }],
  sort: false,
  page: 0,
  size: 200,
});
/** The notes the service holds for a session, as typed (the outbox's reference split off). */
const notesOn = async (sb: Standin, sessionId: number) =>
  ((await api(sb.baseUrl, sb.tokens.agent, '/session-comment', bySession(sessionId))).results as Rec[]).map((c) =>
    typedNote(String(c.comment)),
  );

test.use({ viewport: { width: 1366, height: 768 } });

/** The stand-in's data folder, kept across its restart within the test and removed after the file. */
const standinData = tempDirs('standin-offline-');

test('the service goes away: notes wait and are stored once when it is back, the queue and thread stay readable as offline copies, a draft and a held reply survive a restart', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const dataDir = await standinData();
  let sb: Standin = await startStandin({ port: 0, dataDir });
  const port = Number(new URL(sb.baseUrl).port);
  const me = sb.demoAgent;
  const profile = freshProfile();
  let host = await launchHost(profile);
  let standinUp = true;
  /** The connected workspace's own folder (the profile has this one workspace). */
  const wsDir = () => join(profile, 'workspaces', readdirSync(join(profile, 'workspaces'))[0]!);
  try {
    const [a, b] = (await ownOpenSessions(sb, 2)) as [Rec, Rec];
    const aId = a.id as number;
    const lastCustomerLine = (
      (
        await api(sb.baseUrl, sb.tokens.agent, '/messages', {
          conditions: [
            { key: 'session.id', operator: 'EQNUM', value: String(aId) },
            { key: 'fromUser', operator: 'IS_TRUE', logic: 'AND' },
          ],
          sort: true,
          sortColumn: 'createdAt',
          direction: 'DESC',
          page: 0,
          size: 1,
        })
      ).results as Rec[]
    )[0]!.message as string;

    // Connect to the stand-in as a remote workspace.
    await page.goto(host.url);
    await page.getByLabel('Service address').fill(sb.baseUrl);
    await page.getByLabel('Access token').fill(sb.tokens.agent);
    await page.getByLabel('Your user name (optional)').fill(me.userName);
    await page.getByLabel('Keep the token with weak protection on this machine').check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await consoleReady(page);

    // Online: open a session, add a note (shown without its client reference), start a reply.
    await selectSession(page, a);
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(log).toContainText(lastCustomerLine.slice(0, 30));
    await page.getByRole('tab', { name: /Notes/ }).click();
    const notes = page.getByRole('region', { name: 'Notes' });
    await notes.getByRole('textbox', { name: 'New note' }).fill('Cliente confirmou o endereço de entrega.');
    await notes.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => notesOn(sb, aId)).toContain('Cliente confirmou o endereço de entrega.');
    await expect(notes.getByRole('listitem').filter({ hasText: 'Cliente confirmou o endereço de entrega.' })).toBeVisible();
    await expect(notes).not.toContainText('· ref');
    const reply = page.getByRole('textbox', { name: /Reply to/ });
    const draft = 'Vou verificar a transportadora e já retorno com o prazo.';
    await reply.fill(draft);
    // Kept on disk: the draft, and the copies of the queue and of this thread with its notes.
    const draftFile = join(accountFolder(wsDir()), 'drafts', `session-${aId}.json`);
    await expect.poll(() => existsSync(draftFile) && readFileSync(draftFile, 'utf8').includes(draft)).toBe(true);
    const threadCopy = join(wsDir(), 'offline-cache', 'threads', `session-${aId}.json`);
    await expect.poll(() => existsSync(threadCopy) && readFileSync(threadCopy, 'utf8').includes('Cliente confirmou')).toBe(true);
    await expect.poll(() => existsSync(join(wsDir(), 'offline-cache', 'queue.json'))).toBe(true);

    // The stand-in really stops.
    await sb.close();
    standinUp = false;

    // Opening a session not read before meets the network error: the console says it is offline.
    await selectSession(page, b);
    const banner = page.getByRole('status', { name: /^Offline since/ });
    await expect(banner).toBeVisible();
    // Nothing can be live while the service is out of reach.
    await expect(page.getByRole('status', { name: 'Service unreachable' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Live', exact: true })).toHaveCount(0);
    await expect(
      page.getByRole('alert').filter({ hasText: /^Could not load\. The service could not be reached to list (sessions|messages)/ }),
    ).toBeVisible();
    await shot(page, 'offline-banner');

    // The thread opened before stays readable, marked as the offline copy with its fetch time.
    await selectSession(page, a);
    await expect(log).toContainText(lastCustomerLine.slice(0, 30));
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: /^Offline copy from \d/ })
        .first(),
    ).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Sessions' }).getByRole('status')).toHaveText(/Offline copy from \d/);

    // Notes written while offline are kept, shown as waiting.
    await page.getByRole('tab', { name: /Notes/ }).click();
    const offlineNotes = ['Nota 1 sem rede: cliente pediu segunda via.', 'Nota 2 sem rede: prometi retorno até as 18h.'];
    for (const text of offlineNotes) {
      await notes.getByRole('textbox', { name: 'New note' }).fill(text);
      await notes.getByRole('button', { name: 'Add note' }).click();
      await expect(notes.getByRole('listitem').filter({ hasText: text })).toContainText('Waiting to send');
    }
    await expect(notes.getByRole('listitem').filter({ hasText: 'Cliente confirmou o endereço' })).toBeVisible();
    await expect(banner).toContainText('Notes waiting to send: 2');
    await shot(page, 'offline-notes-pending');

    // Send while offline: the reply is held, not sent, and stays in the box.
    await expect(reply).toHaveValue(draft);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Not sent: the service cannot be reached' })).toBeVisible();
    await expect(reply).toHaveValue(draft);

    // The console restarts on the same profile while the service is still down.
    await host.close();
    host = await launchHost(profile);
    await page.goto(host.url);
    await consoleReady(page);
    await expect(banner).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Sessions' }).getByRole('status')).toHaveText(/Offline copy from \d/);
    await selectSession(page, a);
    await expect(log).toContainText(lastCustomerLine.slice(0, 30));
    await expect(reply).toHaveValue(draft);
    await page.getByRole('tab', { name: /Notes/ }).click();
    for (const text of offlineNotes) await expect(notes.getByRole('listitem').filter({ hasText: text })).toContainText('Waiting to send');
    await expect(notes.getByRole('listitem').filter({ hasText: 'Cliente confirmou o endereço' })).toBeVisible();
    await expect(notes.getByRole('status').filter({ hasText: /^Offline copy from \d/ })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
    await shot(page, 'offline-restart-copy');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Not sent: the service cannot be reached' })).toBeVisible();

    // The stand-in comes back on the same address with the same data.
    sb = await startStandin({ port, dataDir });
    standinUp = true;
    await expect(banner).toBeHidden();
    await expect.poll(async () => (await notesOn(sb, aId)).filter((t) => offlineNotes.includes(t)).length).toBe(2);
    for (const text of offlineNotes)
      await expect(notes.getByRole('listitem').filter({ hasText: text })).not.toContainText('Waiting to send');
    const stored = await notesOn(sb, aId);
    for (const text of [...offlineNotes, 'Cliente confirmou o endereço de entrega.'])
      expect(stored.filter((t) => t === text)).toHaveLength(1);
    // In the order they were written.
    expect(stored.indexOf(offlineNotes[0]!)).toBeLessThan(stored.indexOf(offlineNotes[1]!));
    await expect(page.getByRole('status').filter({ hasText: /^Offline copy from/ })).toHaveCount(0);

    // The held reply is not sent on its own: the console asks first.
    const ask = page.getByRole('alertdialog', { name: /The service is back. Send the reply you wrote at/ });
    await expect(ask).toBeVisible();
    expect(await repliesOn(sb, aId)).not.toContain(draft);
    await shot(page, 'offline-held-reply');
    await ask.getByRole('button', { name: 'Send now' }).click();
    await expect(log.getByText('Sent')).toBeVisible();
    await expect.poll(async () => (await repliesOn(sb, aId)).filter((m) => m === draft).length).toBe(1);
    await expect(reply).toHaveValue('');
    await shot(page, 'offline-back');
  } finally {
    await host.close();
    if (standinUp) await sb.close();
  }
});

test('a damaged journal entry is set aside with a visible error while the other notes still go', async ({ page }) => {
  test.setTimeout(120_000);
  const profile = await usedConsoleProfile(page, async (p, h) => {
    await p.goto(h.url);
    await p.getByRole('button', { name: 'Open the demo workspace' }).click();
    await consoleReady(p);
  });
  // A note file the console cannot read (a torn write, a disk error), in the demo attendant's outbox.
  const outbox = join(accountFolder(join(profile, 'workspaces', 'demo')), 'outbox');
  mkdirSync(join(outbox, 'notes'), { recursive: true });
  writeFileSync(join(outbox, 'notes', '0b6f7c3e-1d2a-4c59-9a8e-5f0d4e3c2b1a.json'), '{"v":1,"id":"0b6f7c3e-1d2a');
  const host = await launchHost(profile);
  try {
    await page.goto(host.url);
    await consoleReady(page);
    const aside = page.getByRole('alert', { name: 'Notes set aside' });
    await expect(aside).toContainText('A saved note could not be read, so it was not sent.');
    await expect(aside).toContainText(join(outbox, 'quarantine'));
    expect(existsSync(join(outbox, 'notes', '0b6f7c3e-1d2a-4c59-9a8e-5f0d4e3c2b1a.json'))).toBe(false);

    // Other notes still go.
    const sb = host.app.standin!;
    await sb.simulator.stop();
    const s = (await ownOpenSessions(sb))[0]!;
    await selectSession(page, s);
    await page.getByRole('tab', { name: /Notes/ }).click();
    const notes = page.getByRole('region', { name: 'Notes' });
    await notes.getByRole('textbox', { name: 'New note' }).fill('Esta nota segue normalmente.');
    await notes.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => notesOn(sb, s.id as number)).toContain('Esta nota segue normalmente.');
    await shot(page, 'offline-journal-problem');
  } finally {
    await host.close();
  }
});
