import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandin } from '../../../src-standin/index';
import { openConsole } from '../../support/console';
import { deliverSigned } from '../../support/webhooks';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** A delivery as the service sends it, signed with the listener's secret. */
const deliver = (address: string, secret: string, id: string) =>
  deliverSigned(address, secret, {
    id,
    group: 'status',
    type: 'agent.status',
    occurredAt: new Date().toISOString(),
    data: { agentId: 2, userName: 'ana.souza', status: 'PAUSED', previous: 'ONLINE' },
  });

test('a service keeps delivering to the same address after the console restarts: the listener keeps its path, port and signing secret, sealed as the token is, with the one consent given for it', async () => {
  const sb = await startStandin({ port: 0, sessions: 20 });
  const profile = mkdtempSync(join(tmpdir(), 'console-listener-restart-'));
  try {
    // No keyring here: the user agreed once, when connecting, to keep the token with weak protection.
    let c = await openConsole(profile);
    await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    await expect.poll(async () => (await c.call('webhooks:status', {})).state).toBe('running');
    // The user copies the address and a signing secret to the service's webhook settings.
    const { newSecret, status } = await c.call('webhooks:newSecret', {});
    const address = status.localUrl!;
    expect(newSecret).toMatch(/^whsec_/);
    expect((await deliver(address, newSecret!, 'evt-before-restart')).status).toBe(200);
    await c.app.close();

    // Kept sealed, never in clear: not the secret, not the path.
    const path = new URL(address).pathname.split('/').pop()!;
    for (const f of filesUnder(profile)) {
      const text = readFileSync(f).toString('latin1');
      expect(text, f).not.toContain(newSecret!.slice(6));
      expect(text, f).not.toContain(path);
    }

    // The next start: the same address takes the service's next delivery, signed with the same secret.
    c = await openConsole(profile);
    await expect.poll(async () => (await c.call('webhooks:status', {})).state).toBe('running');
    expect((await c.call('webhooks:status', {})).localUrl).toBe(address);
    const after = await deliver(address, newSecret!, 'evt-after-restart');
    expect(after.status).toBe(200);
    await expect
      .poll(async () => (await c.call('webhooks:log', { limit: 10 })).entries.map((e) => e.id))
      .toEqual(expect.arrayContaining(['evt-after-restart']));
    expect((await c.call('webhooks:status', {})).refusals).toEqual({});
    await c.app.close();
  } finally {
    await sb.close();
  }
});
