import { test, expect } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { createServiceClient } from '../../../src-main/service';
import { ServiceTime, type LearnedTime } from '../../../src-main/service/service-time';
import { openConsole } from '../../support/console';
import { serviceApi, type Rec } from '../../support/web';

/**
 * A service that writes its wall time with no offset (the stand-in's local-time reading, São
 * Paulo: three hours behind UTC all year since 2019), while this machine may be in any zone (the
 * project runs these tests under TZ=America/Sao_Paulo and TZ=UTC). The console learns the offset
 * from its first write (the record's own time against the HTTP Date header), reads every
 * date-time in it, and writes its filters and saves the same way. What each record truly says is
 * worked out here from the service's raw answer: its wall time plus three hours.
 */

const ZONE = 'America/Sao_Paulo';
/** The instant a São Paulo wall time with no offset names (the zone has kept -03:00 since 2019). */
const truth = (wall: unknown): number => {
  expect(typeof wall === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(wall), `raw ${String(wall)}`).toBe(true);
  return Date.parse(`${String(wall)}-03:00`);
};

let sb: Standin;
test.beforeEach(async () => {
  sb = await startStandin({ port: 0, sessions: 40, reading: 'local-time', zone: ZONE });
});
test.afterEach(async () => {
  await sb?.close();
});

test('the client learns the offset from a write and reads, filters and saves in it', async () => {
  const learned: LearnedTime[] = [];
  const time = new ServiceTime({ onLearned: (l) => learned.push(l) });
  const client = createServiceClient({ baseUrl: sb.baseUrl, getToken: () => Promise.resolve(sb.tokens.agent), serviceTime: time });
  const api = serviceApi(sb.baseUrl, sb.tokens.agent);
  try {
    const [session] = (
      await client.resource('userSession').list({ conditions: [{ key: 'status', operator: 'EQ', value: 'OPEN' }], size: 1 })
    ).results;
    expect(session?.id).toBeDefined();
    // Nothing written yet: wall time read as UTC, three hours early (what the console did before).
    const rawBefore = (await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(session!.id) }]))[0]!;
    expect(Date.parse(session!.createdAt!)).toBe(truth(rawBefore.createdAt) - 3 * 3600_000);
    expect(time.zone).toBeNull();

    // A save: its answer's updatedAt is the service's "now", its Date header true UTC.
    const attendedAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    const saved = await client.saveSession({ id: session!.id, attendedAt });
    expect(learned.at(-1)).toEqual({ offsetMinutes: -180, wallTime: true });
    // The instant sent is the instant the service holds: written as its wall time, read back as sent.
    expect(saved.attendedAt).toBe(attendedAt);
    const raw = (await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(session!.id) }]))[0]!;
    expect(truth(raw.attendedAt)).toBe(Date.parse(attendedAt));
    expect(Math.abs(truth(raw.updatedAt) - Date.now())).toBeLessThan(60_000);

    // Every date-time of a page now reads as the service means it.
    const page = await client.resource('message').list({ sort: true, sortColumn: 'createdAt', direction: 'DESC', size: 50 });
    const rawPage = await api.list('/messages', [], { sortColumn: 'createdAt', direction: 'DESC', size: 50 });
    expect(page.results.length).toBeGreaterThan(10);
    for (const m of page.results) {
      const r = rawPage.find((x: Rec) => x.id === m.id)!;
      expect(Date.parse(m.createdAt!), `message ${m.id}`).toBe(truth(r.createdAt));
    }

    // A "since" filter is written in the service's wall time: it selects exactly the later records.
    const times = page.results.map((m) => Date.parse(m.createdAt!)).sort((a, b) => a - b);
    const since = times[Math.floor(times.length / 2)]!;
    const later = await client.resource('message').pageAll({
      conditions: [{ key: 'createdAt', operator: 'AFTER', value: new Date(since).toISOString() }],
      size: 500,
    });
    const expected = rawPage.filter((r: Rec) => truth(r.createdAt) > since).map((r: Rec) => r.id);
    const got = later.map((m) => m.id);
    for (const id of expected) expect(got).toContain(id);
    expect(later.every((m) => Date.parse(m.createdAt!) > since)).toBe(true);
  } finally {
    await client.close();
  }
});

test('a reply just sent carries its real time, and the learned zone is kept for the next start', async () => {
  test.setTimeout(90_000);
  const c = await openConsole();
  try {
    await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    const snap = await c.call('attendance:queue', {});
    const mine = snap.items.find((i) => i.agentUserName === sb.demoAgent.userName && i.status === 'OPEN');
    expect(mine).toBeDefined();
    await c.call('attendance:openThread', { sessionId: mine!.id });
    const before = Date.now();
    const sent = await c.call('attendance:send', { sessionId: mine!.id, text: `Horário certo ${before}`, clientId: 'zone-1' });
    const after = Date.now();
    const at = Date.parse(sent.createdAt!);
    // The stand-in writes milliseconds of its own clock, this process's: the reply lands between.
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(after + 1000);

    // Every message of the thread, read again, is what the service means.
    await c.call('attendance:closeThread', { sessionId: mine!.id });
    const opened = await c.call('attendance:openThread', { sessionId: mine!.id });
    const raw = await serviceApi(sb.baseUrl, sb.tokens.agent).listAll('/messages', [
      { key: 'session.id', operator: 'EQNUM', value: String(mine!.id) },
    ]);
    expect(opened.page.messages.length).toBeGreaterThan(1);
    for (const m of opened.page.messages) {
      const r = raw.find((x) => x.id === m.id)!;
      expect(Date.parse(m.createdAt!), `message ${m.id}`).toBe(truth(r.createdAt));
    }
  } finally {
    await c.app.close();
  }

  // Started again on the same profile: the first read is right before any write.
  const again = await openConsole(c.profileDir);
  try {
    const snap = await again.call('attendance:queue', {});
    const raw = await serviceApi(sb.baseUrl, sb.tokens.agent).list('/user-session', [{ key: 'status', operator: 'EQ', value: 'OPEN' }], {
      size: 500,
    });
    expect(snap.items.length).toBeGreaterThan(0);
    for (const item of snap.items.slice(0, 20)) {
      const r = raw.find((x) => x.id === item.id);
      if (r) expect(Date.parse(item.createdAt!), `session ${item.id}`).toBe(truth(r.createdAt));
    }
  } finally {
    await again.app.close();
  }
});

test('the workspace setting names the zone before anything is learned; a zone no one can read is refused', async () => {
  const c = await openConsole();
  try {
    await c.call('workspace:connect', { baseUrl: sb.baseUrl, token: sb.tokens.agent, allowWeakStorage: true });
    expect(await c.call('live:serviceTime', {})).toMatchObject({ setting: null, learned: null, inUse: 'UTC' });

    const refused = await c.fail('live:setServiceZone', { zone: 'Brasília' });
    expect(refused.kind).toBe('Invalid');
    expect(refused.message).toContain('"Brasília" is not a time zone');
    expect((await c.call('live:serviceTime', {})).setting).toBeNull();

    const set = await c.call('live:setServiceZone', { zone: 'America/Sao_Paulo' });
    expect(set).toMatchObject({ setting: 'America/Sao_Paulo', inUse: 'America/Sao_Paulo' });
    // Read with no write made: every session's time is the one the service means.
    const snap = await c.call('attendance:queue', { fresh: true });
    const raw = await serviceApi(sb.baseUrl, sb.tokens.agent).list('/user-session', [{ key: 'status', operator: 'EQ', value: 'OPEN' }], {
      size: 500,
    });
    let compared = 0;
    for (const item of snap.items) {
      const r = raw.find((x) => x.id === item.id);
      if (!r) continue;
      expect(Date.parse(item.createdAt!), `session ${item.id}`).toBe(truth(r.createdAt));
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
    expect((await c.call('live:serviceTime', {})).wallTime).toBe(true);

    // Emptied: learned from the service again (nothing learned yet here: UTC).
    expect(await c.call('live:setServiceZone', { zone: '  ' })).toMatchObject({ setting: null, inUse: 'UTC' });
  } finally {
    await c.app.close();
  }
});
