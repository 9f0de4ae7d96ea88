import type { Standin } from '../../src-standin/index';
import { standinClient } from '../../src-standin/test-client';
import { MAX_CONDITIONS } from '../../src-standin/query-engine';
import { RESOURCES, V2 } from '../../src-shared/paths';

/** The pattern that made the old regex LIKE backtrack for seconds. */
export const BACKTRACKING_LIKE = '%a%a%a%a%a%X';

/** Long notes for the stand-in to scan (straight to the service: the console caps its own notes shorter). */
export async function seedLongNotes(sb: Standin, sessionId: number, count: number, length = 10_000): Promise<void> {
  const c = standinClient(sb.baseUrl, sb.tokens.agent);
  for (let i = 0; i < count; i++) {
    const r = await c.v2(RESOURCES.sessionComment.save, { sessionId, comment: 'a'.repeat(length) });
    if (r.status !== 201) throw new Error(`note not saved: ${r.status} ${r.text.slice(0, 200)}`);
  }
}

/**
 * About the slowest list the stand-in accepts: as many LIKE conditions as a query may hold, in
 * one OR so none short-circuits, each scanning every note for a match that is not there.
 */
export function slowestQuery(): { path: string; body: unknown } {
  const likes = Array.from({ length: MAX_CONDITIONS - 1 }, () => ({ key: 'comment', operator: 'LIKE', value: BACKTRACKING_LIKE }));
  return { path: V2 + RESOURCES.sessionComment.list, body: { conditions: [{ or: likes }], sort: false } };
}

/** One query to the stand-in as the agent, with its status and duration. */
export async function timedQuery(sb: Standin, path: string, body: unknown): Promise<{ status: number; count: number; ms: number }> {
  const started = performance.now();
  const r = await standinClient(sb.baseUrl, sb.tokens.agent).call('POST', path, body);
  const ms = performance.now() - started;
  return { status: r.status, count: r.status === 200 ? r.json<{ results: unknown[] }>().results.length : 0, ms };
}
