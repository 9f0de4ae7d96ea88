import { join } from 'node:path';
import type { LocalNote, OutboxStatusInfo, ServiceNote } from '../../../src-shared/bridge/notes';
import { isTemporary, isUnreachable } from '../../../src-shared/error-kinds';
import { shownError } from '../../log';
import { DraftStore, Outbox, createCommentTransport, refOf, type OutboxStatus } from '../../outbox';
import { text as textOf } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import type { SessionComment } from '../../../src-shared/schemas/index';
import type { Feature, FeatureContext } from '../context';
import type { OfflineFeature } from '../offline';
import { eqNum } from '../../../src-shared/query-builder';
import { MentionWatch, type NoteRow } from './mentions';
import type { Condition } from '../../../src-shared/query';
import { DirectorySchema } from '../../../src-shared/bridge/attendance';

export interface NotesFeature extends Feature<'notes'> {
  /** Journals a note (the attendance summary on close goes through here too). */
  add(sessionId: number, text: string): Promise<LocalNote>;
  readonly outbox: Outbox;
  readonly drafts: DraftStore;
  /** Colleagues' notes mentioning the attendant: checked by the safety-net poll (`check`), at most once a minute. */
  readonly mentions: MentionWatch;
}

/** What the mention check needs of the notes feature's wiring. */
export interface NotesOptions {
  /** The session as the queue holds it (its customer and protocol are shown beside a mention). */
  sessionOf?: (sessionId: number) => { customerName: string; protocol: string | null } | null;
  /** The least time between two mention checks now (see MentionWatch; benchmarks run it faster with the poll). */
  mentionGapMs?: () => number;
}

/** A note as the service stores it (the renderer hides the outbox's reference when it shows it); null without an id. */
export function toServiceNote(r: Read<SessionComment>): ServiceNote | null {
  if (r.id == null) return null;
  const text = r.comment ?? '';
  return { id: r.id, text, ref: refOf(text) ?? null, createdAt: r.createdAt ?? null, createdBy: textOf(r.createdBy) };
}

const toStatus = (s: OutboxStatus): OutboxStatusInfo => ({
  connectivity: s.connectivity,
  ...(s.reason ? { reason: s.reason } : {}),
  ...(s.nextAttemptAt !== undefined ? { nextAttemptAt: s.nextAttemptAt } : {}),
  counts: { ...s.counts },
  problems: s.problems.map((p) => ({ ...p })),
});

/** Colleagues' notes mentioning the attendant, read with the poll and kept in the account's folder. */
function watchMentions(ctx: FeatureContext, offline: OfflineFeature, o: NotesOptions): MentionWatch {
  const readMentions = async (query: { conditions: Condition[] }): Promise<NoteRow[]> => {
    const rows = await offline.monitor.watch(
      ctx
        .client()
        .resource('sessionComment')
        .pageAll({ ...query, sort: true, sortColumn: 'createdAt', direction: 'ASC', size: 100 }, { cap: 500 }),
    );
    const out: NoteRow[] = [];
    for (const r of rows)
      if (r.id != null && r.sessionId != null)
        out.push({
          id: r.id,
          sessionId: r.sessionId,
          text: r.comment ?? '',
          createdAt: r.createdAt ?? null,
          createdBy: textOf(r.createdBy),
        });
    return out;
  };
  /** A writer's name as the directory kept for the page lists it (no request), or null. */
  const staffName = (login: string | null): string | null => {
    if (!login) return null;
    const kept = DirectorySchema.safeParse(offline.cache.answer('attendance:directory')?.value);
    const a = kept.success ? kept.data.agents.find((x) => x.userName.toLowerCase() === login.toLowerCase()) : undefined;
    return a?.name ?? null;
  };
  return new MentionWatch({
    // The account's own: the next person to sign in here is mentioned by other notes.
    file: join(ctx.accountDir, 'mentions.json'),
    me: () => ctx.me(),
    now: () => ctx.clock.now(),
    read: readMentions,
    minGapMs: o.mentionGapMs ?? (() => 60_000),
    describe: (row) => {
      const s = o.sessionOf?.(row.sessionId) ?? null;
      return { byName: staffName(row.createdBy), customerName: s?.customerName ?? null, protocol: s?.protocol ?? null };
    },
    onChange: (list) => ctx.events.emit('notes:mentions', { mentions: list }),
    log: (message) => ctx.log.warn(message),
  });
}

/** A session's notes: the service's (or the copy kept offline) and those waiting in the outbox. */
async function listNotes(
  ctx: FeatureContext,
  offline: OfflineFeature,
  d: { outbox: Outbox; mentions: MentionWatch },
  input: { sessionId: number },
) {
  // The session is on screen with its notes: what mentioned the attendant there is seen.
  void d.mentions.seenSession(input.sessionId);
  const local = d.outbox.list(input.sessionId);
  const copy = await offline.cache.notes(input.sessionId);
  // Offline: the copy kept with the thread, without waiting for a request to fail.
  if (offline.monitor.offline && copy) return { service: copy.items, local, serviceError: null, cachedAt: copy.fetchedAt };
  try {
    const fetchedAt = new Date(ctx.clock.now()).toISOString();
    const rows = await offline.monitor.watch(
      ctx
        .client()
        .resource('sessionComment')
        .pageAll(
          {
            conditions: [eqNum('sessionId', input.sessionId)],
            sort: true,
            sortColumn: 'createdAt',
            direction: 'ASC',
            size: 500,
          },
          { cap: 5_000 },
        ),
    );
    const service = rows.map(toServiceNote).filter((n): n is ServiceNote => n !== null);
    offline.cache.saveNotes(input.sessionId, service, fetchedAt);
    return { service, local: d.outbox.list(input.sessionId), serviceError: null, cachedAt: null };
  } catch (e) {
    if (isUnreachable(e) && copy) return { service: copy.items, local, serviceError: null, cachedAt: copy.fetchedAt };
    // Told to wait (429, 5xx): what was kept is shown with the error, never an empty list.
    const serviceError = shownError(ctx.log, e, { op: 'notes.list' });
    if (isTemporary(e) && copy) return { service: copy.items, local, serviceError, cachedAt: copy.fetchedAt };
    return { service: [], local, serviceError, cachedAt: null };
  }
}

/**
 * Session notes: read from the service, written through the durable outbox (journal under
 * `<account folder>/outbox`), and reply/note drafts per session under `<account folder>/drafts`
 * (`FeatureContext.accountDir`).
 */
export function createNotesFeature(ctx: FeatureContext, offline: OfflineFeature, o: NotesOptions = {}): NotesFeature {
  const outbox = new Outbox({
    // The account's own notes waiting to be sent: written as that person, sent with their token.
    dir: join(ctx.accountDir, 'outbox'),
    transport: createCommentTransport(() => ctx.client()),
    // One connectivity for the console: notes wait while it says offline and report to it.
    connectivity: offline.monitor,
    log: (message, detail) => ctx.log.warn(message, { detail: detail instanceof Error ? detail.message : detail }),
  });
  const drafts = new DraftStore({
    // The account's own drafts: the next person to sign in here never sees them.
    dir: ctx.accountDir,
    log: (message, detail) => ctx.log.warn(message, { detail: detail instanceof Error ? detail.message : detail }),
  });

  const mentions = watchMentions(ctx, offline, o);

  const unsubscribe = outbox.subscribe((e) => {
    if (e.type === 'note') ctx.events.emit('notes:changed', { sessionId: e.note.sessionId, note: e.note, removedId: null });
    else if (e.type === 'removed') ctx.events.emit('notes:changed', { sessionId: e.sessionId, note: null, removedId: e.id });
    else if (e.type === 'status') ctx.events.emit('notes:status', toStatus(e.status));
  });

  const add = (sessionId: number, text: string) => outbox.add(sessionId, text);

  return {
    outbox,
    drafts,
    mentions,
    add,
    handlers: {
      'notes:mentions': async () => {
        await mentions.load();
        return { mentions: mentions.list() };
      },
      'notes:mentionSeen': async ({ sessionId }) => {
        await mentions.seenSession(sessionId);
        return { ok: true };
      },
      'notes:list': (input) => listNotes(ctx, offline, { outbox, mentions }, input),
      'notes:add': async ({ sessionId, text }) => {
        const note = await add(sessionId, text);
        drafts.set(sessionId, 'note', '');
        return note;
      },
      'notes:retry': async ({ id, text }) => outbox.retry(id, text),
      'notes:discard': async ({ id }) => {
        await outbox.discard(id);
        return { ok: true };
      },
      'notes:status': async () => toStatus(outbox.status()),
      'notes:draft': async ({ sessionId }) => {
        await drafts.load();
        return { reply: drafts.get(sessionId, 'reply'), note: drafts.get(sessionId, 'note') };
      },
      'notes:setDraft': async ({ sessionId, kind, text }) => {
        await drafts.load();
        drafts.set(sessionId, kind, text);
        return { ok: true };
      },
    },
    async start() {
      await drafts.load();
      await outbox.start();
      await mentions.load();
    },
    async stop() {
      unsubscribe();
      await mentions.flush();
      await drafts.flush();
      await outbox.stop();
    },
  };
}
