import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { msOf } from '../../../src-shared/concepts';
import { AppError, isAppError } from '../../../src-shared/errors';
import type { SyncEngine } from '../../sync/engine';
import type { FeatureContext } from '../context';
import type { OfflineFeature } from '../offline';
import { myName } from './directory';
import { toThreadMessage } from './project';
import { stampMessage, threadPage, type StampedMessage, type StampedSession } from './reads';
import type { Threads } from './thread';

/** How far a server's clock (or an unstated time zone) may be from ours when matching a reply read back. */
const CLOCK_SLACK_MS = 15 * 3600_000;

export interface ReplyDeps {
  threads: Threads;
  sync: SyncEngine<StampedMessage, StampedSession>;
  offline: OfflineFeature;
}

/**
 * The attendant's replies, sent at most once per client id: a reply whose answer was lost is
 * looked for in the thread before anything is said or sent again.
 */
export class Replies {
  readonly #ctx: FeatureContext;
  readonly #d: ReplyDeps;
  readonly #sent = new Map<string, ThreadMessage>();
  /**
   * Sends whose outcome could not be told (the thread could not be read back, or the service took
   * the reply without showing it): a retry with the same client id looks again before saving.
   */
  readonly #uncertain = new Map<string, { startedAt: number; knownBefore: ReadonlySet<number> }>();

  constructor(ctx: FeatureContext, d: ReplyDeps) {
    this.#ctx = ctx;
    this.#d = d;
  }

  /** A new workspace: no send of the last one is matched again. */
  clear(): void {
    this.#sent.clear();
  }

  /**
   * Saves a reply once per client id. A file's reply has its URL as `text` (interface §2.9: the
   * message's `message`), its MIME type as `contentType` and the attendant's words as `caption`.
   */
  async send(sessionId: number, text: string, clientId: string, contentType: string, caption?: string): Promise<ThreadMessage> {
    const { threads } = this.#d;
    const already = this.#sent.get(clientId);
    if (already) return already;
    myName(this.#ctx);
    const again = await this.#lookAgain(sessionId, text, clientId);
    if (again) return again;
    const startedAt = this.#ctx.clock.now();
    const knownBefore = new Set(threads.open.get(sessionId)?.messages.keys() ?? []);
    const remember = (e: unknown) => {
      if (isAppError(e) && e.kind === 'OutcomeUnknown') {
        this.#uncertain.set(clientId, { startedAt, knownBefore });
        if (this.#uncertain.size > 500) this.#uncertain.delete(this.#uncertain.keys().next().value as string);
      }
      return e;
    };
    const client = this.#ctx.client();
    let msg: ThreadMessage | null;
    try {
      const saved = await client
        .resource('message')
        .save({ session: { id: sessionId }, message: text, contentType, fromUser: false, ...(caption ? { caption } : {}) });
      msg = toThreadMessage(saved, sessionId, threads.parties.get(sessionId));
      // Our own reply: whatever shape the server gives its sender, the author is the attendant.
      if (msg)
        msg = { ...msg, author: 'agent', fromCustomer: false, senderUserName: msg.senderUserName ?? this.#ctx.me()?.userName ?? null };
    } catch (e) {
      if (!isAppError(e) || e.kind !== 'OutcomeUnknown') throw e;
      // The answer was lost: read the thread back before saying anything, so a retry never
      // sends the same reply twice. The match is on what the console sent (text, time, not the
      // customer's side), never on how the server names the sender.
      msg = await this.#confirmSent(sessionId, text, startedAt, knownBefore, false).catch((err: unknown) => {
        throw remember(err);
      });
    }
    if (!msg) {
      // 2xx without a readable message: the thread tells which one it is.
      msg = await this.#confirmSent(sessionId, text, startedAt, knownBefore, true).catch((err: unknown) => {
        throw remember(err);
      });
    }
    return this.#delivered(sessionId, clientId, msg);
  }

  /** A send retried after an unknown outcome: the reply if the thread now shows it, null when it is known absent. */
  async #lookAgain(sessionId: number, text: string, clientId: string): Promise<ThreadMessage | null> {
    const doubt = this.#uncertain.get(clientId);
    if (!doubt) return null;
    try {
      const found = await this.#confirmSent(sessionId, text, doubt.startedAt, doubt.knownBefore, false);
      this.#uncertain.delete(clientId);
      return this.#delivered(sessionId, clientId, found);
    } catch (e) {
      // Still unknown: never save it again blindly. Known absent: it is sent below.
      if (!isAppError(e) || e.kind !== 'Unavailable') throw e;
      this.#uncertain.delete(clientId);
      return null;
    }
  }

  /**
   * After a lost answer: the reply if the thread shows it (same text, not from the customer,
   * written since the send began and not already matched to another send); an error saying
   * "not sent" when the thread was read and it is not there, or "could not confirm" when the
   * thread could not be read.
   */
  async #confirmSent(
    sessionId: number,
    text: string,
    startedAt: number,
    knownBefore: ReadonlySet<number>,
    stored: boolean,
  ): Promise<ThreadMessage> {
    const client = this.#ctx.client();
    let recent: ThreadMessage[];
    try {
      await new Promise((r) => setTimeout(r, 500));
      recent = (await threadPage(client, sessionId, 0, this.#d.threads.parties.get(sessionId))).messages;
    } catch (e) {
      throw new AppError(
        {
          kind: 'OutcomeUnknown',
          message: 'Could not confirm whether the reply was sent: check the thread before resending.',
        },
        { cause: e },
      );
    }
    const claimed = new Set([...this.#sent.values()].map((m) => m.id));
    const want = text.trim();
    // Ours: the same text, not the customer's, not in the thread before this send began, not
    // matched to another send, and not written long before it (server clocks and zones differ).
    const found = [...recent].reverse().find((m) => {
      // A file's message is matched by its URL (its text is shown empty).
      const sent = m.media?.url ?? m.text;
      if (m.author === 'customer' || claimed.has(m.id) || knownBefore.has(m.id) || sent.trim() !== want) return false;
      const at = msOf(m.createdAt);
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

  #delivered(sessionId: number, clientId: string, msg: ThreadMessage): ThreadMessage {
    const { threads, sync, offline } = this.#d;
    this.#sent.set(clientId, msg);
    if (this.#sent.size > 500) this.#sent.delete(this.#sent.keys().next().value as string);
    offline.cache.addMessages(sessionId, [msg], new Date(this.#ctx.clock.now()).toISOString());
    sync.note(sessionId, [stampMessage(msg)]);
    threads.rememberShown(sessionId, [msg]);
    void sync.hintQueue();
    return msg;
  }
}
