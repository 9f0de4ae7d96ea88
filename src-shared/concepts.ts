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

import type { ClassificationService, GroupConfiguration, Message, Session } from './schemas/index';
import { wallToInstant, type ServiceZone } from './service-zone';

export type Rec = Record<string, unknown>;

/** A plain object, or null for anything else (arrays included). */
export const record = (v: unknown): Rec | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : null);

/** A non-blank string, trimmed; null for anything else. */
export function text(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length ? t : null;
}

/** A string of decimal digits, optionally signed: how many servers write an int64. */
const DIGITS = /^-?\d+$/;

/**
 * Whether `v` is an integer beyond what a JavaScript number carries exactly (2^53 − 1), as a
 * number or as digits. Such a value is never rounded silently: the record carrying it is refused
 * with this reason (schemas/README.md, "Integers beyond 2^53").
 */
export function isUnsafeInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v);
  if (typeof v !== 'string') return false;
  const t = v.trim();
  return DIGITS.test(t) && !Number.isSafeInteger(Number(t));
}

/** Why an integer beyond 2^53 − 1 is refused, for the log and the user. */
export const unsafeIntegerReason = (v: unknown): string =>
  `${String(v).trim()} is beyond the integers this console carries exactly (2^53 - 1); the record is not used rather than rounded`;

/** An integer: a safe integer number or a string of digits (int64 as protobuf's JSON writes it). */
export function intOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  if (!DIGITS.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * An integer identifier: an integer (`intOf`), or an object carrying one in `id` (a reference
 * such as `{id: 7}` or a whole record).
 */
export function idOf(v: unknown, depth = 0): number | null {
  const n = intOf(v);
  if (n !== null) return n;
  const r = record(v);
  return r && depth < 2 ? idOf(r.id, depth + 1) : null;
}

const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** A number (a double, a duration): a finite JSON number or a decimal string. */
export function numOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || !DECIMAL.test(v.trim())) return null;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : null;
}

/** A boolean: a JSON boolean, or the word true or false (as XML-to-JSON bridges write them). */
export function boolOf(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return null;
  const t = v.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : null;
}

/** A string field: a string as it comes, or a number written as one (a protocol, an extension). */
export function stringOf(v: unknown): string | null {
  if (typeof v === 'string') return v;
  return typeof v === 'number' && Number.isFinite(v) && !isUnsafeInteger(v) ? String(v) : null;
}

/** A list: an array; an empty list may come as null or not at all, and reads as empty. */
export const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Epoch values below this are seconds, above it milliseconds (1e11 s is the year 5138). */
const SECONDS_LIMIT = 1e11;
/** An epoch number written as a string (9 digits or more: 1973 onwards in seconds). */
const EPOCH_DIGITS = /^\d{9,}(\.\d+)?$/;
/**
 * ISO 8601 as servers write it: a day, then optionally a time (`T` or a space, SQL's way) with
 * seconds and a fraction of any length, then optionally `Z` or an offset (`+03:00`, `+0300`, `+03`).
 * Nothing else is a date-time here: `Date.parse` would read "11/29/2026 10:00" in this machine's
 * zone, which is no one's instant.
 */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** What `instantOf` writes: `2026-11-26T18:45:00.000Z`. */
const CANONICAL_INSTANT = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by the `count` ASCII digits of `v` from `at`. */
function digits(v: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) n = n * 10 + v.charCodeAt(i) - 48;
  return n;
}

/**
 * Already in the form `instantOf` writes, and a real day (the 30th of February is read on as the
 * 2nd of March, as `Date.parse` reads it): most date-times a service sends, kept as they are
 * without a round trip through `Date` (reading a page of records is mostly reading its dates).
 */
export function isCanonicalInstant(v: string): boolean {
  if (v.length !== 24 || !CANONICAL_INSTANT.test(v)) return false;
  // Digits read from their character codes (the pattern said they are digits): slicing them out
  // made three small strings per date, most of what reading a page allocated.
  const month = digits(v, 5, 2);
  const day = digits(v, 8, 2);
  if (day <= DAYS_IN_MONTH[month - 1]!) return true;
  const year = digits(v, 0, 4);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && day === 29 && leap;
}

/**
 * The zone the service's date-times without an offset are read in, while a service's answer is
 * being read (`readingInZone`); null: UTC, until the console knows better (README: "Date-times
 * without an offset"). Reading is synchronous, so the answer being read is the only one.
 */
let serviceZone: ServiceZone | null = null;
let sawWallTime: (() => void) | null = null;

/**
 * Runs `read` (a schema's parse of one answer, a webhook event's record) with the service's
 * date-times without an offset read as wall time in `zone`. `onWallTime` hears that the answer
 * had such a date-time: the service writes them so, and is written to so.
 */
export function readingInZone<T>(zone: ServiceZone | null, read: () => T, onWallTime?: () => void): T {
  const was = serviceZone;
  const wasSaw = sawWallTime;
  serviceZone = zone;
  sawWallTime = onWallTime ?? null;
  try {
    return read();
  } finally {
    serviceZone = was;
    sawWallTime = wasSaw;
  }
}

/** The epoch milliseconds an ISO 8601 string names (a wall time in the service's zone), or NaN. */
function isoMs(t: string): number {
  const m = ISO_DATE_TIME.exec(t);
  if (!m) return Number.NaN;
  const [, day, time, zone] = m;
  // A day alone names a day, not an instant: midnight UTC, the same on every machine.
  if (time === undefined) return Date.parse(`${day}T00:00:00Z`);
  const clock = time.replace(',', '.');
  if (zone === undefined) {
    const wall = Date.parse(`${day}T${clock}Z`);
    if (!Number.isFinite(wall)) return Number.NaN;
    sawWallTime?.();
    return serviceZone ? wallToInstant(wall, serviceZone) : wall;
  }
  // `+0300` and `+03` as `Date.parse` takes them: `+03:00`.
  const hhmm = zone.slice(1).replace(':', '');
  const offset = /^[Zz]$/.test(zone) ? 'Z' : `${zone[0]}${hhmm.slice(0, 2)}:${hhmm.slice(2) || '00'}`;
  return Date.parse(`${day}T${clock}${offset}`);
}

/**
 * The wall-clock time of an ISO 8601 date-time written with no offset, as epoch milliseconds read
 * as if it were UTC (what the service's zone is learned from); null for anything else (an offset,
 * `Z`, a day alone, an epoch number, not a date).
 */
export function wallClockOf(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const m = ISO_DATE_TIME.exec(v.trim());
  if (!m || m[2] === undefined || m[3] !== undefined) return null;
  const ms = Date.parse(`${m[1]}T${m[2].replace(',', '.')}Z`);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * A date-time as an ISO 8601 string in UTC (milliseconds), from an ISO string with or without
 * an offset or fraction, or an epoch number in seconds or milliseconds (as a number or digits).
 * Without an offset it is wall time in the service's zone (`readingInZone`). Null when it is not
 * a date.
 */
export function instantOf(v: unknown): string | null {
  if (typeof v === 'string' && isCanonicalInstant(v)) return v;
  let ms: number;
  if (typeof v === 'number' && Number.isFinite(v)) ms = Math.abs(v) < SECONDS_LIMIT ? v * 1000 : v;
  else if (typeof v === 'string' && v.trim()) {
    const t = v.trim();
    if (EPOCH_DIGITS.test(t)) return instantOf(Number(t));
    ms = isoMs(t);
  } else return null;
  if (!Number.isFinite(ms)) return null;
  const d = new Date(Math.round(ms));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The epoch milliseconds of a date-time in any shape `instantOf` reads; NaN when it is none. */
export function msOf(v: unknown): number {
  const iso = instantOf(v);
  return iso === null ? Number.NaN : Date.parse(iso);
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
export function sessionIdOf(r: { session?: unknown; sessionId?: unknown }): number | null {
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
  /** The author's login, when the record names one: how the console tells who wrote it. */
  userName: string | null;
}

/**
 * Who wrote a message. In order of what the record states most directly: a role word in
 * `sendBy`; `fromUser` as a boolean (true: the customer); `fromUser` or `sendBy` as a reference
 * whose role is known or that matches one of the session's parties; `toUser` likewise (a message
 * to the customer came from the attendant's side); `sentBySuperAgent`. Null when nothing tells.
 */
export function authorOf(m: Pick<Message, 'fromUser' | 'toUser' | 'sendBy' | 'sentBySuperAgent'>, parties: Parties = {}): Authorship {
  const sendByRole = roleWord(m.sendBy) ?? personOf(m.sendBy)?.role ?? null;
  const fromFlag = boolOf(m.fromUser);
  const from = fromFlag === null ? personOf(m.fromUser) : null;
  const by = roleWord(m.sendBy) ? null : personOf(m.sendBy);
  const named = from ?? by;
  // A login names the author; the session's party with that login gives the name people read.
  const party = named ? [parties.agent, parties.customer].find((p) => p && samePerson(named, p)) : undefined;
  const name = (party?.name && party.name !== party.userName ? party.name : null) ?? from?.name ?? by?.name ?? null;
  const userName = party?.userName ?? named?.userName ?? null;
  const side = (p: PersonRef | null): Role | null => {
    if (!p) return null;
    if (p.role) return p.role;
    if (samePerson(p, parties.customer ?? null)) return 'customer';
    if (samePerson(p, parties.agent ?? null)) return 'agent';
    return null;
  };
  if (sendByRole === 'bot' || sendByRole === 'system') return { role: sendByRole, name, userName };
  if (fromFlag !== null) return { role: fromFlag ? 'customer' : 'agent', name, userName };
  if (sendByRole) return { role: sendByRole, name, userName };
  const fromSide = side(from) ?? side(by);
  if (fromSide) return { role: fromSide, name, userName };
  const to = side(personOf(m.toUser));
  if (to === 'customer') return { role: 'agent', name, userName };
  if (to === 'agent' || to === 'bot') return { role: 'customer', name, userName };
  if (boolOf(m.sentBySuperAgent) === true) return { role: 'agent', name, userName };
  return { role: null, name, userName };
}

/** A sentiment label from a word, an object `{label|value|sentiment, score}` or a number. */
export function sentimentOf(v: unknown): string | null {
  const t = text(v);
  if (t) return t.toUpperCase();
  const score = numOf(v);
  if (typeof v === 'number' && score !== null) return score > 0.2 ? 'POSITIVE' : score < -0.2 ? 'NEGATIVE' : 'NEUTRAL';
  const r = record(v);
  if (!r) return null;
  return sentimentOf(r.label ?? r.value ?? r.sentiment ?? r.name ?? r.score);
}

/** What a media message shows: a picture, a player, or a file to save. */
export type MediaKind = 'image' | 'audio' | 'video' | 'file';

/** Where a media message's bytes are (a URL or a path on the service), and what they are. */
export interface MediaRef {
  kind: MediaKind;
  url: string;
  /** The MIME type when the record gives one (`contentType` "image/png"), else null. */
  mime: string | null;
  /** A file name for the download card: the URL's last segment. */
  name: string;
}

/**
 * Words servers use in `contentType` (interface §2.9 names the field, not its values): a kind
 * ("IMAGE", "ptt"), a MIME type ("image/jpeg", "application/pdf") or a channel's own word.
 */
const MEDIA_WORDS: ReadonlyArray<[RegExp, MediaKind]> = [
  [/^(image|photo|picture|sticker|gif)$/, 'image'],
  [/^(audio|voice|ptt|voice_?note)$/, 'audio'],
  [/^video$/, 'video'],
  [/^(file|document|attachment|doc|pdf)$/, 'file'],
];

/**
 * The media of a message, or null for text (and for a media record whose `message` holds no
 * address to read it from: it is shown as text, as before). The address is the `message` field
 * when that is a URL or an absolute path; `caption` stays the message's caption.
 */
export function mediaOf(m: Pick<Message, 'contentType' | 'message'>): MediaRef | null {
  const type = text(m.contentType)?.toLowerCase() ?? '';
  const slash = type.indexOf('/');
  const mime = slash > 0 ? type.split(';', 1)[0]!.trim() : null;
  const word = mime ? mime.slice(0, slash) : type;
  let kind: MediaKind | null = null;
  if (mime) kind = word === 'image' || word === 'audio' || word === 'video' ? word : 'file';
  else for (const [re, k] of MEDIA_WORDS) if (re.test(word)) kind = k;
  if (!kind) return null;
  const url = text(m.message);
  if (!url || /\s/.test(url) || !(/^https?:\/\//i.test(url) || url.startsWith('/'))) return null;
  const path = url.replace(/[?#].*$/, '');
  let name = path.slice(path.lastIndexOf('/') + 1);
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: the name as written.
  }
  return { kind, url, mime, name: name || kind };
}

/** A session's attendance group: `groupConf` as a whole group, a summary, a bare id. */
export function sessionGroupOf(
  s: Pick<Session, 'groupConf'>,
): { id: number; name: string | null; record: GroupConfiguration | null } | null {
  const g = s.groupConf;
  const id = idOf(g);
  if (id === null) return null;
  const r = typeof g === 'object' && g !== null ? g : null;
  return { id, name: text(r?.name), record: r };
}

/**
 * Whether a group record is the whole configuration (what closing a session needs: whether a
 * classification is mandatory, and the tree) or only a summary (`{id}`, `{id, name}`, a
 * session's embedding without the tree) to be completed from `groups/unique`. The one rule for
 * both the queue (which groups it keeps) and the close flow.
 */
export function groupIsComplete(g: unknown): boolean {
  const r = record(g);
  const mandatory = boolOf(r?.mandatoryClassificationTree);
  // Absent and null say the same (no tree): only a mandatory tree that is not there is missing.
  return mandatory === false || (mandatory === true && r?.classificationTree != null);
}

/**
 * Who an agent record is: its `user` (an object, an id, a user name), else its login
 * (`loginAttendance`). Null parts when the record does not say.
 */
export function agentIdentityOf(a: { user?: unknown; loginAttendance?: unknown }): { userName: string | null; name: string | null } {
  const user = personOf(a.user);
  const userName = user?.userName ?? text(a.loginAttendance);
  return { userName, name: user?.name ?? userName };
}

/** The attendant holding a session, from `agent` alone (`lastAgent` also names past holders). */
export function sessionAgentOf(s: Pick<Session, 'agent'>): PersonRef | null {
  return personOf(s.agent);
}

/** The customer of a session. */
export function sessionCustomerOf(s: Pick<Session, 'user'>): PersonRef | null {
  return personOf(s.user);
}

/**
 * Channel words (interface §1: instant messaging, e-mail, SMS, a messenger app, a social network,
 * voice; the neutral words chatApp, messenger, push and smsPartner stand for product names),
 * read in any case, each to the console's own name for it.
 */
const CHANNEL_WORDS: Record<string, string> = {
  CHATAPP: 'chatApp',
  CHAT_APP: 'chatApp',
  EMAIL: 'email',
  E_MAIL: 'email',
  MAIL: 'email',
  SMS: 'sms',
  SMSPARTNER: 'sms',
  SMS_PARTNER: 'sms',
  MESSENGER: 'messenger',
  SOCIAL: 'social',
  VOICE: 'voice',
  VOZ: 'voice',
  PUSH: 'push',
  WEBCHAT: 'webchat',
  WEB_CHAT: 'webchat',
  CHAT: 'webchat',
};

/** A channel word (`CHAT_APP`, `e-mail`, `Voice`...) as the console names it; null for any other value. */
export function channelWord(v: unknown): string | null {
  const t = text(v);
  return t ? (CHANNEL_WORDS[t.toUpperCase().replace(/[\s-]+/g, '_')] ?? null) : null;
}

/**
 * The channel a session came in by. The interface gives two fields, `userConnectedResource` and
 * `userConnectedInstance` (§2.7), and says of neither that it is the channel: servers fill one
 * or the other with a channel word and the other with an address or an instance. Whichever
 * carries a channel word names it; failing both, the resource as it comes (open values stay open).
 */
export function channelOf(s: Pick<Session, 'userConnectedResource' | 'userConnectedInstance'>): string | null {
  return channelWord(s.userConnectedResource) ?? channelWord(s.userConnectedInstance) ?? text(s.userConnectedResource);
}

/**
 * Where the customer is reached (a phone number, an address, an instance): the one of the two
 * connection fields that does not name the channel.
 */
export function sessionAddressOf(s: Pick<Session, 'userConnectedResource' | 'userConnectedInstance'>): string | null {
  if (channelWord(s.userConnectedResource) !== null) return text(s.userConnectedInstance);
  if (channelWord(s.userConnectedInstance) !== null) return text(s.userConnectedResource);
  return text(s.userConnectedInstance);
}

/**
 * Whether a session is with a bot rather than waiting for or with a person: its status says so
 * (`BOT`, `EM_BOT`...) or it is an `onlyBot` session (§2.7).
 */
export function sessionWithBot(s: Pick<Session, 'onlyBot' | 'status'>): boolean {
  return s.onlyBot === true || statusKind(text(s.status)) === 'bot';
}

/**
 * A closing classification as a record of the classification service says it. The console
 * writes the chosen node in `classificationTreeSession` (as `{id, value}`) and the readable path
 * in `displayName`; records written the other way round (the path in `classificationTreeSession`,
 * the leaf in `displayName`, as earlier consoles did) read the same.
 */
export function classificationRecordOf(r: Pick<ClassificationService, 'classificationTreeSession' | 'displayName'>): {
  nodeId: number | null;
  path: string | null;
} {
  const node = r.classificationTreeSession;
  const asText = text(node);
  if (asText !== null && intOf(asText) === null) return { nodeId: null, path: asText };
  return { nodeId: idOf(node), path: text(r.displayName) ?? text(record(node)?.value) };
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
  'CONCLUIDO',
  'CONCLUIDA',
  'CANCELADO',
  'CANCELADA',
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
  'TRANSFERRED',
  'TRANSFERRING',
  'REOPENED',
  'ABERTO',
  'ABERTA',
  'EM_ATENDIMENTO',
  'AGUARDANDO',
  'NA_FILA',
  'TRANSFERIDO',
  'TRANSFERIDA',
  'REABERTO',
  'REABERTA',
]);
/** Words that, anywhere in a status (`BOT`, `WAITING_BOT`, `EM_BOT`, `URA`), say a bot has the session. */
const BOT_WORDS = new Set(['BOT', 'CHATBOT', 'ROBOT', 'ROBO', 'URA', 'IVR', 'VIRTUAL']);
const statusWord = (s: string) =>
  s
    .trim()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[\s-]+/g, '_');

/**
 * What a session status means to the console. The interface lists no values (§3): the known
 * words of either language are read (closed, with a bot, open), and any other status is shown as
 * it comes. What decides whether a session waits for an attendant is not the word but whether it
 * is closed, with a bot, or held by an agent (`bucketOf` in queue.ts).
 */
export function statusKind(status: string | null): 'open' | 'closed' | 'bot' | 'unknown' {
  if (status === null) return 'unknown';
  const w = statusWord(status);
  if (CLOSED_STATUSES.has(w)) return 'closed';
  if (w.split('_').some((part) => BOT_WORDS.has(part))) return 'bot';
  return OPEN_STATUSES.has(w) ? 'open' : 'unknown';
}
