/**
 * What a relay keeps between runs, in `<state-dir>/relay.json` (folder 0700, file 0600): the
 * path secret and the signing secret its deliveries must carry, and the registration it made at
 * the service. Several relays behind one load balancer share one registration, so they share
 * this file's secrets (copy it to each).
 */
import { chmod, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DirSyncer, ensureDir, writeFileDurable } from '../outbox/fsutil';
import { newPathSecret, newSigningSecret } from '../webhooks/listener';

const RelayStateSchema = z
  .object({
    v: z.literal(1),
    pathSecret: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/),
    signingSecret: z.string().min(16),
    hook: z.object({ id: z.number().int(), service: z.string(), url: z.string() }).strict().nullable(),
  })
  .strict();
export type RelayState = z.infer<typeof RelayStateSchema>;

const FILE = 'relay.json';

export async function readRelayState(dir: string): Promise<RelayState | null> {
  let text: string;
  try {
    text = await readFile(join(dir, FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const parsed = RelayStateSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(`${join(dir, FILE)} is not a relay state file (${parsed.error.issues[0]?.message ?? 'unreadable'}).`);
  return parsed.data;
}

export async function writeRelayState(dir: string, state: RelayState): Promise<void> {
  await ensureDir(dir);
  await chmod(dir, 0o700);
  await writeFileDurable(new DirSyncer(dir), FILE, `${JSON.stringify(RelayStateSchema.parse(state), null, 2)}\n`);
}

/** The kept state, or a fresh one with new secrets (written before it is used). */
export async function relayState(dir: string): Promise<RelayState> {
  const kept = await readRelayState(dir);
  if (kept) return kept;
  const fresh: RelayState = { v: 1, pathSecret: newPathSecret(), signingSecret: newSigningSecret(), hook: null };
  await writeRelayState(dir, fresh);
  return fresh;
}
