import type { ClassNode, ThreadMessage } from '../../../src-shared/bridge/attendance';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import { AppError, isAppError } from '../../../src-shared/errors';
import { isUnreachable } from '../../../src-shared/error-kinds';
import type { WebhookEvent } from '../../../src-shared/webhook';
import { toQueueItem } from '../../queue';
import { Coalescer } from '../../sync/coalesce';
import { SyncEngine } from '../../sync/engine';
import type { HandlerTable } from '../../bridge/table';
import type { Feature, FeatureContext } from '../context';
import type { NotesFeature } from '../notes';
import type { QueueFeature } from './queue';
import type { OfflineFeature } from '../offline';
import { Composer } from './composer';
import { attentionBadge, type BadgeSlot } from './badge';
import { DirectoryCache } from './directory';
import {
  fillTemplate,
  int,
  isFullGroup,
  obj,
  str,
  toClassNodes,
  toEntities,
  toGroupInfo,
  toSessionDetail,
  toThreadMessage,
} from './project';
import { readSession, stampMessage, syncSource, threadPage, type StampedMessage, type StampedSession } from './reads';
import {
  authorOf,
  groupIsComplete,
  isOpenStatus,
  samePerson,
  sessionIdOf,
  statusKind,
  sessionAgentOf,
  sessionCustomerOf,
  sessionGroupOf,
  type Parties,
  type PersonRef,
} from '../../../src-shared/concepts';

type Rec = Record<string, unknown>;

export interface AttendanceFeature {
  handlers: Feature<'attendance'>['handlers'];
  /** A webhook event (a hint): what it names is read again from the service. */
  onEvent(e: WebhookEvent): void;
  /** After a gap: every open session from its high-water mark, and the queue from its own. */
  resync(): Promise<{ found: number; errors: unknown[] }>;
  readonly sync: SyncEngine<StampedMessage, StampedSession>;
  start?(): Promise<void>;
  stop(): Promise<void>;
}

const NER_PER_OPEN = 20;
const NER_CACHE = 5_000;

export function createAttendanceFeature(
  ctx: FeatureContext,
  deps: { queue: QueueFeature; notes: NotesFeature; offline: OfflineFeature; badge?: BadgeSlot },
): AttendanceFeature {
  const { queue, notes, offline } = deps;
  // The process's slot unless a test hands its own: src-main/index.ts binds Electron's setter.
  const badge = deps.badge ?? attentionBadge;
  const directory = new DirectoryCache(ctx, queue);
  const composer = new Composer(ctx);

  const pushes = new Coalescer<number, ThreadMessage>((sessionId, messages) => {
    const byId = new Map<number, ThreadMessage>();
    for (const m of messages) byId.set(m.id, m);
    ctx.events.emit('attendance:messages', { sessionId, messages: [...byId.values()] });
  });

  const source = syncSource(
    () => ctx.client(),
    (id) => parties.get(id),
  );
  const sync = new SyncEngine<StampedMessage, StampedSession>({
    source,
    sink: {
      messages: (sessionId, fresh) => {
        pushes.push(sessionId, ...fresh.map((f) => f.message));
        rememberShown(
          sessionId,
          fresh.map((f) => f.message),
        );
        for (const f of fresh) if (f.message.fromCustomer) queue.customerMessage(f.message);
        offline.cache.addMessages(
          sessionId,
          fresh.map((f) => f.message),
          new Date().toISOString(),
        );
        void recognise(
          sessionId,
          fresh.map((f) => f.message).filter((m) => m.fromCustomer),
        );
      },
      sessions: (changed) => {
        queue.applySessions(changed.map((c) => c.record));
        if (pollPass) void customerNewsIn(changed);
        for (const c of changed) if (c.stamp) sessionStamps.set(c.id, c.stamp);
      },
      error: (what, e) => {
        offline.monitor.report(e);
        ctx.log.warn('sync failed', { what, error: e instanceof Error ? e.message : String(e) });
      },
      queueSynced: () => queue.synced(),
    },
  });
  // Back online: every open thread and the queue are read forward from their marks.
  offline.onBack(() => void sync.resyncAll());
  queue.onLoaded = (mark) => {
    sync.setQueueMark(mark);
    loadedStamp = mark?.stamp ?? null;
    sessionStamps.clear();
  };

  /**
   * Without events (a service that cannot reach the listener), the poll finds sessions changed but
   * not what changed: for the attendant's own sessions not open in a thread (those are read
   * forward already), their messages since the last change seen tell whether the customer wrote.
   * Only what is new is read: from that session's last `updatedAt` seen, or the queue's read.
   */
  let pollPass = false;
  let loadedStamp: string | null = null;
  const sessionStamps = new Map<number, string>();
  const NEWS_READS_PER_PASS = 20;
  async function customerNewsIn(changed: readonly StampedSession[]): Promise<void> {
    const me = ctx.me()?.userName;
    if (!me) return;
    const reads: Array<{ id: number; since: string }> = [];
    for (const c of changed) {
      const since = sessionStamps.get(c.id) ?? loadedStamp;
      if (!since || open.has(c.id) || queue.item(c.id)?.agentUserName !== me || c.stamp === since) continue;
      reads.push({ id: c.id, since });
    }
    for (const r of reads.slice(0, NEWS_READS_PER_PASS)) {
      try {
        // Who is on each side, when the messages alone cannot tell (read once per session).
        if (!parties.has(r.id)) noteParties(await readSession(ctx.client(), r.id));
        for (const f of await source.messagesSince(r.id, r.since)) if (f.message.fromCustomer) announce(r.id, f.message);
      } catch (e) {
        offline.monitor.report(e);
        return;
      }
    }
  }

  /** Threads the renderer has open, with what each was shown (for the AI and the summary). */
  const open = new Map<number, { messages: Map<number, ThreadMessage> }>();
  const entities = new Map<number, ReturnType<typeof toEntities>>();
  const sent = new Map<string, ThreadMessage>();
  /** Who is on each side of the sessions read so far: tells their messages' authors apart. */
  const parties = new Map<number, Parties>();
  const noteParties = (session: Rec): Parties | undefined => {
    const id = int(session.id);
    if (id === null) return undefined;
    const p: Parties = { customer: sessionCustomerOf(session), agent: sessionAgentOf(session) };
    parties.set(id, p);
    if (parties.size > 2_000) parties.delete(parties.keys().next().value as number);
    return p;
  };

  ctx.onWorkspaceChange(() => {
    for (const id of sync.tracked()) sync.untrack(id);
    sync.setQueueMark(null);
    open.clear();
    entities.clear();
    sent.clear();
    parties.clear();
    pushes.clear();
  });

  const rememberShown = (sessionId: number, messages: readonly ThreadMessage[]) => {
    const o = open.get(sessionId);
    if (o) for (const m of messages) o.messages.set(m.id, m);
  };

  async function recognise(sessionId: number, messages: readonly ThreadMessage[]): Promise<void> {
    for (const m of messages.slice(-NER_PER_OPEN)) {
      if (!m.text.trim()) continue;
      let found = entities.get(m.id);
      if (!found) {
        try {
          found = toEntities(await ctx.client().ner(m.text));
        } catch {
          // Entity highlighting is a help on top of the thread: a failure only leaves it plain.
          return;
        }
        entities.set(m.id, found);
        if (entities.size > NER_CACHE) entities.delete(entities.keys().next().value as number);
      }
      if (found.length && open.has(sessionId)) ctx.events.emit('attendance:entities', { sessionId, messageId: m.id, entities: found });
    }
  }

  /**
   * A message event: a customer's message updates the row and calls for attention. Counted once
   * whether the webhook or the sync read brings it first; only news calls for attention.
   */
  const partyReads = new Map<number, Promise<void>>();
  async function customerWrote(sessionId: number, raw: Rec): Promise<void> {
    let m = toThreadMessage(raw, sessionId, parties.get(sessionId));
    // Its author may be told only by the session's parties (read once per session, then known).
    if (m && m.author === null && !parties.has(sessionId)) {
      // One read per session, awaited in arrival order, so messages are still counted in order.
      let reading = partyReads.get(sessionId);
      if (!reading) {
        reading = readSession(ctx.client(), sessionId)
          .then((r) => void noteParties(r))
          .finally(() => partyReads.delete(sessionId));
        partyReads.set(sessionId, reading);
      }
      try {
        await reading;
      } catch (e) {
        offline.monitor.report(e);
        return;
      }
      m = toThreadMessage(raw, sessionId, parties.get(sessionId));
    } else await partyReads.get(sessionId)?.catch(() => undefined);
    if (m) announce(sessionId, m);
  }

  /** A customer's message counts once on its row, and calls the attendant when the session is theirs. */
  function announce(sessionId: number, m: ThreadMessage): void {
    if (!m.fromCustomer || !queue.customerMessage(m)) return;
    const item = queue.item(sessionId);
    if (item?.agentUserName && item.agentUserName === ctx.me()?.userName) {
      ctx.events.emit('attendance:customerMessage', { sessionId, customerName: item.customerName, preview: item.preview ?? '' });
    }
  }

  async function refreshSession(sessionId: number): Promise<QueueItem> {
    const rec = await readSession(ctx.client(), sessionId);
    queue.applySessions([rec]);
    const item = toQueueItem(rec);
    if (!item) throw new AppError({ kind: 'BadResponse', message: 'The service answered a session without an id.' });
    return item;
  }

  function myName(): string {
    const me = ctx.me()?.userName;
    if (!me)
      throw new AppError({
        kind: 'Invalid',
        message: 'The console does not know who you are on the service: pick your attendant in the settings.',
      });
    return me;
  }

  /** The attendant as a reference, with the user id once the service has told it. */
  async function meRef(): Promise<PersonRef> {
    const userName = myName();
    const me = await directory.whoAmI().catch(() => null);
    return { id: me?.userId ?? null, userName, name: null, role: 'agent' };
  }

  /** How far a server's clock (or an unstated time zone) may be from ours when matching a reply read back. */
  const CLOCK_SLACK_MS = 15 * 3600_000;

  /**
   * After a lost answer: the reply if the thread shows it (same text, not from the customer,
   * written since the send began and not already matched to another send); an error saying
   * "not sent" when the thread was read and it is not there, or "could not confirm" when the
   * thread could not be read.
   */
  async function confirmSent(
    sessionId: number,
    text: string,
    startedAt: number,
    knownBefore: ReadonlySet<number>,
    stored: boolean,
  ): Promise<ThreadMessage> {
    const client = ctx.client();
    let recent: ThreadMessage[];
    try {
      await new Promise((r) => setTimeout(r, 500));
      recent = (await threadPage(client, sessionId, 0, parties.get(sessionId))).messages;
    } catch (e) {
      throw new AppError(
        {
          kind: 'OutcomeUnknown',
          message: 'Could not confirm whether the reply was sent: check the thread before resending.',
        },
        { cause: e },
      );
    }
    const claimed = new Set([...sent.values()].map((m) => m.id));
    const want = text.trim();
    // Ours: the same text, not the customer's, not in the thread before this send began, not
    // matched to another send, and not written long before it (server clocks and zones differ).
    const found = [...recent].reverse().find((m) => {
      if (m.author === 'customer' || claimed.has(m.id) || knownBefore.has(m.id) || m.text.trim() !== want) return false;
      const at = m.createdAt ? Date.parse(m.createdAt) : NaN;
      return Number.isNaN(at) || at >= startedAt - CLOCK_SLACK_MS;
    });
    if (found) return found;
    // A 2xx answer means the service took it even if the thread does not show it yet.
    if (stored)
      throw new AppError({
        kind: 'OutcomeUnknown',
        message: 'The service took the reply but it does not show in the thread yet: check the thread before resending.',
      });
    throw new AppError({ kind: 'Unavailable', message: 'The reply did not reach the service. Nothing was sent; you can retry.' });
  }

  /**
   * Sends whose outcome could not be told (the thread could not be read back, or the service took
   * the reply without showing it): a retry with the same client id looks again before saving.
   */
  const uncertain = new Map<string, { startedAt: number; knownBefore: ReadonlySet<number> }>();

  async function sendText(sessionId: number, text: string, clientId: string, contentType: string): Promise<ThreadMessage> {
    const already = sent.get(clientId);
    if (already) return already;
    myName();
    const doubt = uncertain.get(clientId);
    if (doubt) {
      try {
        const found = await confirmSent(sessionId, text, doubt.startedAt, doubt.knownBefore, false);
        uncertain.delete(clientId);
        return delivered(sessionId, clientId, found);
      } catch (e) {
        // Still unknown: never save it again blindly. Known absent: it is sent below.
        if (!isAppError(e) || e.kind !== 'Unavailable') throw e;
        uncertain.delete(clientId);
      }
    }
    const startedAt = Date.now();
    const knownBefore = new Set(open.get(sessionId)?.messages.keys() ?? []);
    const remember = (e: unknown) => {
      if (isAppError(e) && e.kind === 'OutcomeUnknown') {
        uncertain.set(clientId, { startedAt, knownBefore });
        if (uncertain.size > 500) uncertain.delete(uncertain.keys().next().value as string);
      }
      return e;
    };
    const client = ctx.client();
    let msg: ThreadMessage | null = null;
    try {
      const saved = await client.resource('message').save({ session: { id: sessionId }, message: text, contentType, fromUser: false });
      msg = toThreadMessage(saved as Rec, sessionId, parties.get(sessionId));
      // Our own reply: whatever shape the server gives its sender, the author is the attendant.
      if (msg) msg = { ...msg, author: 'agent', fromCustomer: false };
    } catch (e) {
      if (!isAppError(e) || e.kind !== 'OutcomeUnknown') throw e;
      // The answer was lost: read the thread back before saying anything, so a retry never
      // sends the same reply twice. The match is on what the console sent (text, time, not the
      // customer's side), never on how the server names the sender.
      msg = await confirmSent(sessionId, text, startedAt, knownBefore, false).catch((err: unknown) => {
        throw remember(err);
      });
    }
    if (!msg) {
      // 2xx without a readable message: the thread tells which one it is.
      msg = await confirmSent(sessionId, text, startedAt, knownBefore, true).catch((err: unknown) => {
        throw remember(err);
      });
    }
    return delivered(sessionId, clientId, msg);
  }

  function delivered(sessionId: number, clientId: string, msg: ThreadMessage): ThreadMessage {
    sent.set(clientId, msg);
    if (sent.size > 500) sent.delete(sent.keys().next().value as string);
    offline.cache.addMessages(sessionId, [msg], new Date().toISOString());
    sync.note(sessionId, [stampMessage(msg)]);
    rememberShown(sessionId, [msg]);
    void sync.hintQueue();
    return msg;
  }

  async function classificationOf(
    sessionId: number,
  ): Promise<{ mandatory: boolean; roots: ClassNode[]; groupId: number | null; treeId: number | null }> {
    const session = await readSession(ctx.client(), sessionId);
    const ref = sessionGroupOf(session);
    const groupId = ref?.id ?? null;
    // A summary of the group (no tree, no mandatory flag) is completed from groups/unique:
    // a mandatory classification must never be skipped for want of the full configuration.
    const group =
      ref && groupIsComplete(ref.record)
        ? toGroupInfo(ref.record)
        : groupId !== null
          ? await directory.group(groupId, { complete: true })
          : null;
    const treeId = group?.classificationTreeId ?? null;
    if (treeId === null) return { mandatory: false, roots: [], groupId, treeId };
    const page = await ctx
      .client()
      .resource('classification')
      .list({ conditions: [{ key: 'id', operator: 'EQNUM', value: String(treeId) }], sort: false, page: 0, size: 1 });
    const root = page.results[0];
    return { mandatory: group?.mandatoryClassification ?? false, roots: root ? toClassNodes(root) : [], groupId, treeId };
  }

  function pathLabels(roots: ClassNode[], path: readonly number[]): string[] | null {
    const labels: string[] = [];
    let level = roots;
    for (const id of path) {
      const node = level.find((n) => n.id === id);
      if (!node) return null;
      labels.push(node.label);
      level = node.children;
    }
    return labels;
  }

  async function threadForAi(sessionId: number): Promise<ThreadMessage[]> {
    const o = open.get(sessionId);
    if (o && o.messages.size) return [...o.messages.values()].sort((a, b) => a.id - b.id);
    return (await threadPage(ctx.client(), sessionId, 0)).messages;
  }

  async function setStatus(status: string, reason: string | null) {
    const me = await directory.whoAmI();
    if (me.agentId === null) throw new AppError({ kind: 'NotFound', message: 'Your attendant record was not found on the service.' });
    await ctx.client().resource('agent').save({ id: me.agentId, status }, { safeToRetry: true });
    directory.setMyStatus(status);
    if (reason) ctx.settings.set('pauseReason', reason);
    else ctx.settings.delete('pauseReason');
    return { status, reason };
  }

  const handlers: Feature<'attendance'>['handlers'] = {
    ...queue.handlers,
    'attendance:directory': () => directory.directory(),
    'attendance:seen': async ({ sessionId }) => ({ ok: queue.seen(sessionId) }),

    'attendance:accept': async ({ sessionId }) => {
      const me = await meRef();
      const current = await readSession(ctx.client(), sessionId);
      const holder = sessionAgentOf(current);
      const status = str(current.status);
      if (status !== null && !isOpenStatus(status)) {
        queue.applySessions([current]);
        throw new AppError({
          kind: 'Invalid',
          message:
            statusKind(status) === 'closed'
              ? 'This session was closed meanwhile.'
              : `This session is ${status}: the console does not accept sessions in that state.`,
        });
      }
      const held = holder !== null || (current.agent !== null && current.agent !== undefined && current.agent !== false);
      if (held && !samePerson(holder, me)) {
        queue.applySessions([current]);
        throw new AppError({
          kind: 'Invalid',
          message: `${holder?.name ?? holder?.userName ?? 'Another attendant'} took this session first.`,
        });
      }
      if (!held) await ctx.client().saveSession({ id: sessionId, lastAgent: me.userName, attendedAt: new Date().toISOString() });
      return refreshSession(sessionId);
    },

    'attendance:transfer': async ({ sessionId, groupId, agentUserName }) => {
      if (groupId !== undefined) await ctx.client().saveSession({ id: sessionId, groupConf: { id: groupId } });
      else if (agentUserName) await ctx.client().saveSession({ id: sessionId, lastAgent: agentUserName });
      return refreshSession(sessionId);
    },

    'attendance:openThread': async ({ sessionId }) => {
      const copy = offline.cache.thread(sessionId);
      const fromCopy = (c: NonNullable<typeof copy>) => ({
        detail: { ...c.detail, item: queue.item(sessionId) ?? c.detail.item },
        page: { messages: c.messages, hasMore: false, page: 0, skipped: 0 },
        fetchedAt: c.fetchedAt,
        offline: true,
      });
      // Offline: the copy kept from the last time it was open, marked with when it was read.
      if (offline.monitor.offline && copy) return fromCopy(copy);
      const client = ctx.client();
      const fetchedAt = new Date().toISOString();
      let session: Rec;
      let page: Awaited<ReturnType<typeof threadPage>>;
      try {
        // Messages are read knowing the session's parties: a server whose fromUser is only a
        // user id needs the customer's id to compare, and a login is shown as the party's name.
        const reading = readSession(client, sessionId);
        const who = reading.then(noteParties, () => undefined);
        [session, page] = await offline.monitor.watch(Promise.all([reading, threadPage(client, sessionId, 0, who)]));
      } catch (e) {
        if (isUnreachable(e) && copy) return fromCopy(copy);
        throw e;
      }
      queue.applySessions([session]);
      const detail = toSessionDetail(session, page.messages, Date.now());
      if (!detail) throw new AppError({ kind: 'BadResponse', message: 'The service answered a session without an id.' });
      if (detail.item.groupId !== null && !queue.groups().has(detail.item.groupId)) {
        const g = toGroupInfo(session.groupConf);
        if (g && isFullGroup(session.groupConf)) queue.rememberGroup(g);
      }
      open.set(sessionId, { messages: new Map(page.messages.map((m) => [m.id, m])) });
      sync.track(sessionId, page.messages.map(stampMessage));
      // Anything that arrived between the read and the tracking is picked up now.
      void sync.hintSession(sessionId);
      const customer = page.messages.filter((m) => m.fromCustomer);
      const cached = customer.filter((m) => entities.has(m.id));
      queueMicrotask(() => {
        for (const m of cached) {
          const found = entities.get(m.id);
          if (found?.length) ctx.events.emit('attendance:entities', { sessionId, messageId: m.id, entities: found });
        }
        void recognise(
          sessionId,
          customer.filter((m) => !entities.has(m.id)),
        );
      });
      offline.cache.saveThread(sessionId, { detail, messages: page.messages, hasMore: page.hasMore }, fetchedAt);
      return { detail, page: { ...page, page: 0 }, fetchedAt, offline: false };
    },

    'attendance:olderMessages': async ({ sessionId, page }) => {
      const got = await threadPage(ctx.client(), sessionId, page, parties.get(sessionId));
      rememberShown(sessionId, got.messages);
      sync.note(sessionId, got.messages.map(stampMessage));
      return { ...got, page };
    },

    'attendance:closeThread': async ({ sessionId }) => {
      open.delete(sessionId);
      sync.untrack(sessionId);
      return { ok: true };
    },

    'attendance:send': async ({ sessionId, text, clientId }) => {
      const msg = await offline.monitor.watch(sendText(sessionId, text, clientId, 'text'));
      // The saved draft goes only if it is this reply (a failed one is kept there until it is
      // sent); a newer reply typed meanwhile stays.
      if (notes.drafts.get(sessionId, 'reply').trim() === text.trim()) notes.drafts.set(sessionId, 'reply', '');
      return msg;
    },

    'attendance:sendTemplate': async ({ sessionId, templateId, params, clientId }) => {
      const t = await composer.template(templateId);
      const filled = params.slice(0, t.parameterCount).map((p) => p.trim());
      if (filled.length < t.parameterCount || filled.some((p) => !p)) {
        throw new AppError({
          kind: 'Invalid',
          field: 'params',
          message: `This template needs ${t.parameterCount} values; fill every one.`,
        });
      }
      return sendText(sessionId, fillTemplate(t.template, filled), clientId, 'template');
    },

    'attendance:help': async ({ sessionId }) => {
      const groupId = queue.item(sessionId)?.groupId ?? sessionGroupOf(await readSession(ctx.client(), sessionId))?.id ?? null;
      return composer.help(sessionId, groupId);
    },
    'attendance:providers': async () => ({ providers: await composer.providers() }),
    'attendance:setCredential': async ({ provider, accessKey, secretKey, token, allowWeakStorage }) => {
      if (!accessKey && !secretKey && !token)
        throw new AppError({ kind: 'Invalid', message: 'Give at least one of the access key, secret key or token.' });
      const kept = composer.setCredential(provider, { accessKey, secretKey, token }, allowWeakStorage);
      return { credentialSet: kept !== null, kept };
    },
    'attendance:clearCredential': async ({ provider }) => {
      const kept = composer.setCredential(provider, {});
      return { credentialSet: kept !== null, kept };
    },
    'attendance:aiDraft': async ({ sessionId, choice, revealDocuments, revealed }) => ({
      text: await composer.draft(await threadForAi(sessionId), choice, { revealDocuments, revealed }),
    }),
    'attendance:kbAnswer': async ({ question, index, revealDocuments, revealed }) =>
      composer.knowledge(question, index, ctx.isDemo(), { revealDocuments, revealed }),
    'attendance:badge': async ({ count }) => ({ count: badge.set(count) }),

    'attendance:classificationTree': async ({ sessionId }) => {
      const c = await classificationOf(sessionId);
      return { mandatory: c.mandatory, roots: c.roots };
    },

    'attendance:summary': async ({ sessionId, choice }) => {
      const pick = choice ?? { provider: 'local', model: 'local-extractive' };
      return { text: await composer.summary(await threadForAi(sessionId), pick) };
    },

    'attendance:close': async ({ sessionId, classification, comment, summaryNote }) => {
      const client = ctx.client();
      const c = await classificationOf(sessionId);
      if (c.mandatory && !classification) {
        throw new AppError({
          kind: 'Invalid',
          field: 'classification',
          message: 'This group asks for a classification before closing. Pick one.',
        });
      }
      if (classification) {
        const labels = pathLabels(c.roots, classification);
        if (!labels || c.treeId === null)
          throw new AppError({
            kind: 'Invalid',
            field: 'classification',
            message: "That classification is not in this group's tree any more. Pick again.",
          });
        const me = await directory.whoAmI().catch(() => null);
        const root = await client
          .resource('classification')
          .list({ conditions: [{ key: 'id', operator: 'EQNUM', value: String(c.treeId) }], sort: false, page: 0, size: 1 });
        const rootLabel = str(root.results[0]?.value);
        await client.resource('classificationService').save({
          sessionId,
          ...(c.groupId !== null ? { groupConfId: c.groupId } : {}),
          ...(me?.userId != null ? { agentId: me.userId } : {}),
          rootId: c.treeId,
          classificationTreeSession: [rootLabel, ...labels].filter(Boolean).join(' > '),
          displayName: labels[labels.length - 1] ?? '',
          ...(comment?.trim() ? { commentClassification: comment.trim() } : {}),
        });
      }
      if (summaryNote) await notes.add(sessionId, summaryNote);
      await client.saveSession({ id: sessionId, status: 'CLOSED' });
      notes.drafts.clear(sessionId);
      const session = await readSession(client, sessionId);
      queue.applySessions([session]);
      const item = toQueueItem(session);
      if (!item) throw new AppError({ kind: 'BadResponse', message: 'The service answered a session without an id.' });
      return item;
    },

    'attendance:pause': async ({ reasonId }) => {
      const reason = (await directory.pauses()).find((p) => p.id === reasonId);
      if (!reason) throw new AppError({ kind: 'Invalid', message: 'That pause reason is not offered any more.' });
      return setStatus('PAUSED', reason.label);
    },
    'attendance:resume': () => setStatus('ONLINE', null),
  };

  const dataOf = (e: WebhookEvent): Rec => obj(e.data) ?? {};

  return {
    handlers,
    sync,
    onEvent(e) {
      const data = dataOf(e);
      const sessionId = sessionIdOf(data) ?? sessionIdOf(obj(data.message) ?? {});
      if (e.type === 'entities.recognized' && sessionId !== null) {
        const messageId = int(data.messageId);
        const found = toEntities(data.entities);
        if (messageId !== null) {
          entities.set(messageId, found);
          if (open.has(sessionId) && found.length) ctx.events.emit('attendance:entities', { sessionId, messageId, entities: found });
        }
        return;
      }
      if (sessionId !== null) void sync.hintSession(sessionId);
      void sync.hintQueue();
      if (e.group === 'messages' && sessionId !== null) {
        const raw = obj(data.message);
        if (raw) void customerWrote(sessionId, raw);
      }
    },
    async resync() {
      pollPass = true;
      try {
        return await sync.resyncAll();
      } finally {
        pollPass = false;
      }
    },
    async stop() {
      pushes.clear();
      sync.stop();
    },
  };
}
