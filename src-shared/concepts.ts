/**
 * What the console needs to know of a service record, derived in one function per concept.
 *
 * The interface names many fields without giving their type (message `fromUser`, `toUser`,
 * `sendBy`, `session`, `sentiment`; the §2.9 resources as a whole) and servers read it
 * differently: `fromUser` may be a boolean, a user object, an id or a user name; `sendBy` a
 * role or a user name; a reference `{id}`, a bare id or a numeric string. Every caller asks
 * these functions, never the raw field, so each reading is handled in exactly one place and
 * tested against every shape (test/node/service/concepts.test.ts). See src-shared/schemas/README.md.
 */

export type Rec = Record<string, unknown>;

/** A plain object, or null for anything else (arrays included). */
export const record = (v: unknown): Rec | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : null);

/** A non-blank string, trimmed; null for anything else. */
export function text(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length ? t : null;
}

/**
 * An integer identifier: a safe integer, a string of digits, or an object carrying one in `id`
 * (a reference such as `{id: 7}` or a whole record).
 */
export function idOf(v: unknown, depth = 0): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v === 'string') {
    const t = v.trim();
    if (!/^-?\d{1,16}$/.test(t)) return null;
    const n = Number(t);
    return Number.isSafeInteger(n) ? n : null;
  }
  const r = record(v);
  return r && depth < 2 ? idOf(r.id, depth + 1) : null;
}

/** Epoch values below this are seconds, above it milliseconds (1e11 s is the year 5138). */
const SECONDS_LIMIT = 1e11;

/**
 * A date-time as an ISO 8601 string in UTC, from an ISO string with or without an offset or
 * fraction, or an epoch number in seconds or milliseconds. Null when it is not a date.
 */
export function instantOf(v: unknown): string | null {
  let ms: number;
  if (typeof v === 'number' && Number.isFinite(v)) ms = Math.abs(v) < SECONDS_LIMIT ? v * 1000 : v;
  else if (typeof v === 'string' && v.trim()) {
    const t = v.trim();
    // A date-time without an offset is read as UTC, the same on every machine.
    const withZone = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t) ? `${t}Z` : t;
    ms = Date.parse(withZone);
  } else return null;
  if (!Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export type Role = 'customer' | 'agent' | 'bot' | 'system';

const ROLE_WORDS: Record<string, Role> = {
  CUSTOMER: 'customer',
  CLIENT: 'customer',
  CONTACT: 'customer',
  USER: 'customer',
  END_USER: 'customer',
  CLIENTE: 'customer',
  CONSUMER: 'customer',
  VISITOR: 'customer',
  AGENT: 'agent',
  ATTENDANT: 'agent',
  OPERATOR: 'agent',
  SUPERVISOR: 'agent',
  ADMINISTRATOR: 'agent',
  ADMIN: 'agent',
  HUMAN: 'agent',
  ATENDENTE: 'agent',
  SUPER_AGENT: 'agent',
  AGENT_SUPERVISOR: 'agent',
  BOT: 'bot',
  CHATBOT: 'bot',
  VIRTUAL_AGENT: 'bot',
  AUTOMATION: 'bot',
  ROBOT: 'bot',
  IA: 'bot',
  AI: 'bot',
  SYSTEM: 'system',
  SISTEMA: 'system',
  PLATFORM: 'system',
};

/** A role named by a word such as "AGENT", "customer" or "Bot"; null for any other string. */
export function roleWord(v: unknown): Role | null {
  const t = text(v);
  if (!t) return null;
  return ROLE_WORDS[t.toUpperCase().replace(/[\s-]+/g, '_')] ?? null;
}

/** Someone the service refers to: a customer, an attendant, a bot. */
export interface PersonRef {
  id: number | null;
  userName: string | null;
  name: string | null;
  /** What the reference itself says about its role, when it says anything. */
  role: Role | null;
}

/**
 * A user reference in any of its shapes: a user object (`{id, name, userName, typeUser, ...}`),
 * an id (number or digits), or a user name. Null when it refers to no one (null, a boolean).
 */
export function personOf(v: unknown): PersonRef | null {
  if (typeof v === 'number' || (typeof v === 'string' && /^\s*\d+\s*$/.test(v))) {
    const id = idOf(v);
    return id === null ? null : { id, userName: null, name: null, role: null };
  }
  if (typeof v === 'string') {
    const t = text(v);
    if (!t) return null;
    return { id: null, userName: t, name: t, role: roleWord(t) };
  }
  const r = record(v);
  if (!r) return null;
  const userName = text(r.userName) ?? text(r.username) ?? text(r.login) ?? text(r.loginAttendance);
  const name = text(r.displayName) ?? text(r.name) ?? text(r.fullName) ?? userName;
  const profile = record(r.profile);
  const role =
    roleWord(r.typeUser) ?? roleWord(r.role) ?? roleWord(r.type) ?? roleWord(profile?.typeUser) ?? (record(r.agent) ? 'agent' : null);
  const person = { id: idOf(r.id), userName, name, role };
  return person.id === null && !userName && !name ? null : person;
}

/** Whether two references name the same person (by id, else by user name). */
export function samePerson(a: PersonRef | null, b: PersonRef | null): boolean {
  if (!a || !b) return false;
  if (a.id !== null && b.id !== null) return a.id === b.id;
  if (a.userName && b.userName) return a.userName.toLowerCase() === b.userName.toLowerCase();
  return false;
}

/** The session a record belongs to: `session` as `{id}`, a whole session, a bare id; or `sessionId`. */
export function sessionIdOf(r: Rec): number | null {
  return idOf(r.session) ?? idOf(r.sessionId);
}

/** Who is on each side of a conversation, as far as the console knows. */
export interface Parties {
  customer?: PersonRef | null;
  agent?: PersonRef | null;
}

export interface Authorship {
  role: Role | null;
  /** The author's name as the record gives it, if it gives one. */
  name: string | null;
}

/**
 * Who wrote a message. In order of what the record states most directly: a role word in
 * `sendBy`; `fromUser` as a boolean (true: the customer); `fromUser` or `sendBy` as a reference
 * whose role is known or that matches one of the session's parties; `toUser` likewise (a message
 * to the customer came from the attendant's side); `sentBySuperAgent`. Null when nothing tells.
 */
export function authorOf(m: Rec, parties: Parties = {}): Authorship {
  const sendByRole = roleWord(m.sendBy) ?? personOf(m.sendBy)?.role ?? null;
  const from = typeof m.fromUser === 'boolean' ? null : personOf(m.fromUser);
  const by = roleWord(m.sendBy) ? null : personOf(m.sendBy);
  const named = from ?? by;
  // A login names the author; the session's party with that login gives the name people read.
  const party = named ? [parties.agent, parties.customer].find((p) => p && samePerson(named, p)) : undefined;
  const name = (party?.name && party.name !== party.userName ? party.name : null) ?? from?.name ?? by?.name ?? null;
  const side = (p: PersonRef | null): Role | null => {
    if (!p) return null;
    if (p.role) return p.role;
    if (samePerson(p, parties.customer ?? null)) return 'customer';
    if (samePerson(p, parties.agent ?? null)) return 'agent';
    return null;
  };
  if (sendByRole === 'bot' || sendByRole === 'system') return { role: sendByRole, name };
  if (typeof m.fromUser === 'boolean') return { role: m.fromUser ? 'customer' : 'agent', name };
  if (sendByRole) return { role: sendByRole, name };
  const fromSide = side(from) ?? side(by);
  if (fromSide) return { role: fromSide, name };
  const to = side(personOf(m.toUser));
  if (to === 'customer') return { role: 'agent', name };
  if (to === 'agent' || to === 'bot') return { role: 'customer', name };
  if (m.sentBySuperAgent === true) return { role: 'agent', name };
  return { role: null, name };
}

/** A sentiment label from a word, an object `{label|value|sentiment, score}` or a number. */
export function sentimentOf(v: unknown): string | null {
  const t = text(v);
  if (t) return t.toUpperCase();
  if (typeof v === 'number' && Number.isFinite(v)) return v > 0.2 ? 'POSITIVE' : v < -0.2 ? 'NEGATIVE' : 'NEUTRAL';
  const r = record(v);
  if (!r) return null;
  return sentimentOf(r.label ?? r.value ?? r.sentiment ?? r.name ?? r.score);
}

/** A session's attendance group: `groupConf` as a whole group, a summary, a bare id. */
export function sessionGroupOf(s: Rec): { id: number; name: string | null; record: Rec | null } | null {
  const g = s.groupConf ?? s.group;
  const id = idOf(g);
  if (id === null) return null;
  const r = record(g);
  return { id, name: text(r?.name), record: r };
}

/**
 * Whether a group record carries what closing a session needs (its classification tree and
 * whether the tree is mandatory), or is only a summary to be completed from `groups/unique`.
 */
export function groupIsComplete(g: unknown): boolean {
  const r = record(g);
  return !!r && 'mandatoryClassificationTree' in r && r.mandatoryClassificationTree !== null && 'classificationTree' in r;
}

/** The attendant holding a session, from `agent` alone (`lastAgent` also names past holders). */
export function sessionAgentOf(s: Rec): PersonRef | null {
  return personOf(s.agent);
}

/** The customer of a session. */
export function sessionCustomerOf(s: Rec): PersonRef | null {
  return personOf(s.user);
}

const CLOSED_STATUSES = new Set([
  'CLOSED',
  'FINISHED',
  'FINALIZED',
  'ENDED',
  'RESOLVED',
  'CANCELED',
  'CANCELLED',
  'DONE',
  'EXPIRED',
  'ENCERRADO',
  'ENCERRADA',
  'FINALIZADO',
  'FINALIZADA',
  'FECHADO',
  'FECHADA',
]);
const OPEN_STATUSES = new Set([
  'OPEN',
  'OPENED',
  'WAITING',
  'QUEUED',
  'IN_QUEUE',
  'NEW',
  'IN_PROGRESS',
  'IN_ATTENDANCE',
  'ATTENDING',
  'ACTIVE',
  'PENDING',
  'ABERTO',
  'ABERTA',
  'EM_ATENDIMENTO',
  'AGUARDANDO',
  'NA_FILA',
]);
const statusWord = (s: string) =>
  s
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');

/**
 * What a session status means to the console. The interface lists no values (§3): the known
 * words of either language are read, and any other status is shown as it comes but treated as
 * unknown (never offered for accept).
 */
export function statusKind(status: string | null): 'open' | 'closed' | 'unknown' {
  if (status === null) return 'unknown';
  const w = statusWord(status);
  return CLOSED_STATUSES.has(w) ? 'closed' : OPEN_STATUSES.has(w) ? 'open' : 'unknown';
}

export const isOpenStatus = (status: string | null): boolean => statusKind(status) === 'open';
