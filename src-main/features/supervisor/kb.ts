import type { KbBase } from '../../../src-shared/bridge/supervisor';
import { AppError, isAppError } from '../../../src-shared/errors';
import type { ServiceClient } from '../../service';

/**
 * Knowledge bases uploaded from this console. upload_files answers at once and indexes in the
 * background (interface §4.5), so after an upload the base is probed with a question until the
 * service answers: that moment is when agents start finding answers in it.
 */

const PROBE = 'teste';
const GIVE_UP_MS = 5 * 60_000;

export interface KbTrackerOptions {
  client(): ServiceClient;
  emit(base: KbBase): void;
  /** Delay between probes, growing to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  now?(): number;
}

export class KbTracker {
  readonly #bases = new Map<string, KbBase>();
  readonly #probes = new Map<string, AbortController>();

  readonly #o: KbTrackerOptions;
  constructor(o: KbTrackerOptions) {
    this.#o = o;
  }

  list(): KbBase[] {
    return [...this.#bases.values()].sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt));
  }

  /** `shownAs`: what the list says the base came from, when not the URL (a file lent for the upload). */
  async upload(input: {
    url: string;
    name: string;
    separator?: string | undefined;
    idColumn?: string | undefined;
    revealDocuments?: boolean | undefined;
    shownAs?: string;
  }): Promise<KbBase> {
    const answer = await this.#o
      .client()
      .uploadFiles(
        {
          url_file: input.url,
          index_engine: input.name,
          ...(input.separator ? { separator_doc_engine: input.separator } : {}),
          ...(input.idColumn ? { id_doc_engine: input.idColumn } : {}),
        },
        { revealDocuments: input.revealDocuments === true },
      )
      .catch((e: unknown) => {
        // Upload is an administrator's operation (DESIGN.md §2): a supervisor cannot help here.
        if (isAppError(e) && e.kind === 'Forbidden') {
          throw new AppError({
            kind: 'Forbidden',
            status: 403,
            message: 'Your role cannot upload knowledge-base files (403). Ask an administrator.',
          });
        }
        throw e;
      });
    const base: KbBase = {
      name: input.name,
      url: input.shownAs ?? input.url,
      uploadedAt: new Date(this.#now()).toISOString(),
      state: 'indexing',
      readyAt: null,
      message: answer.message ?? null,
    };
    this.#set(base);
    this.#probe(base);
    return base;
  }

  #now(): number {
    return this.#o.now?.() ?? Date.now();
  }

  #set(base: KbBase): void {
    this.#bases.set(base.name, base);
    this.#o.emit(base);
  }

  #probe(base: KbBase): void {
    this.#probes.get(base.name)?.abort();
    const abort = new AbortController();
    this.#probes.set(base.name, abort);
    const started = this.#now();
    let delay = this.#o.firstDelayMs ?? 300;
    const max = this.#o.maxDelayMs ?? 3_000;
    void (async () => {
      // Bounded by GIVE_UP_MS; each probe is one short read.
      while (!abort.signal.aborted && this.#now() - started < GIVE_UP_MS) {
        await new Promise((r) => setTimeout(r, delay));
        if (abort.signal.aborted) return;
        delay = Math.min(max, Math.round(delay * 1.5));
        try {
          await this.#o.client().questions({ index: base.name, question: PROBE, size: 1 }, { signal: abort.signal });
          if (abort.signal.aborted) return;
          this.#set({ ...base, state: 'ready', readyAt: new Date(this.#now()).toISOString() });
          this.#probes.delete(base.name);
          return;
        } catch (e) {
          if (abort.signal.aborted) return;
          // 404 while indexing; anything transient is retried. Refusals end the wait.
          if (isAppError(e) && (e.kind === 'Unauthorized' || e.kind === 'Forbidden' || e.kind === 'Invalid')) {
            this.#set({ ...base, state: 'failed', message: e.message });
            this.#probes.delete(base.name);
            return;
          }
        }
      }
      if (!abort.signal.aborted) {
        this.#set({
          ...base,
          state: 'failed',
          message: 'No answers came within 5 minutes: the file may not have been readable. Check the link and upload it again.',
        });
        this.#probes.delete(base.name);
      }
    })();
  }

  /** Stops every probe and forgets the bases (workspace closed or switched). */
  reset(): void {
    for (const a of this.#probes.values()) a.abort();
    this.#probes.clear();
    this.#bases.clear();
  }
}
