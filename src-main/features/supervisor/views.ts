import type {
  AgentStatus,
  GroupOverview,
  GroupsOverview,
  NpsResult,
  ReportFilter,
  ReportRow,
  TicketView,
} from '../../../src-shared/bridge/supervisor';
import type { Condition } from '../../../src-shared/query';
import { ROLES, type Role } from '../../../src-shared/paths';
import { bucketOf } from '../../../src-shared/queue';
import { slaState } from '../../../src-shared/sla';
import { toQueueItem } from '../../queue';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import { idOf, instantOf, msOf, personOf, record as obj, sessionAgentOf, text as str, wallClockOf } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import type { Agent } from '../agents';
import type { AttendanceTimeReportRow, NpsSummary, Session, Ticket } from '../../../src-shared/schemas/index';
import { lacking, Skips, type Unreadable } from '../../../src-shared/unreadable';
import { eqNum } from '../../../src-shared/query-builder';

/**
 * Pure projections of the supervisor feature: records as the schemas read them in, bridge shapes
 * out. Kept apart from the handlers so they can be tested without a service.
 */

type Rec = Record<string, unknown>;

/** Who asked and who answers a ticket, under whichever name the service gives them. */
const ticketPeople = (t: Read<Ticket>): Pick<TicketView, 'requester' | 'assignee'> => ({
  requester: personOf(t.requester ?? t.requesterName ?? t.customer ?? t.user)?.name ?? null,
  assignee: personOf(t.assignee ?? t.assignedTo ?? t.responsible ?? t.agent)?.name ?? null,
});

/** When a ticket was opened and last changed, under whichever name the service gives them. */
const ticketTimes = (t: Read<Ticket>): Pick<TicketView, 'createdAt' | 'updatedAt'> => ({
  createdAt: t.createdAt ?? t.creationDate ?? t.openedAt ?? null,
  updatedAt: t.updatedAt ?? t.lastUpdate ?? t.modifiedAt ?? null,
});

export function toTicketView(t: Read<Ticket>, fetchedAt: string): TicketView {
  return {
    id: t.id ?? null,
    key: str(t.key) ?? str(t.uniqueKey),
    title: t.title ?? null,
    description: t.description ?? null,
    status: t.status ?? null,
    priority: t.priority ?? null,
    projectId: t.projectId ?? null,
    ...ticketPeople(t),
    sessionId: t.sessionId ?? idOf(t.session),
    ...ticketTimes(t),
    fetchedAt,
    source: 'service',
    notice: null,
  };
}

export function toNpsResult(surveyName: string, s: Read<NpsSummary>, fetchedAt: string): NpsResult {
  return {
    surveyName,
    averageNps: s.averageNps,
    positive: s.positive,
    neutral: s.neutral,
    negative: s.negative,
    totalCount: s.totalCount,
    npsIndex: npsIndex(s.positive, s.negative, s.totalCount),
    fetchedAt,
  };
}

/**
 * A record as the explorer shows it: what its schema read (ids as numbers, dates as UTC
 * instants), with absent values left out, however the server wrote absence (null, left out,
 * an empty list).
 */
/**
 * A record as the explorer shows it. Fields no schema types (extras a server adds) come as the
 * service wrote them: a date-time among them with no offset is read here, in the service's zone
 * (call it inside the client's `time.read`), since the page cannot know that zone.
 */
export function toExplorerRow(r: Read<Rec>): Rec {
  return clean(r) as Rec;
}

function clean(v: unknown): unknown {
  if (typeof v === 'string') return wallClockOf(v) !== null ? (instantOf(v) ?? v) : v;
  if (Array.isArray(v)) return v.map(clean);
  if (v === null || typeof v !== 'object') return v;
  const out: Rec = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null || x === undefined || (Array.isArray(x) && x.length === 0)) continue;
    out[k] = clean(x);
  }
  return out;
}

/** The NPS index: share of promoters minus share of detractors, in points. */
export function npsIndex(positive: number, negative: number, total: number): number | null {
  if (total <= 0) return null;
  return Math.round(((positive - negative) / total) * 1000) / 10;
}

export function npsConditions(q: { from?: string | undefined; to?: string | undefined; groupId?: number | undefined }): Condition[] {
  const out: Condition[] = [];
  const add = (c: Condition) => out.push(out.length ? { ...c, logic: 'AND' } : c);
  if (q.from) add({ key: 'createdAt', operator: 'AFTER', value: instantOf(q.from) ?? q.from });
  if (q.to) add({ key: 'createdAt', operator: 'BEFORE', value: instantOf(q.to) ?? q.to });
  if (q.groupId !== undefined) add(eqNum('groupConf.id', q.groupId));
  return out;
}

/** `%` and `_` are wildcards of LIKE; a typed one is meant literally, so it is dropped from the pattern. */
const contains = (text: string) => `%${text.replace(/[%_]/g, ' ').trim()}%`;

export function reportConditions(f: ReportFilter): Condition[] {
  const out: Condition[] = [];
  const add = (c: Condition) => out.push(out.length ? { ...c, logic: 'AND' } : c);
  if (f.agentName?.trim()) add({ key: 'agentName', operator: 'LIKE', value: contains(f.agentName) });
  if (f.groupName?.trim()) add({ key: 'groupName', operator: 'EQ', value: f.groupName.trim() });
  if (f.channelName?.trim()) add({ key: 'channelName', operator: 'EQ', value: f.channelName.trim() });
  if (f.protocol?.trim()) add({ key: 'protocol', operator: 'LIKE', value: contains(f.protocol) });
  if (f.from) add({ key: 'createdAtProtocol', operator: 'AFTER', value: instantOf(f.from) ?? f.from });
  if (f.to) add({ key: 'createdAtProtocol', operator: 'BEFORE', value: instantOf(f.to) ?? f.to });
  return out;
}

export function toReportRow(r: Read<AttendanceTimeReportRow>): ReportRow {
  return {
    id: r.id ?? null,
    protocol: r.protocol ?? null,
    agentName: r.agentName ?? null,
    groupName: r.groupName ?? null,
    channelName: r.channelName ?? null,
    operationName: r.operationName ?? null,
    createdAtProtocol: r.createdAtProtocol ?? null,
    closedAtProtocol: r.closedAtProtocol ?? null,
    waitingTime: r.waitingTime ?? null,
    attendanceTime: r.attendanceTime ?? null,
    protocolDuration: r.protocolDuration ?? null,
    lastStatus: r.lastStatus ?? null,
  };
}

export function reportTotals(rows: ReportRow[], truncated: boolean) {
  let waitingTime = 0,
    attendanceTime = 0,
    protocolDuration = 0;
  for (const r of rows) {
    waitingTime += r.waitingTime ?? 0;
    attendanceTime += r.attendanceTime ?? 0;
    protocolDuration += r.protocolDuration ?? 0;
  }
  return { rows: rows.length, waitingTime, attendanceTime, protocolDuration, truncated };
}

/** Role and rule names from `/users/rules`, whose answer the interface does not describe. */
export function readRules(answer: unknown): { role: Role | null; rules: string[] | null } {
  const o = obj(answer);
  const role = str(o?.role)?.toLowerCase();
  const rules = Array.isArray(o?.rules) && o.rules.every((r) => typeof r === 'string') ? o.rules : null;
  return { role: role && (ROLES as readonly string[]).includes(role) ? (role as Role) : null, rules };
}

/** Waiting sessions listed per group in the drill-down (the count covers all). */
const WAITING_LISTED = 50;

type GroupTally = GroupOverview & { agentSessions: Map<string, number> };

/** The group of a session's, counted in `groups` (made on its first session). */
function groupFor(groups: Map<string, GroupTally>, item: QueueItem): GroupTally {
  const gk = item.groupId !== null ? `#${item.groupId}` : (item.groupName ?? '?');
  let g = groups.get(gk);
  if (!g) {
    g = {
      id: item.groupId,
      name: item.groupName ?? (item.groupId !== null ? `Group ${item.groupId}` : 'No group'),
      slaSeconds: item.slaSeconds,
      waiting: 0,
      withBot: 0,
      inAttendance: 0,
      pending: 0,
      longestWaitSeconds: null,
      overSla: false,
      agents: [],
      waitingSessions: [],
      agentSessions: new Map(),
    };
    groups.set(gk, g);
  }
  return g;
}

/** Counts a session with a person (waiting for one, or in attendance) in its group. */
function countSession(g: GroupTally, item: QueueItem, waiting: boolean, now: number): void {
  if (waiting) {
    g.waiting++;
    // Late by the one SLA rule the queue's timers follow (src-shared/sla.ts).
    if (slaState(item, now).state === 'red') g.overSla = true;
    const since = msOf(item.createdAt);
    const wait = Number.isNaN(since) ? null : Math.max(0, Math.round((now - since) / 1000));
    if (wait !== null) g.longestWaitSeconds = Math.max(g.longestWaitSeconds ?? 0, wait);
    g.waitingSessions.push({ id: item.id, customerName: item.customerName, waitingSeconds: wait });
  } else {
    g.inAttendance++;
    if (item.pending) g.pending++;
  }
}

/** A group as shown: its longest waits first, its attendants by how many sessions they hold. */
function finishGroup(g: GroupTally, statusByUser: Map<string, { name: string; status: string | null }>): GroupOverview {
  const { agentSessions, ...rest } = g;
  rest.waitingSessions = rest.waitingSessions.sort((a, b) => (b.waitingSeconds ?? -1) - (a.waitingSeconds ?? -1)).slice(0, WAITING_LISTED);
  rest.agents = [...agentSessions.entries()]
    .map(([userName, n]) => ({
      userName,
      name: statusByUser.get(userName)?.name ?? userName,
      status: statusByUser.get(userName)?.status ?? null,
      sessions: n,
    }))
    .sort((a, b) => b.sessions - a.sessions || a.name.localeCompare(b.name));
  return rest;
}

/**
 * Per group: sessions waiting (no agent yet, whatever the status word), with a bot, and in
 * attendance, the longest wait against the group's sla, and the agents attending there. Groups
 * come from the sessions themselves: the interface lists no groups, and each session carries its
 * group configuration with `sla`. `unreadable`: what the reads left out; sessions without an id
 * are added to it.
 */
export function groupsOverview(
  sessions: readonly Read<Session>[],
  agents: readonly Agent[],
  now: number,
  truncated: boolean,
  unreadable: Unreadable,
): GroupsOverview {
  const skips = new Skips();
  skips.addAll(unreadable);
  const statusByUser = new Map<string, { name: string; status: string | null }>();
  const allAgents: AgentStatus[] = [];
  const sessionsByAgent = new Map<string, number>();
  const groups = new Map<string, GroupTally>();

  for (const s of sessions) {
    const item = toQueueItem(s);
    if (!item) {
      skips.add(lacking('userSession', s, 'id'));
      continue;
    }
    const bucket = bucketOf(item, null);
    if (bucket === 'closed') continue;
    const g = groupFor(groups, item);
    if (bucket === 'bot') {
      g.withBot++;
      continue;
    }
    countSession(g, item, bucket === 'waiting', now);
    const who = item.agentUserName;
    if (who) {
      g.agentSessions.set(who, (g.agentSessions.get(who) ?? 0) + 1);
      sessionsByAgent.set(who, (sessionsByAgent.get(who) ?? 0) + 1);
      if (!statusByUser.has(who)) statusByUser.set(who, { name: item.agentName ?? who, status: null });
    }
  }

  for (const a of agents) {
    const { userName, status } = a;
    const name = a.name ?? `Agent ${a.id ?? '?'}`;
    if (userName) statusByUser.set(userName, { name, status });
    allAgents.push({ userName, name, status, sessions: userName ? (sessionsByAgent.get(userName) ?? 0) : 0 });
  }

  const out = [...groups.values()].map((g) => finishGroup(g, statusByUser));
  // Late groups first: the supervisor's question is "which groups are late".
  out.sort(
    (a, b) =>
      (b.overSla ? 1 : 0) - (a.overSla ? 1 : 0) ||
      (b.longestWaitSeconds ?? -1) - (a.longestWaitSeconds ?? -1) ||
      a.name.localeCompare(b.name),
  );
  allAgents.sort((a, b) => a.name.localeCompare(b.name));
  return { groups: out, agents: allAgents, fetchedAt: new Date(now).toISOString(), truncated, unreadable: skips.summary() };
}

/** The attendant of the ticket's session, when the ticket names no assignee of its own. */
export function assigneeFromSession(session: Read<Session> | undefined): string | null {
  if (!session) return null;
  return sessionAgentOf(session)?.name ?? personOf(session.lastAgent)?.name ?? null;
}
