import { test, expect } from '@playwright/test';
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { launchHost } from '../../support/host';
import { tempDirs } from '../../support/temp-dirs';
import { openDemoSession } from '../../support/console';
import { splitRef } from '../../../src-shared/note-ref';

const tempDir = tempDirs('console-private-');
/** The demo workspace's own folder, where its outbox, drafts, copies and listener state live. */
const DEMO_DIR = join('workspaces', 'demo');
const WEBHOOKS_DIR = join(DEMO_DIR, 'webhooks');

/** Every folder and file under `root` whose mode is not private (0700 folders, 0600 files). */
function notPrivate(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = lstatSync(p);
      const mode = st.mode & 0o777;
      if (st.isDirectory()) {
        if (mode !== 0o700) out.push(`${relative(root, p)}/ ${mode.toString(8)}`);
        walk(p);
      } else if (st.isFile() && mode !== 0o600) {
        out.push(`${relative(root, p)} ${mode.toString(8)}`);
      }
    }
  };
  walk(root);
  return out;
}

/** A full session on a fresh profile: demo data, queue, a thread, a note, a draft, a ticket, live updates. */
async function fullSession(profile: string): Promise<{ tokens: Record<string, string> }> {
  const host = await launchHost(profile);
  try {
    const { call, sb, sessionId } = await openDemoSession(host.app);
    await call('attendance:openThread', { sessionId });
    await call('notes:add', { sessionId, text: 'Cliente com CPF 123.456.789-09 pediu retorno.' });
    await expect
      .poll(async () => (await call('notes:list', { sessionId })).service.some((n) => splitRef(n.text).text.startsWith('Cliente com CPF')))
      .toBe(true);
    await call('notes:setDraft', { sessionId, kind: 'reply', text: 'Rascunho com dados do cliente' });
    await call('supervisor:ticket', { idOrKey: '4711' });
    await expect.poll(async () => (await call('live:status', {})).state).toBe('running');
    return { tokens: { ...sb.tokens } };
  } finally {
    await host.close();
  }
}

test('after a full session every file in the profile is 0600 and every folder 0700', async () => {
  const profile = await tempDir();
  await fullSession(profile);
  const found = notPrivate(profile);
  // What the session must have written, so the walk checks real files.
  // The demo attendant's own folder holds her outbox, drafts and recent tickets.
  const account = join(DEMO_DIR, 'accounts', readdirSync(join(profile, DEMO_DIR, 'accounts'))[0]!);
  for (const dir of [
    'demo-workspace',
    'logs',
    join(DEMO_DIR, 'offline-cache'),
    ...['outbox', 'drafts', 'supervisor'].map((d) => join(account, d)),
  ]) {
    expect(readdirSync(join(profile, dir)).length, dir).toBeGreaterThan(0);
  }
  expect(lstatSync(profile).mode & 0o777).toBe(0o700);
  expect(found.filter((f) => !f.startsWith(WEBHOOKS_DIR))).toEqual([]);
});

// Webhook files are made private by the webhook change (another branch). This check passes once
// that change is merged; until then it names the webhook files that are still readable to others.
test('webhook files in the profile are private too', async () => {
  const profile = await tempDir();
  await fullSession(profile);
  expect(readdirSync(join(profile, WEBHOOKS_DIR)).length).toBeGreaterThan(0);
  expect(notPrivate(profile).filter((f) => f.startsWith(WEBHOOKS_DIR))).toEqual([]);
});

test('demo tokens are random per profile and kept with it', async () => {
  const one = await tempDir();
  const two = await tempDir();
  const first = await fullSession(one);
  const other = await fullSession(two);
  const again = await fullSession(one);
  expect(again.tokens).toEqual(first.tokens);
  for (const role of ['agent', 'supervisor', 'admin']) {
    expect(other.tokens[role]).not.toBe(first.tokens[role]);
    // 18 random bytes after the user name, never the seed.
    expect(first.tokens[role]).toMatch(/^sbx_[a-z]+_[A-Za-z0-9_-]{24}$/);
  }
});
