/**
 * The tests' own readings of the service's records, as the stand-in writes them in its two
 * shapes (src-standin/reading.ts): the default one (integers as numbers, references as `{id}` or
 * the whole record, a message's `fromUser` a flag and `sendBy` a user name) and the variant one
 * (integers as strings of digits, user references as `{id, name, userName}`, a message's session
 * as a bare id and `sendBy` a role). Written apart from the product's readers on purpose: a test
 * that reads records with the code it checks cannot see that code's mistakes.
 */

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The id in a value: a number, a string of digits, or a record (or reference) carrying one. */
export function idIn(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string') return /^\s*-?\d+\s*$/.test(v) ? Number(v) : undefined;
  if (isRec(v)) return idIn(v.id);
  return undefined;
}

/** The name a person goes by: the display name when the record has one (the default shape), else the name. */
export function nameOf(person: unknown): string | undefined {
  if (!isRec(person)) return undefined;
  for (const k of ['displayName', 'name'] as const) {
    const v = person[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

/** A person's user name (login), when the reference carries it. */
export function userNameOf(person: unknown): string | undefined {
  return isRec(person) && typeof person.userName === 'string' ? person.userName : undefined;
}

/** The name of a session's group: the default shape embeds the group, the variant a `{id, name}` summary. */
export function groupNameOf(session: Rec): string | undefined {
  const g = session.groupConf;
  return isRec(g) && typeof g.name === 'string' && g.name !== '' ? g.name : undefined;
}

/** Who wrote a message. */
type SenderRole = 'customer' | 'agent' | 'bot' | 'system';

/**
 * Who wrote a message. The variant says so in `sendBy` (CUSTOMER, AGENT, BOT, SYSTEM); the default
 * marks the customer's lines with `fromUser: true` and names the attendant in `sendBy`, and a line
 * with neither is the system's.
 */
export function senderRole(message: Rec): SenderRole {
  const by = message.sendBy;
  if (by === 'CUSTOMER' || by === 'AGENT' || by === 'BOT' || by === 'SYSTEM') return by.toLowerCase() as SenderRole;
  if (message.fromUser === true) return 'customer';
  return typeof by === 'string' && by !== '' ? 'agent' : 'system';
}

/** The id of the session a message (or a comment, a media record) belongs to, in either shape. */
export function sessionIdIn(record: Rec): number | undefined {
  return idIn(record.session) ?? idIn(record.sessionId);
}

/** A date-time field as an ISO instant in UTC; null when it is not a date-time. */
export function instantIn(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * A session note as the attendant typed it. The console's outbox ends each note it sends with
 * " · ref " and an 8-character Crockford base32 reference; anything else is left as stored, so a
 * tag written elsewhere or in another form shows up in what the test compares.
 */
export function typedNote(comment: string): string {
  return comment.replace(/ · ref [0-9A-HJKMNP-TV-Z]{8}$/, '');
}
