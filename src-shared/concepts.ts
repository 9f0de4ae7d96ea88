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
import { boolOf, idOf, intOf, numOf, record, text } from './scalars';

// The scalar readers live apart (the schemas use them and these readers use the schemas); named
// here too, so a caller asks one module for every reading of a record.
export {
  record,
  text,
  isUnsafeInteger,
  intOf,
  idOf,
  numOf,
  boolOf,
  stringOf,
  listOf,
  isCanonicalInstant,
  readingInZone,
  wallClockOf,
  instantOf,
  msOf,
} from './scalars';
export type { Rec } from './scalars';

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
  // The first field that says it, in the order servers are most likely to (all readers are pure).
  const first = <T>(values: ReadonlyArray<T | null>): T | null => values.find((x) => x !== null) ?? null;
  const userName = first([r.userName, r.username, r.login, r.loginAttendance].map(text));
  const name = first([r.displayName, r.name, r.fullName].map(text)) ?? userName;
  const profile = record(r.profile);
  const role = first([r.typeUser, r.role, r.type, profile?.typeUser].map(roleWord)) ?? (record(r.agent) ? 'agent' : null);
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
  // The name people read: the party's own name when it is more than its login, else the record's.
  const shownName = (): string | null =>
    (party?.name && party.name !== party.userName ? party.name : null) ?? from?.name ?? by?.name ?? null;
  const name = shownName();
  const userName = party?.userName ?? named?.userName ?? null;
  const side = (p: PersonRef | null): Role | null => {
    if (!p) return null;
    if (p.role) return p.role;
    if (samePerson(p, parties.customer ?? null)) return 'customer';
    if (samePerson(p, parties.agent ?? null)) return 'agent';
    return null;
  };
  // The role, from what the record states most directly (the order above).
  const role = (): Role | null => {
    if (sendByRole === 'bot' || sendByRole === 'system') return sendByRole;
    if (fromFlag !== null) return fromFlag ? 'customer' : 'agent';
    if (sendByRole) return sendByRole;
    const fromSide = side(from) ?? side(by);
    if (fromSide) return fromSide;
    const to = side(personOf(m.toUser));
    if (to === 'customer') return 'agent';
    if (to === 'agent' || to === 'bot') return 'customer';
    return boolOf(m.sentBySuperAgent) === true ? 'agent' : null;
  };
  return { role: role(), name, userName };
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
