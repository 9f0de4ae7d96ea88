/**
 * A process that runs the outbox on a directory, for the kill -9 test. It adds notes
 * `from..total-1` (texts `note <i> run <run>`, spread over the sessions), syncs, and prints one
 * JSON line per event on stdout so the parent can pick its moment to kill it:
 *   {"ev":"loaded","unknown":n,"pending":n}  {"ev":"added","i":n}
 *   {"ev":"sending","ref":"..."}  {"ev":"confirmed","ref":"..."}  {"ev":"idle"}
 * Configuration comes as JSON in the OUTBOX_CHILD environment variable.
 */
import { z } from 'zod';
import { Outbox } from '../../src-main/outbox/outbox';
import { createServiceClient } from '../../src-main/service';
import { createCommentTransport } from '../../src-main/outbox/transport';

const Config = z.object({
  dir: z.string(),
  baseUrl: z.string().url(),
  token: z.string(),
  sessions: z.array(z.number().int().positive()).min(1),
  from: z.number().int().nonnegative(),
  total: z.number().int().positive(),
  run: z.number().int().nonnegative(),
});
const cfg = Config.parse(JSON.parse(process.env.OUTBOX_CHILD ?? '{}'));

const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
const client = createServiceClient({ baseUrl: cfg.baseUrl, getToken: async () => cfg.token, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
const transport = createCommentTransport(client);
const box = new Outbox({
  dir: cfg.dir,
  transport,
  concurrency: 3,
  requestTimeoutMs: 3_000,
  settleMs: 100,
  retry: { baseMs: 10, maxMs: 200 },
  probe: { baseMs: 10, maxMs: 200 },
});

let adding = true;
const keepAlive = setInterval(() => undefined, 1_000);
const checkIdle = () => {
  if (!adding && box.outstanding === 0) {
    say({ ev: 'idle' });
    clearInterval(keepAlive);
    void box
      .stop()
      .then(() => client.close())
      .then(() => process.exit(0));
  }
};
box.subscribe((e) => {
  if (e.type === 'note' && (e.note.state === 'sending' || e.note.state === 'confirmed')) say({ ev: e.note.state, ref: e.note.ref });
  if (e.type === 'note' && e.note.state === 'failed') say({ ev: 'failed', ref: e.note.ref, error: e.note.error });
  if (e.type === 'note' || e.type === 'removed') checkIdle();
});

await box.start();
const s = box.status().counts;
say({ ev: 'loaded', unknown: s['outcome-unknown'], pending: s.pending });
for (let i = cfg.from; i < cfg.total; i++) {
  const session = cfg.sessions[i % cfg.sessions.length]!;
  await box.add(session, `note ${i} run ${cfg.run}`);
  say({ ev: 'added', i });
}
adding = false;
checkIdle();
