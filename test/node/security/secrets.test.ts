import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type ConsoleApp } from '../../../src-main/app';
import { dispatch } from '../../../src-main/bridge/table';
import { KeyFileCipher } from '../../../src-main/vault/node-cipher';
import { createConfStore } from '../../../src-main/vault/conf-store';
import { Vault } from '../../../src-main/vault/vault';
import { createLogger, type RootLogger } from '../../../src-main/log';
import { startStandin, type Standin } from '../../../src-standin/index';

/**
 * Secrets at rest and in flight, over a whole session through the real handler table: the
 * service token and a provider's credentials are kept only encrypted, only with consent where
 * the protection is weak, never cross the bridge back, never reach the log, and sign-out wipes
 * them from the profile.
 */

const PROVIDER_KEY = 'pk_live_provider_access_31a2b3';
const PROVIDER_SECRET = 'sk_live_provider_secret_9c8d7e';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** What a platform hands createApp in plain Node (the same adapters the web host uses). */
function openApp(profileDir: string): { app: ConsoleApp; log: RootLogger } {
  const log = createLogger({ file: join(profileDir, 'logs', 'console.log'), level: 'debug' });
  const app = createApp({
    profileDir,
    cipher: new KeyFileCipher(profileDir),
    openStore: (name, dir) => createConfStore(dir ?? profileDir, name),
    locale: 'en-US',
    log,
    registerSecret: (s) => log.registerSecret(s),
  });
  return { app, log };
}

test('a full session keeps the token and provider credentials out of the bridge, the log and the profile', async () => {
  test.setTimeout(90_000);
  const sb: Standin = await startStandin({ port: 0 });
  const token = sb.tokens.supervisor;
  const profile = mkdtempSync(join(tmpdir(), 'console-secrets-'));
  const traffic: string[] = [];
  const call = async (app: ConsoleApp, channel: string, input: unknown) => {
    // The calls that carry what the user typed are the only ones allowed to hold a secret.
    const typed = channel === 'workspace:connect' || channel === 'attendance:setCredential';
    traffic.push(`> ${channel} ${typed ? '(secret typed by the user)' : JSON.stringify(input)}`);
    const answer = await dispatch(app.handlers, channel, input);
    traffic.push(`< ${channel} ${JSON.stringify(answer)}`);
    return answer as { result?: Record<string, unknown>; error?: { kind: string; field?: string; message: string } };
  };

  try {
    // First run: no keyring here (the weak state). The console says so and asks before saving.
    let { app, log } = openApp(profile);
    app.events.subscribe((name, payload) => traffic.push(`event ${name} ${JSON.stringify(payload)}`));
    await app.start();
    const first = await call(app, 'workspace:state', {});
    expect(first.result?.vault).toMatchObject({ state: 'weak' });
    expect(String((first.result?.vault as { detail: string }).detail)).toMatch(/anyone who can read that folder/);
    const unconsented = await call(app, 'workspace:connect', { baseUrl: sb.baseUrl, token, userName: sb.demoAgent.userName });
    expect(unconsented.error).toMatchObject({ kind: 'Invalid', field: 'allowWeakStorage' });
    for (const f of filesUnder(profile)) expect(readFileSync(f).toString('latin1'), f).not.toMatch(/"secret"/);

    const connected = await call(app, 'workspace:connect', {
      baseUrl: sb.baseUrl,
      token,
      userName: sb.demoAgent.userName,
      allowWeakStorage: true,
    });
    expect(connected.result).toMatchObject({ signedIn: true });
    // The workspace's secrets are in its own folder's vault.
    const wsDir = app.workspaceDir(String(connected.result?.active));
    expect(
      await call(app, 'attendance:setCredential', { provider: 'acme', accessKey: PROVIDER_KEY, secretKey: PROVIDER_SECRET }),
    ).toMatchObject({ result: { credentialSet: true } });
    const snapshot = await call(app, 'attendance:queue', {});
    expect(snapshot.result).toBeTruthy();
    await call(app, 'attendance:providers', {});
    await call(app, 'attendance:kbAnswer', { question: 'Como troco a senha?' });
    await app.close();
    await log.close();

    // A provider credential sealed by an earlier run, never read by the next one.
    const vault = new Vault(new KeyFileCipher(profile), createConfStore(wsDir, 'vault'));
    vault.put('provider:acme', JSON.stringify({ access_key: PROVIDER_KEY, secret_key: PROVIDER_SECRET }), { allowWeak: true });
    const sealedBefore = readFileSync(join(wsDir, 'vault.json'), 'utf8');
    expect(sealedBefore).toContain('"secret"');

    // Second run: straight back in from the stored token; then sign out.
    ({ app, log } = openApp(profile));
    app.events.subscribe((name, payload) => traffic.push(`event ${name} ${JSON.stringify(payload)}`));
    await app.start();
    expect((await call(app, 'workspace:state', {})).result).toMatchObject({ signedIn: true });
    await call(app, 'attendance:queue', {});
    const out = await call(app, 'workspace:signOut', {});
    expect(out.result).toMatchObject({ signedIn: false, workspace: null });
    await app.close();
    await log.close();

    // Sign-out wiped every sealed secret, the provider's included, though this run never read it:
    // the workspace's folder is gone, and no vault of the profile holds a secret.
    expect(existsSync(wsDir)).toBe(false);
    for (const f of filesUnder(profile).filter((f) => f.endsWith('vault.json'))) {
      expect(readFileSync(f, 'utf8'), f).not.toContain('"secret"');
    }
    const again = new Vault(new KeyFileCipher(profile), createConfStore(wsDir, 'vault'));
    expect(again.get('token')).toBeNull();
    expect(again.get('provider:acme')).toBeNull();
  } finally {
    await sb.close();
  }

  // Nothing in clear anywhere: every bridge message (the one typed token aside), every event,
  // every file of the profile, the log included.
  const secrets = [token, PROVIDER_KEY, PROVIDER_SECRET];
  expect(traffic.length).toBeGreaterThan(15);
  for (const line of traffic) for (const s of secrets) expect(line).not.toContain(s);
  const files = filesUnder(profile);
  expect(files.some((f) => f.endsWith('console.log'))).toBe(true);
  const logText = readFileSync(
    files.find((f) => f.endsWith('console.log'))!,
    'utf8',
  );
  expect(logText.length).toBeGreaterThan(0);
  for (const f of files) for (const s of secrets) expect(readFileSync(f).toString('latin1'), f).not.toContain(s);
});
