/**
 * A console reading the team relay in a process of its own, for the crash test: it applies each
 * event by appending its id to `effects.ndjson` (what applying did, as the test sees it), keeps
 * its applied ids in `applied.ndjson` (unless `durable` is false), and prints one JSON line per
 * step: {"ev":"live"} {"ev":"recorded","id":...} {"ev":"stats","duplicates":n}. With `crashAfter`
 * it stops before acknowledging that many-th event and waits to be killed.
 * Configuration comes as JSON in the RELAY_CHILD environment variable.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { startRelaySource } from '../../src-main/relay/console-source';
import { AppliedLog } from '../../src-main/relay/applied-log';

const Config = z.object({
  address: z.string(),
  operation: z.string(),
  console: z.string(),
  password: z.string(),
  dir: z.string(),
  durable: z.boolean(),
  crashAfter: z.number().int().positive().nullable(),
});
const cfg = Config.parse(JSON.parse(process.env.RELAY_CHILD ?? '{}'));
const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

let recorded = 0;
const source = startRelaySource({
  address: cfg.address,
  operation: cfg.operation,
  console: cfg.console,
  credentials: { kind: 'user', user: `${cfg.console}@${cfg.operation}`, password: cfg.password },
  retry: { baseMs: 200, maxMs: 200 },
  reconnectTimeWaitMs: 200,
  maxInFlight: 1,
  ...(cfg.durable ? { applied: new AppliedLog(join(cfg.dir, 'applied.ndjson'), 24 * 3600_000) } : {}),
  apply: async (e) => {
    appendFileSync(join(cfg.dir, 'effects.ndjson'), `${e.id}\n`);
  },
  beforeAck: async (id) => {
    say({ ev: 'recorded', id });
    if (++recorded === cfg.crashAfter) await new Promise(() => undefined);
  },
  onState: (state) => {
    if (state === 'live') say({ ev: 'live' });
  },
});
setInterval(() => say({ ev: 'stats', duplicates: source.stats().duplicates }), 200);
