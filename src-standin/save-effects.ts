/**
 * What a save does beyond storing the record, per collection: a session's assignment, transfer,
 * closing and status events; a message's defaults and its session's pending flag; the checks of
 * comments and users; an agent's status event; a bot tag's event. One function per collection,
 * looked up by name; each step of a session save is its own function.
 */
import type { Role } from '../src-shared/paths';
import type { WebhookGroup } from '../src-shared/webhook';
import { ApiError, roleOfUser, type Actor } from './api-error';
import type { CollectionName } from './fields';
import type { Rec } from './query-engine';
import { scalarText, shownValue } from './scalar';
import { CHANNELS, tokenFor } from './seed-base';
import type { Store } from './store';

/** How a save departs from the stand-in's own behaviour, for one request (a fault rule). */
export interface SaveQuirks {
  /** An attendant's file is read from its URL and then refused, as a provider that rejects it (fault refusesMedia). */
  refusesMedia?: boolean;
  /** A session moved to another group keeps its attendant: unless lastAgent: null says so, or always. */
  keepsAgent?: 'unlessTold' | 'always' | undefined;
}

export interface SaveContext {
  input: Rec;
  prev: Rec | undefined;
  next: Rec;
  isCreate: boolean;
  actor: Actor;
  now: string;
  events: Array<[WebhookGroup, string, Record<string, unknown>]>;
  after: Array<() => void>;
  quirks: SaveQuirks;
}

/** What the side effects need of the model. */
export interface SaveHost {
  readonly store: Store;
  present(coll: CollectionName, rec: Rec, viewer: Role): Rec;
  userByName(userName: string): Rec | undefined;
  /** The next number of a protocol the stand-in makes itself. */
  nextProtocolSeq(): number;
  /** Entity recognition of a customer's line, reported as an event when (and if) it answers. */
  recognize(sessionId: number, messageId: number, text: string): void;
  /** An attendant's message, once stored: the provider reads its file's URL to deliver it (media-fetch.ts). */
  agentMessageStored(m: Rec, o: { refuse: boolean }): void;
}

type Effect = (host: SaveHost, ctx: SaveContext) => void;

const sessionEvent = (host: SaveHost, s: Rec): Record<string, unknown> => ({
  sessionId: s.id,
  session: host.present('userSession', s, 'agent'),
});

const refId = (ref: unknown): unknown => (ref as Rec | null | undefined)?.id;

// ---- sessions ------------------------------------------------------------------------------

function checkChannel(input: Rec): void {
  if (input.userConnectedResource == null) return;
  if ((CHANNELS as readonly string[]).includes(scalarText(input.userConnectedResource) ?? '')) return;
  throw new ApiError(400, `userConnectedResource must be one of ${CHANNELS.join(', ')}.`, 'INVALID_FIELD');
}

function sessionCreated(host: SaveHost, ctx: SaveContext): void {
  const { next, now, events } = ctx;
  next.status ??= 'OPEN';
  next.pending ??= false;
  next.groupConf ??= { id: 1 };
  next.agent = null;
  next.availableAt ??= next.createdAt;
  next.protocol ??= `${now.slice(0, 10).replace(/-/g, '')}9${String(host.nextProtocolSeq()).padStart(5, '0')}${String(next.id).slice(-3)}`;
  ctx.after.push(() => events.unshift(['sessions', 'session.created', sessionEvent(host, next)]));
}

/** lastAgent: null lets the session go (unless this request keeps its attendant always). */
function sessionReleased(ctx: SaveContext): void {
  const { next, prev, quirks } = ctx;
  if (quirks.keepsAgent !== 'always') next.agent = null;
  else next.lastAgent = prev?.lastAgent ?? null;
}

/** lastAgent: a userName assigns the session (first attendant) or transfers it (another one). */
function sessionAssigned(host: SaveHost, ctx: SaveContext): void {
  const { input, prev, next, actor, now, events } = ctx;
  const user = host.userByName(scalarText(input.lastAgent) ?? '');
  const role = user ? roleOfUser(user) : null;
  if (!user || (role !== 'agent' && role !== 'supervisor')) {
    throw new ApiError(400, `lastAgent "${shownValue(input.lastAgent)}" is not an attendant's userName.`, 'UNKNOWN_AGENT');
  }
  const prevAgentId = refId(prev?.agent) ?? null;
  if (prevAgentId === user.id) return;
  next.agent = { id: user.id };
  if (prevAgentId == null) {
    if (!('attendedAt' in input)) next.attendedAt = now;
    ctx.after.push(() => events.push(['sessions', 'session.assigned', { ...sessionEvent(host, next), by: actor.userName }]));
    return;
  }
  ctx.after.push(() =>
    events.push([
      'sessions',
      'session.transferred',
      { ...sessionEvent(host, next), fromAgent: prev?.lastAgent ?? null, by: actor.userName },
    ]),
  );
}

/**
 * Transferred to a group: back in that group's queue, no attendant until someone accepts (unless
 * this request plays a service that keeps the attendant when not told otherwise).
 */
function sessionMovedGroup(host: SaveHost, ctx: SaveContext, prev: Rec): void {
  const { next, actor, events, quirks } = ctx;
  if (!quirks.keepsAgent) next.agent = null;
  ctx.after.push(() =>
    events.push([
      'sessions',
      'session.transferred',
      { ...sessionEvent(host, next), fromGroupId: refId(prev.groupConf) ?? null, by: actor.userName },
    ]),
  );
}

function sessionClosed(host: SaveHost, ctx: SaveContext): void {
  const { input, next, actor, now, events } = ctx;
  if (!('closedAt' in input)) next.closedAt = now;
  if (!('closedBy' in input)) next.closedBy = actor.userName;
  ctx.after.push(() => events.push(['sessions', 'session.closed', sessionEvent(host, next)]));
}

function sessionSaved(host: SaveHost, ctx: SaveContext): void {
  const { input, prev, next, events } = ctx;
  const groupMoved = !!prev && 'groupConf' in input && refId(input.groupConf) !== refId(prev.groupConf);
  checkChannel(input);
  if (ctx.isCreate) sessionCreated(host, ctx);
  if ('lastAgent' in input) {
    if (input.lastAgent == null) sessionReleased(ctx);
    else sessionAssigned(host, ctx);
  }
  if (prev && groupMoved && !('lastAgent' in input && next.lastAgent != null)) sessionMovedGroup(host, ctx, prev);
  if (next.status === 'CLOSED' && prev?.status !== 'CLOSED') sessionClosed(host, ctx);
  if (prev && (prev.status !== next.status || prev.pending !== next.pending)) {
    ctx.after.push(() =>
      events.push(['status', 'session.status', { sessionId: next.id, status: next.status, pending: next.pending ?? false }]),
    );
  }
}

// ---- messages ------------------------------------------------------------------------------

/** The message's text, or its caption: one of them must say something. */
function messageText(next: Rec): string {
  const text = typeof next.message === 'string' ? next.message.trim() : '';
  const caption = typeof next.caption === 'string' ? next.caption.trim() : '';
  if (!text && !caption) throw new ApiError(400, 'A message needs a non-empty "message" (or "caption").', 'MISSING_FIELD');
  return text || caption;
}

/** Who sent a message to whom, when the body does not say. */
function messageParties(host: SaveHost, ctx: SaveContext, session: Rec): void {
  const { next, actor } = ctx;
  const customer = host.store.c.user.get((session.user as Rec | null)?.id);
  const agentUser = host.store.c.user.get((session.agent as Rec | null)?.id);
  if (next.fromUser) {
    next.sendBy ??= customer?.userName ?? 'customer';
    next.toUser ??= agentUser?.userName ?? null;
    next.sentBySuperAgent ??= false;
  } else {
    next.sendBy ??= actor.userName;
    next.toUser ??= customer?.userName ?? null;
    next.sentBySuperAgent ??= actor.role === 'supervisor';
  }
}

function messageSaved(host: SaveHost, ctx: SaveContext): void {
  const { next, isCreate, now } = ctx;
  if (!isCreate) return;
  const sessionRef = next.session as Rec | null | undefined;
  if (!sessionRef) throw new ApiError(400, 'A message needs "session": {"id": ...}.', 'MISSING_FIELD');
  const session = host.store.c.userSession.get(sessionRef.id)!;
  if (session.status === 'CLOSED') throw new ApiError(409, `Session ${String(session.id)} is closed.`, 'SESSION_CLOSED');
  const said = messageText(next);
  next.fromUser ??= false;
  next.contentType ??= 'text';
  next.cognition ??= false;
  next.errorConversation ??= false;
  next.createdAt ??= now;
  messageParties(host, ctx, session);
  // An attendant's reply leaves the session waiting for the customer; a customer line ends that.
  const pending = !next.fromUser;
  const updated: Rec = { ...session, pending, updatedAt: now, updatedBy: String(next.sendBy) };
  ctx.after.push(() => messageStored(host, ctx, session, updated, said));
}

/** Once the message is stored: its session's flag, and the events it makes. */
function messageStored(host: SaveHost, ctx: SaveContext, session: Rec, updated: Rec, said: string): void {
  const { next, events } = ctx;
  host.store.c.userSession.put(updated);
  host.store.markDirty('userSession');
  const sessionId = session.id;
  events.push(['messages', 'message.created', { sessionId, message: host.present('message', next, 'agent') }]);
  if (session.pending !== updated.pending)
    events.push(['status', 'session.status', { sessionId, status: updated.status, pending: updated.pending }]);
  if (session.userConnectedResource === 'voice' && next.fromUser) {
    events.push(['voice', 'call.transcript', { sessionId, messageId: next.id, text: said, final: true }]);
  }
  if (next.fromUser) host.recognize(Number(sessionId), Number(next.id), said);
  else host.agentMessageStored(next, { refuse: ctx.quirks.refusesMedia === true });
}

// ---- the others ----------------------------------------------------------------------------

function commentSaved(host: SaveHost, { next }: SaveContext): void {
  if (typeof next.sessionId !== 'number') throw new ApiError(400, 'A comment needs an integer "sessionId".', 'MISSING_FIELD');
  if (!host.store.c.userSession.get(next.sessionId))
    throw new ApiError(400, `"sessionId" refers to id ${next.sessionId}, which does not exist.`, 'UNKNOWN_REFERENCE');
  if (typeof next.comment !== 'string' || next.comment.trim() === '')
    throw new ApiError(400, 'A comment needs a non-empty "comment".', 'MISSING_FIELD');
}

function userSaved(host: SaveHost, { next, prev }: SaveContext): void {
  if (typeof next.userName !== 'string' || next.userName.trim() === '')
    throw new ApiError(400, 'A user needs a "userName".', 'MISSING_FIELD');
  const clash = host.userByName(next.userName);
  if (clash && clash.id !== next.id) throw new ApiError(409, `userName "${next.userName}" is taken.`, 'DUPLICATE_USERNAME');
  if (!prev && roleOfUser(next) && next.accessKey == null) next.accessKey = tokenFor(next.userName);
}

function agentSaved(host: SaveHost, ctx: SaveContext): void {
  const { prev, next, input } = ctx;
  if (!prev || input.status === undefined || input.status === prev.status) return;
  const user = host.store.c.user.get((next.user as Rec | null)?.id);
  ctx.after.push(() =>
    ctx.events.push([
      'status',
      'agent.status',
      { agentId: next.id, userName: user?.userName ?? null, status: next.status, previous: prev.status ?? null },
    ]),
  );
}

function botTagSaved(host: SaveHost, ctx: SaveContext): void {
  if (!ctx.isCreate) return;
  ctx.after.push(() => {
    const sessionId = (ctx.next.session as Rec | null)?.id ?? null;
    ctx.events.push(['bot', 'bot.tag', { sessionId, tag: ctx.next.tag ?? null, botTag: host.present('botTag', ctx.next, 'agent') }]);
  });
}

const EFFECTS: Partial<Record<CollectionName, Effect>> = {
  userSession: sessionSaved,
  message: messageSaved,
  sessionComment: commentSaved,
  user: userSaved,
  agent: agentSaved,
  botTag: botTagSaved,
};

/** Checks and side effects of a save to `coll`, before the record is stored (events after). */
export function beforeSave(host: SaveHost, coll: CollectionName, ctx: SaveContext): void {
  EFFECTS[coll]?.(host, ctx);
}
