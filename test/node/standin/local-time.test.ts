import { test, expect } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';

/**
 * The stand-in's local-time reading (src-standin/README.md: readings): every date-time is the
 * wall time of its zone with no offset, as a server on Java's LocalDateTime writes them; its
 * HTTP Date header stays true UTC; what comes in without an offset is that zone's wall time.
 * Checked against the default reading, seeded alike, with offsets worked out by hand (São Paulo
 * -03:00 all year; Kolkata +05:30).
 */

type Row = Record<string, unknown>;
const anchorTime = '2026-11-23T12:00:00Z';
const WALL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;
let plain: Standin;
let sp: Standin;
let kol: Standin;

test.beforeAll(async () => {
  [plain, sp, kol] = await Promise.all([
    startStandin({ port: 0, seed: 11, sessions: 30, anchorTime }),
    startStandin({ port: 0, seed: 11, sessions: 30, anchorTime, reading: 'local-time' }),
    startStandin({ port: 0, seed: 11, sessions: 30, anchorTime, reading: 'local-time', zone: 'Asia/Kolkata' }),
  ]);
});
test.afterAll(async () => {
  await Promise.all([plain.close(), sp.close(), kol.close()]);
});

/**
 * Where `local` differs from `utc` other than by every ISO UTC date-time (nested ones too) written
 * as wall time `offset` minutes east: a list of `path: why`, empty when none.
 */
function differences(utc: unknown, local: unknown, offset: number, where: string, out: string[] = []): string[] {
  if (typeof utc === 'string' && /^\d{4}-\d{2}-\d{2}T.*Z$/.test(utc)) {
    if (typeof local !== 'string' || !WALL.test(local)) out.push(`${where}: ${String(local)} is not wall time`);
    else if (Date.parse(`${local}Z`) - offset * 60_000 !== Date.parse(utc)) out.push(`${where}: ${local} is not ${utc}`);
  } else if (Array.isArray(utc)) {
    if (!Array.isArray(local) || local.length !== utc.length) out.push(`${where}: not the same list`);
    else utc.forEach((x, i) => differences(x, local[i], offset, `${where}.${i}`, out));
  } else if (utc !== null && typeof utc === 'object') {
    if (local === null || typeof local !== 'object') out.push(`${where}: not an object`);
    else {
      const keys = (o: object) => Object.keys(o).sort().join();
      if (keys(utc) !== keys(local)) out.push(`${where}: other fields`);
      for (const [key, v] of Object.entries(utc)) differences(v, (local as Row)[key], offset, `${where}.${key}`, out);
    }
  } else if (utc !== local) out.push(`${where}: ${String(local)} is not ${String(utc)}`);
  return out;
}

const rows = async (s: Standin, path: string): Promise<Row[]> => {
  const r = await standinClient(s.baseUrl, s.tokens.agent).v2(path, {
    conditions: [],
    sort: true,
    sortColumn: 'id',
    direction: 'ASC',
    size: 100,
  });
  expect(r.status, r.text).toBe(200);
  return r.json<{ results: Row[] }>().results;
};

test('date-times are wall time of the zone with no offset; everything else is the default reading', async () => {
  for (const path of ['/user-session', '/messages']) {
    const [d, s, k] = await Promise.all([rows(plain, path), rows(sp, path), rows(kol, path)]);
    expect(s.length).toBeGreaterThan(10);
    for (let i = 0; i < d.length; i++) {
      expect(differences(d[i], s[i], -180, `${path} ${i}`)).toEqual([]);
      expect(differences(d[i], k[i], 330, `${path} ${i}`)).toEqual([]);
    }
  }
});

test('the Date header is true UTC, and a save answers with the zone’s wall time of now', async () => {
  const c = standinClient(sp.baseUrl, sp.tokens.agent);
  const [session] = await rows(sp, '/user-session');
  const before = Date.now();
  const r = await c.v2('/user-session/save', { id: session!.id, attendedAt: '2026-11-29T07:30:00' });
  expect(r.status).toBeLessThan(300);
  const date = Date.parse(r.headers.get('date')!);
  expect(Math.abs(date - before)).toBeLessThan(5_000);
  const saved = r.json<Row>();
  // The wall time sent is São Paulo's: stored as 10:30 UTC, written back as sent.
  expect(saved.attendedAt).toBe('2026-11-29T07:30:00.000');
  expect(Math.abs(Date.parse(`${String(saved.updatedAt)}-03:00`) - before)).toBeLessThan(5_000);
  const asDefault = (await rows(plain, '/user-session')).length;
  expect(asDefault).toBeGreaterThan(0);
});

test('BEFORE and AFTER take wall time of the zone', async () => {
  const c = standinClient(sp.baseUrl, sp.tokens.agent);
  const all = await rows(plain, '/messages');
  const times = all.map((m) => Date.parse(String(m.createdAt))).sort((a, b) => a - b);
  const mid = times[Math.floor(times.length / 2)]!;
  const wall = new Date(mid - 3 * 3600_000).toISOString().slice(0, -1);
  const r = await c.v2('/messages', {
    conditions: [{ key: 'createdAt', operator: 'AFTER', value: wall }],
    sort: true,
    sortColumn: 'id',
    direction: 'ASC',
    size: 100,
  });
  const got = r.json<{ results: Row[] }>().results.map((m) => m.id);
  expect(got).toEqual(all.filter((m) => Date.parse(String(m.createdAt)) > mid).map((m) => m.id));
});
