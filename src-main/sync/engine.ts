/**
 * Keeps the queue and the open threads current. Webhook events are only hints: what the
 * attendant sees always comes from reading the service, paged from a high-water mark kept per
 * open session (the newest message seen) and one for the queue (the newest `updatedAt` seen).
 * After a reconnect, a sleep or a listener restart, `resyncAll` reads each mark forward, so
 * nothing sent meanwhile is missed, however long the gap (never a fixed time window).
 */

import { isNewer } from '../../src-shared/newest';
import { systemClock } from '../clock';

export interface Stamped {
  id: number;
  /** ISO date-time from the service; null when it sent none. */
  stamp: string | null;
}

/** A high-water mark: the newest record seen, by its service time and id. */
export interface Mark {
  stamp: string;
  id: number;
}

export interface SyncSource<M extends Stamped, S extends Stamped> {
  /**
   * Every message of the session stamped at or after `since` (all of them when null), oldest
   * first, paging until a short page. May repeat messages already seen: the engine drops them.
   */
  messagesSince(sessionId: number, since: string | null): Promise<M[]>;
  /** Every session updated at or after `since`, paging until a short page. */
  sessionsSince(since: string): Promise<S[]>;
}

export interface SyncSink<M extends Stamped, S extends Stamped> {
  messages(sessionId: number, fresh: M[]): void;
  sessions(changed: S[]): void;
  error?(what: string, e: unknown): void;
  /** A pull of the queue read the service successfully (the queue is current as of now). */
  queueSynced?(): void;
}

export interface SyncOptions<M extends Stamped, S extends Stamped> {
  source: SyncSource<M, S>;
  sink: SyncSink<M, S>;
  /**
   * Read back this far before a mark, so a record the service stamped just before the newest
   * one seen but published after it is still found (duplicates are dropped). Default 2 s.
   */
  slackMs?: number;
  /**
   * Least time between two passes over the queue: under a stream of hints (a busy service sends
   * many events a second) the queue is read at most this often, not once per event. Default 250 ms.
   */
  queueGapMs?: number;
  /**
   * Least time between two reads of one session: hints arriving while a read runs are folded
   * into one more read, started this long after the last, so a stream of a thousand events a
   * second costs a few reads, never one straight after another. Default 100 ms.
   */
  threadGapMs?: number;
  /** For tests: waits this long (default: a timer). */
  sleep?: (ms: number) => Promise<void>;
}

interface Tracked {
  mark: Mark | null;
  /** The oldest message shown: anything older belongs to older pages, read by paging back. */
  floor: number;
  seen: Set<number>;
  running: Promise<boolean> | null;
  again: boolean;
}

/** The newer of a mark and a record, by the one rule of time (src-shared/newest); a record with no stamp moves nothing. */
const later = (a: Mark | null, b: Stamped): Mark | null => {
  if (!b.stamp) return a;
  if (a && Number.isNaN(Date.parse(b.stamp))) return a;
  return isNewer({ at: b.stamp, id: b.id }, a && { at: a.stamp, id: a.id }) ? { stamp: b.stamp, id: b.id } : a;
};

export class SyncEngine<M extends Stamped, S extends Stamped> {
  readonly #source: SyncSource<M, S>;
  readonly #sink: SyncSink<M, S>;
  readonly #slackMs: number;
  readonly #queueGapMs: number;
  readonly #threadGapMs: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #threads = new Map<number, Tracked>();
  #queueMark: Mark | null = null;
  /**
   * Where the queue is read from while it has no mark (a queue loaded empty, or records with no
   * stamp): the time the mark was last cleared, so a poll still finds what arrived since.
   */
  #queueOrigin = new Date(systemClock.now()).toISOString();
  #queueRun: Promise<boolean> | null = null;
  #queueAgain = false;
  #stopped = false;

  constructor(o: SyncOptions<M, S>) {
    this.#source = o.source;
    this.#sink = o.sink;
    this.#slackMs = o.slackMs ?? 2_000;
    this.#queueGapMs = o.queueGapMs ?? 250;
    this.#threadGapMs = o.threadGapMs ?? 100;
    this.#sleep = o.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Starts following a session from the messages the attendant was shown. */
  track(sessionId: number, shown: readonly M[]): void {
    let t = this.#threads.get(sessionId);
    if (!t) {
      t = { mark: null, floor: Number.NEGATIVE_INFINITY, seen: new Set(), running: null, again: false };
      this.#threads.set(sessionId, t);
    }
    for (const m of shown) {
      const at = m.stamp ? Date.parse(m.stamp) : NaN;
      if (!Number.isNaN(at) && (t.floor === Number.NEGATIVE_INFINITY || at < t.floor)) t.floor = at;
    }
    this.#absorb(t, shown);
  }

  /** Records messages that reached the attendant another way (a reply just sent, an older page). */
  note(sessionId: number, messages: readonly M[]): void {
    const t = this.#threads.get(sessionId);
    if (t) this.#absorb(t, messages);
  }

  untrack(sessionId: number): void {
    this.#threads.delete(sessionId);
  }

  tracked(): number[] {
    return [...this.#threads.keys()];
  }

  markOf(sessionId: number): Mark | null {
    return this.#threads.get(sessionId)?.mark ?? null;
  }

  /** The queue was loaded whole: follow it from the newest `updatedAt` seen. */
  setQueueMark(mark: Mark | null): void {
    this.#queueMark = mark;
    if (!mark) this.#queueOrigin = new Date(systemClock.now()).toISOString();
  }

  get queueMarkValue(): Mark | null {
    return this.#queueMark;
  }

  /**
   * Something happened in this session: read it forward from its mark (coalesced). Resolves
   * once a read that began after the hint ended: true when it read the service, false when it
   * failed (the failure went to the sink). A session not followed needs no read: true.
   */
  hintSession(sessionId: number): Promise<boolean> {
    const t = this.#threads.get(sessionId);
    if (!t || this.#stopped) return Promise.resolve(true);
    if (t.running) {
      t.again = true;
      return t.running;
    }
    t.running = this.#pullThread(sessionId, t).finally(() => {
      t.running = null;
    });
    return t.running;
  }

  /** Something happened to some session: read the queue forward from its mark (coalesced); resolves as `hintSession`. */
  hintQueue(): Promise<boolean> {
    if (this.#stopped) return Promise.resolve(true);
    if (this.#queueRun) {
      this.#queueAgain = true;
      return this.#queueRun;
    }
    this.#queueRun = this.#pullQueue().finally(() => {
      this.#queueRun = null;
    });
    return this.#queueRun;
  }

  /**
   * After a gap (reconnect, sleep, listener restart) and on the safety-net poll: every open
   * session and the queue. Says how many new records it found and what failed, so the poll can
   * slow down when nothing changes and back off when the service asks it to.
   */
  async resyncAll(): Promise<{ found: number; errors: unknown[] }> {
    const before = this.#delivered;
    const errors: unknown[] = [];
    this.#errorsSeen = errors;
    try {
      await Promise.all([this.hintQueue(), ...this.tracked().map((id) => this.hintSession(id))]);
    } finally {
      if (this.#errorsSeen === errors) this.#errorsSeen = null;
    }
    return { found: this.#delivered - before, errors };
  }

  /** Records delivered to the sink since the engine started (new messages and changed sessions). */
  #delivered = 0;
  /** Where a running resyncAll collects failures. */
  #errorsSeen: unknown[] | null = null;

  #failed(what: string, e: unknown): void {
    this.#errorsSeen?.push(e);
    this.#sink.error?.(what, e);
  }

  stop(): void {
    this.#stopped = true;
    this.#threads.clear();
  }

  #absorb(t: Tracked, messages: readonly M[]): M[] {
    const fresh: M[] = [];
    for (const m of messages) {
      if (t.seen.has(m.id)) continue;
      t.seen.add(m.id);
      t.mark = later(t.mark, m);
      fresh.push(m);
    }
    return fresh;
  }

  #since(mark: Mark | null): string | null {
    if (!mark) return null;
    const t = Date.parse(mark.stamp);
    return Number.isNaN(t) ? mark.stamp : new Date(t - this.#slackMs).toISOString();
  }

  async #pullThread(sessionId: number, t: Tracked): Promise<boolean> {
    // Bounded: each pass reads forward from a mark that only moves ahead; a burst of hints while
    // a pass runs costs one more pass, not one per hint.
    for (let pass = 0; pass < 50; pass++) {
      if (pass > 0) await this.#sleep(this.#threadGapMs);
      // No longer followed: nothing is left to read for it.
      if (this.#threads.get(sessionId) !== t || this.#stopped) return true;
      t.again = false;
      try {
        const got = await this.#source.messagesSince(sessionId, this.#since(t.mark));
        if (this.#threads.get(sessionId) !== t) return true;
        const floor = t.floor;
        const fresh = this.#absorb(
          t,
          got.filter((m) => !m.stamp || !(Date.parse(m.stamp) < floor)),
        );
        this.#delivered += fresh.length;
        if (fresh.length) this.#sink.messages(sessionId, fresh);
      } catch (e) {
        this.#failed(`session ${sessionId}`, e);
        return false;
      }
      if (!t.again || this.#stopped) return true;
    }
    return true;
  }

  async #pullQueue(): Promise<boolean> {
    for (let pass = 0; pass < 50; pass++) {
      if (pass > 0) await this.#sleep(this.#queueGapMs);
      this.#queueAgain = false;
      const mark = this.#queueMark ?? { stamp: this.#queueOrigin, id: 0 };
      try {
        const got = await this.#source.sessionsSince(this.#since(mark) ?? mark.stamp);
        let next: Mark | null = this.#queueMark;
        for (const s of got) next = later(next, s);
        // Read back from before the mark (the slack), the newest records come again: only
        // those past the old mark are news.
        const news = got.filter((r) => later(mark, r) !== mark).length;
        this.#queueMark = next;
        this.#delivered += news;
        if (got.length) this.#sink.sessions(got);
        this.#sink.queueSynced?.();
      } catch (e) {
        this.#failed('queue', e);
        return false;
      }
      if (!this.#queueAgain || this.#stopped) return true;
    }
    return true;
  }
}
