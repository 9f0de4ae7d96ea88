import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import type { z } from 'zod';
import { personOf } from '../../../src-shared/concepts';
import { readRecord } from '../../../src-shared/envelopes';
import { RESOURCES, RESOURCE_KEYS, V2_OPS, ticketPath, type ResourceKey } from '../../../src-shared/paths';
import { ChatSuggestionSchema, GroupConfigurationSchema, NpsSummarySchema, TicketSchema } from '../../../src-shared/schemas/index';
import { RESOURCE_SCHEMAS } from '../../../src-shared/schemas/resources';
import { toQueueItem } from '../../../src-main/queue';
import {
  toAgentInfo,
  toClassNodes,
  toGroupInfo,
  toPauseReason,
  toSessionDetail,
  toSuggestion,
  toThreadMessage,
} from '../../../src-main/features/attendance/project';
import { toServiceNote } from '../../../src-main/features/notes/index';
import { toExplorerRow, toNpsResult, toReportRow, toTicketView } from '../../../src-main/features/supervisor/views';
import {
  ABSENT_ENCODINGS,
  BOOL_ENCODINGS,
  CANONICAL,
  DATE_ENCODINGS,
  EMPTY_LIST_ENCODINGS,
  INT_ENCODINGS,
  encodeWith,
  everywhere,
  type Encoding,
  type EncodingOf,
} from '../../../src-standin/encodings';
import { SPECS, type CollectionName, type Spec } from '../../../src-standin/fields';
import { startStandin, type Standin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';

/**
 * The service read once: every record kind the stand-in serves, re-encoded in each encoding real
 * server stacks give a typed field (src-standin/encodings.ts: integers as digits, date-times with
 * an offset, without a zone, with microseconds or as epoch numbers, booleans as words, absence as
 * null, empty lists as null or left out) and in random mixes of them field by field, projects to
 * exactly what the stand-in's own encoding projects to: queue item, session detail, thread
 * message, group info, classification tree, pause reason, agent, note, suggestion, ticket view,
 * report row, NPS result, explorer row.
 */

type Rec = Record<string, unknown>;
const FIXED_NOW = Date.parse('2026-11-23T12:30:00Z');

/** A record kind: where its records come from, how its spec encodes them, how the console reads and shows them. */
interface Kind {
  name: string;
  spec: Spec;
  records: Rec[];
  project(raw: Rec): unknown;
}

/** Reads `raw` through `schema` (the one layer) and projects it; an unreadable record says why. */
function through(schema: z.ZodType, resource: string, raw: Rec, show: (r: never) => unknown): unknown {
  const got = readRecord(schema, raw, resource);
  return got.ok ? show(got.record as never) : { unreadable: got.skip };
}

const NPS_SPEC: Spec = { averageNps: 'number', negative: 'int', neutral: 'int', positive: 'int', totalCount: 'int' };

let sb: Standin;
const kinds: Kind[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sb = await startStandin({ port: 0, sessions: 200, seed: 29, anchorTime: '2026-11-23T12:00:00Z' });
  const api = standinClient(sb.baseUrl, sb.tokens.admin);
  const list = async (path: string, size = 40, byId = true): Promise<Rec[]> => {
    const order = byId ? { sort: true, sortColumn: 'id', direction: 'DESC' } : { sort: false };
    const r = await api.v2(path, { conditions: [], ...order, page: 0, size });
    expect(r.status, `${path}: ${r.text}`).toBe(200);
    return r.json<{ results: Rec[] }>().results;
  };
  const resource = (key: ResourceKey, project: (r: never) => unknown): Kind => ({
    name: key,
    spec: SPECS[key as CollectionName],
    records: [],
    project: (raw) => through(RESOURCE_SCHEMAS[key], key, raw, project),
  });

  const sessions = await list(RESOURCES.userSession.list, 60);
  const groups: Rec[] = [];
  for (const id of new Set(sessions.map((s) => (s.groupConf as Rec).id))) {
    const r = await api.v2(V2_OPS.groupsUnique, { conditions: [{ key: 'id', operator: 'EQNUM', value: String(id) }], sort: false });
    groups.push(r.json<Rec>());
  }
  const tickets: Rec[] = [];
  for (const id of [4700, 4711, 4749]) tickets.push((await api.get(ticketPath(String(id)))).json<{ data: Rec }>().data);
  const nps = await api.v2(V2_OPS.npsSummary('nps-atendimento'), { conditions: [], sort: false });

  const views: Array<[Kind, Rec[]]> = [
    [
      resource('userSession', (s: never) => ({ item: toQueueItem(s), detail: toSessionDetail(s, [], FIXED_NOW), row: toExplorerRow(s) })),
      sessions,
    ],
    [
      resource('message', (m: never) => ({
        message: toThreadMessage(m),
        withParties: toThreadMessage(m, 1, { customer: personOf({ id: 9999, userName: 'nobody' }) }),
        row: toExplorerRow(m),
      })),
      await list(RESOURCES.message.list, 60),
    ],
    [
      {
        name: 'group',
        spec: SPECS.group,
        records: [],
        project: (raw) => through(GroupConfigurationSchema, 'group', raw, (g: never) => ({ info: toGroupInfo(g), tree: toClassNodes(g) })),
      },
      groups,
    ],
    [resource('pauseReason', (r: never) => ({ reason: toPauseReason(r), row: toExplorerRow(r) })), await list(RESOURCES.pauseReason.list)],
    [resource('agent', (a: never) => ({ agent: toAgentInfo(a), row: toExplorerRow(a) })), await list(RESOURCES.agent.list)],
    [resource('user', (u: never) => ({ person: personOf(u), row: toExplorerRow(u) })), await list(RESOURCES.user.list)],
    [
      resource('classification', (n: never) => ({ tree: toClassNodes(n), row: toExplorerRow(n) })),
      await list(RESOURCES.classification.list),
    ],
    [
      resource('sessionComment', (c: never) => ({ note: toServiceNote(c), row: toExplorerRow(c) })),
      await list(RESOURCES.sessionComment.list),
    ],
    [
      resource('attendanceTimeReport', (r: never) => ({ row: toReportRow(r), explorer: toExplorerRow(r) })),
      await list(RESOURCES.attendanceTimeReport.list),
    ],
    [
      {
        name: 'chatSuggestion',
        spec: SPECS.chatSuggestion,
        records: [],
        project: (raw) => through(ChatSuggestionSchema, 'chatSuggestion', raw, (s: never) => toSuggestion(s, true)),
      },
      await list(V2_OPS.chatSuggestion),
    ],
    [
      {
        name: 'ticket',
        spec: SPECS.ticket,
        records: [],
        project: (raw) => through(TicketSchema, 'ticket', raw, (t: never) => toTicketView(t, 'now')),
      },
      tickets,
    ],
    [
      {
        name: 'NPS summary',
        spec: NPS_SPEC,
        records: [],
        project: (raw) => through(NpsSummarySchema, 'npsSummary', raw, (s: never) => toNpsResult('nps-atendimento', s, 'now')),
      },
      [nps.json<Rec>()],
    ],
  ];
  // Every other resource the explorer lists, as its rows.
  const covered = new Set(views.map(([k]) => k.name));
  for (const key of RESOURCE_KEYS) {
    const path = RESOURCES[key].list;
    if (!path || covered.has(key)) continue;
    views.push([resource(key, (r: never) => toExplorerRow(r)), await list(path, 10, 'id' in SPECS[key as CollectionName])]);
  }
  for (const [kind, records] of views) {
    expect(records.length, kind.name).toBeGreaterThan(0);
    kinds.push({ ...kind, records });
  }
});

test.afterAll(async () => {
  await sb?.close();
});

/** The records of every kind, each with what the stand-in's own encoding projects to. */
function canonical(): Array<{ kind: Kind; raw: Rec; want: unknown }> {
  return kinds.flatMap((kind) => kind.records.map((raw) => ({ kind, raw, want: kind.project(raw) })));
}

/** One encoding changed from the stand-in's own along one dimension: every dialect of item 2, alone. */
function dialects(): Array<[string, Encoding]> {
  const out: Array<[string, Encoding]> = [];
  const vary = <K extends keyof Encoding>(k: K, values: readonly Encoding[K][]) => {
    for (const v of values) if (v !== CANONICAL[k]) out.push([`${k}: ${String(v)}`, { ...CANONICAL, [k]: v }]);
  };
  vary('int', INT_ENCODINGS);
  vary('date', DATE_ENCODINGS);
  vary('bool', BOOL_ENCODINGS);
  vary('absent', ABSENT_ENCODINGS);
  vary('emptyList', EMPTY_LIST_ENCODINGS);
  // All of them at once, as the variant reading of a server might.
  out.push(['all at once', { int: 'digits', date: 'epochSeconds', bool: 'word', absent: 'null', emptyList: 'null' }]);
  return out;
}

test('the canonical encoding projects every record kind to something the console shows', () => {
  const all = canonical();
  expect(kinds.length).toBeGreaterThanOrEqual(27);
  for (const { kind, want } of all) expect(JSON.stringify(want), kind.name).not.toContain('unreadable');
  // The projections are not empty: a test comparing nothing with nothing would prove nothing.
  const session = all.find((c) => c.kind.name === 'userSession')!.want as { item: { id: number; createdAt: string } };
  expect(session.item.id).toEqual(expect.any(Number));
  expect(session.item.createdAt).toMatch(/Z$/);
});

for (const [name, how] of dialects()) {
  test(`every record kind re-encoded with ${name} projects as the canonical one does`, () => {
    // One line per kind and field that reads differently, with its first example.
    const wrong = new Map<string, string>();
    for (const { kind, raw, want } of canonical()) {
      const got = kind.project(encodeWith(kind.spec, raw, everywhere(how)));
      if (JSON.stringify(got) === JSON.stringify(want)) continue;
      const d = diff(want, got);
      const where = `${kind.name} ${d.slice(0, d.indexOf(':'))}`;
      if (!wrong.has(where)) wrong.set(where, `${kind.name} ${JSON.stringify(raw.id ?? '')}: ${d}`);
    }
    expect([...wrong.values()]).toEqual([]);
  });
}

/** A per-field mix: each field's encoding drawn from `seed` and its path. */
function mix(seed: number): EncodingOf {
  const pick = <T>(list: readonly T[], path: string, salt: number): T => {
    let h = seed ^ (salt * 0x9e3779b1);
    for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
    return list[(h >>> 0) % list.length]!;
  };
  return (path) => ({
    int: pick(INT_ENCODINGS, path, 1),
    date: pick(DATE_ENCODINGS, path, 2),
    bool: pick(BOOL_ENCODINGS, path, 3),
    absent: pick(ABSENT_ENCODINGS, path, 4),
    emptyList: pick(EMPTY_LIST_ENCODINGS, path, 5),
  });
}

test('random mixes of the encodings, field by field, project as the canonical encoding does', () => {
  const all = canonical();
  fc.assert(
    fc.property(fc.integer({ min: 0, max: all.length - 1 }), fc.integer(), (i, seed) => {
      const { kind, raw, want } = all[i]!;
      const got = kind.project(encodeWith(kind.spec, raw, mix(seed)));
      expect(got, `${kind.name} ${JSON.stringify(raw.id ?? '')} mix ${seed}`).toEqual(want);
    }),
    { numRuns: 1500, seed: 29 },
  );
});

/** The first place two projections differ, for a readable failure. */
function diff(want: unknown, got: unknown, path = ''): string {
  if (JSON.stringify(want) === JSON.stringify(got)) return '';
  if (want && got && typeof want === 'object' && typeof got === 'object') {
    for (const k of new Set([...Object.keys(want), ...Object.keys(got)])) {
      const d = diff((want as Rec)[k], (got as Rec)[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path || '(record)'}: ${JSON.stringify(want)} became ${JSON.stringify(got)}`;
}
