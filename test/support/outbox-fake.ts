import { AppError } from '../../src-shared/errors';
import type { CommentTransport } from '../../src-main/outbox/types';

/** What the fake does with the next save. */
export type SaveBehaviour =
  | 'ok'
  | 'dropAfterCommit' // stored, then the answer is lost
  | 'resetBeforeCommit' // never stored, the connection died
  | 'hang' // never answers (until aborted): stored or not, decided by `hangStores`
  | { error: AppError };

export interface Call {
  op: 'save' | 'list' | 'probe';
  sessionId?: number;
  comment?: string;
  at: number;
}

/**
 * An in-memory service for the outbox's unit tests: deterministic faults, a call log, and the
 * stored comments to check exactly-once against.
 */
export class FakeService implements CommentTransport {
  readonly comments = new Map<number, Array<{ id: number; comment: string }>>();
  readonly calls: Call[] = [];
  /** Behaviours consumed one per save, then 'ok'. */
  script: SaveBehaviour[] = [];
  down = false;
  unauthorized = false;
  hangStores = true;
  /** A save whose comment matches is refused with 400. */
  refuse: RegExp | null = null;
  #nextId = 1;

  savedTexts(sessionId: number): string[] {
    return (this.comments.get(sessionId) ?? []).map((c) => c.comment);
  }

  #gate(): void {
    if (this.down) throw new AppError({ kind: 'Unavailable', message: 'connection refused' });
    if (this.unauthorized) throw new AppError({ kind: 'Unauthorized', message: '401', status: 401 });
  }

  #store(sessionId: number, comment: string): { id: number } {
    const rec = { id: this.#nextId++, comment };
    const list = this.comments.get(sessionId) ?? [];
    list.push(rec);
    this.comments.set(sessionId, list);
    return { id: rec.id };
  }

  async save(c: { sessionId: number; comment: string }, signal: AbortSignal): Promise<{ id: number }> {
    this.calls.push({ op: 'save', sessionId: c.sessionId, comment: c.comment, at: Date.now() });
    await Promise.resolve();
    this.#gate();
    if (this.refuse?.test(c.comment)) {
      throw new AppError({ kind: 'Invalid', message: 'comment refused by the service', status: 400, errorCode: 'COMMENT_INVALID' });
    }
    const b = this.script.shift() ?? 'ok';
    if (b === 'ok') return this.#store(c.sessionId, c.comment);
    if (b === 'dropAfterCommit') {
      this.#store(c.sessionId, c.comment);
      throw new AppError({ kind: 'OutcomeUnknown', message: 'socket closed after sending' });
    }
    if (b === 'resetBeforeCommit') throw new AppError({ kind: 'OutcomeUnknown', message: 'socket reset' });
    if (b === 'hang') {
      if (this.hangStores) this.#store(c.sessionId, c.comment);
      return new Promise((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    }
    throw b.error;
  }

  async listForSession(sessionId: number): Promise<Array<{ id: number; comment: string }>> {
    this.calls.push({ op: 'list', sessionId, at: Date.now() });
    await Promise.resolve();
    this.#gate();
    return [...(this.comments.get(sessionId) ?? [])];
  }

  async probe(): Promise<void> {
    this.calls.push({ op: 'probe', at: Date.now() });
    await Promise.resolve();
    this.#gate();
  }
}
