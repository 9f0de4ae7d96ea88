import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startRelay, type Relay } from '../../../src-main/relay/relay';
import { relayUser } from '../../../src-main/relay/permissions';
import { natsMissing, startNats, testUsers, type NatsServer } from '../../support/nats';
import { delivery, post } from '../../support/relay';
import { alive } from '../../support/processes';
import { tempDirs } from '../../support/temp-dirs';

/**
 * A console killed after applying a relay event and before acknowledging it: JetStream hands the
 * event again at its next start (after the ack wait), and the console, having recorded the id on
 * disk before the acknowledgement, does not apply it a second time. The same crash without the
 * record applies it twice: the test sees the difference.
 */

test.skip(natsMissing() !== null, natsMissing() ?? '');
test.setTimeout(180_000);

const CHILD = path.resolve('test/support/relay-console-child.ts');
const tempDir = tempDirs('relay-crash-');
const SECRET = 'whsec_Y3Jhc2gtdGVzdC1zZWNyZXQtMDEyMzQ1Njc4OWFi';
const accounts = testUsers({ vila: ['ana', 'bruno'] });

let nats: NatsServer;
let relay: Relay;
const children: ChildProcess[] = [];
test.beforeAll(async () => {
  nats = await startNats(await tempDir(), { users: accounts.users });
  relay = await startRelay({
    operation: 'vila',
    port: 0,
    pathSecret: 'relay-crash-path-secret',
    signingSecret: SECRET,
    nats: { address: nats.address, credentials: { kind: 'user', user: relayUser('vila'), password: accounts.password(relayUser('vila')) } },
  });
});
test.afterEach(() => {
  for (const c of children.splice(0)) if (c.pid && alive(c.pid)) c.kill('SIGKILL');
});
test.afterAll(async () => {
  await relay?.close();
  await nats?.stop();
});

/** A console process; resolves its lines as they come. */
function startConsole(o: { console: string; dir: string; durable: boolean; crashAfter: number | null }) {
  const lines: Array<{ ev: string; id?: string; duplicates?: number }> = [];
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      RELAY_CHILD: JSON.stringify({ address: nats.address, operation: 'vila', password: accounts.password(`${o.console}@vila`), ...o }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let rest = '';
  child.stdout.on('data', (b: Buffer) => {
    const parts = (rest + b.toString('utf8')).split('\n');
    rest = parts.pop()!;
    for (const p of parts) if (p.trim()) lines.push(JSON.parse(p) as { ev: string });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, lines, exited };
}

const effects = (dir: string) => readFileSync(path.join(dir, 'effects.ndjson'), 'utf8').split('\n').filter(Boolean);

for (const durable of [true, false]) {
  test(
    durable
      ? 'killed between apply and acknowledgement, the console applies nothing twice after it starts again'
      : 'control: without the durable record, the same crash applies the event twice',
    async () => {
      const name = durable ? 'ana' : 'bruno';
      const dir = await tempDir();
      const ids = Array.from({ length: 5 }, (_, i) => `evt_crash_${name}_${i}`);
      // The console's durable consumer exists before the events come (it is made at its first start).
      const first = startConsole({ console: name, dir, durable, crashAfter: 3 });
      await expect.poll(() => first.lines.some((l) => l.ev === 'live'), { timeout: 20_000 }).toBe(true);
      for (const id of ids) expect((await post(relay.url, delivery(SECRET, { id, group: 'messages' }))).status).toBe(200);
      // The third is applied and recorded, not acknowledged: killed there.
      await expect.poll(() => first.lines.filter((l) => l.ev === 'recorded').length, { timeout: 20_000 }).toBe(3);
      first.child.kill('SIGKILL');
      await first.exited;
      expect(effects(dir)).toEqual(ids.slice(0, 3));

      const again = startConsole({ console: name, dir, durable, crashAfter: null });
      // The rest come, and the unacknowledged third comes again once its ack wait (30 s) is over.
      await expect.poll(() => new Set(effects(dir)).size, { timeout: 60_000 }).toBe(ids.length);
      if (durable) {
        await expect
          .poll(() => again.lines.findLast((l) => l.ev === 'stats')?.duplicates ?? 0, { timeout: 60_000 })
          .toBeGreaterThanOrEqual(1);
        // Each applied once.
        expect(effects(dir).sort()).toEqual([...ids].sort());
      } else {
        await expect.poll(() => effects(dir).filter((id) => id === ids[2]).length, { timeout: 60_000 }).toBe(2);
      }
    },
  );
}
