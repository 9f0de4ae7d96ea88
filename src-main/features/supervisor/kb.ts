import type { KbBase } from '../../../src-shared/bridge/supervisor';
import { AppError, isAppError } from '../../../src-shared/errors';
import type { ServiceClient } from '../../service';
import type { LentFile } from '../../webhooks';
import { systemClock } from '../../clock';

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
  /** Keeps the name of a base the service accepted, so the workspace lists it after a restart. */
  remember?(name: string): void;
  /** Delay between probes, growing to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  now?(): number;
}

/**
 * What the service says about a lent file, its one-time address replaced by the file's name:
 * the address is a credential for the file while the loan lasts, and the page never sees it.
 */
function withoutAddress(text: string, lent: LentFile, name: string): string {
  const token = new URL(lent.url).pathname.split('/')[2] ?? '';
  const named = text.split(lent.url).join(name);
  return token ? named.split(token).join('…') : named;
}

export class KbTracker {
  readonly #bases = new Map<string, KbBase>();
  readonly #probes = new Map<string, AbortController>();
  /** Uploads under way: cancelled when the workspace closes or changes. */
  readonly #uploads = new Set<AbortController>();

  readonly #o: KbTrackerOptions;
  constructor(o: KbTrackerOptions) {
    this.#o = o;
  }

  list(): KbBase[] {
    return [...this.#bases.values()].sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt));
  }

  /**
   * Uploads from a link, or from a file of this computer lent to the service (`lent`, listed by
   * its name `shownAs`): the loan ends as soon as the upload fails or is cancelled, and once the
   * base answers or is given up on; its address never reaches the list or a message.
   */
  async upload(
    input: {
      name: string;
      separator?: string | undefined;
      idColumn?: string | undefined;
      revealDocuments?: boolean | undefined;
    } & ({ url: string } | { lent: LentFile; shownAs: string }),
  ): Promise<KbBase> {
    const lent = 'lent' in input ? { file: input.lent, name: input.shownAs } : null;
    const hide = (text: string) => (lent ? withoutAddress(text, lent.file, lent.name) : text);
    const abort = new AbortController();
    this.#uploads.add(abort);
    let answer: { message?: string | null | undefined };
    try {
      answer = await this.#o.client().uploadFiles(
        {
          url_file: lent ? lent.file.url : (input as { url: string }).url,
          index_engine: input.name,
          ...(input.separator ? { separator_doc_engine: input.separator } : {}),
          ...(input.idColumn ? { id_doc_engine: input.idColumn } : {}),
        },
        { revealDocuments: input.revealDocuments === true, signal: abort.signal },
      );
    } catch (e) {
      lent?.file.withdraw();
      // Upload is an administrator's operation (DESIGN.md §2): a supervisor cannot help here.
      if (isAppError(e) && e.kind === 'Forbidden') {
        throw new AppError({
          kind: 'Forbidden',
          status: 403,
          message: 'Your role cannot upload knowledge-base files (403). Ask an administrator.',
        });
      }
      throw isAppError(e) && lent ? new AppError({ ...e.info, message: hide(e.info.message) }) : e;
    } finally {
      this.#uploads.delete(abort);
    }
    const base: KbBase = {
      name: input.name,
      url: lent ? lent.name : (input as { url: string }).url,
      uploadedAt: new Date(this.#now()).toISOString(),
      state: 'indexing',
      readyAt: null,
      message: answer.message ? hide(answer.message) : null,
    };
    this.#set(base);
    this.#o.remember?.(base.name);
    this.#probe(base, () => lent?.file.withdraw());
    return base;
  }

  #now(): number {
    return this.#o.now?.() ?? systemClock.now();
  }

  #set(base: KbBase): void {
    this.#bases.set(base.name, base);
    this.#o.emit(base);
  }

  /** Asks the new base a question until it answers; `done` runs once the wait ends, however it ends. */
  #probe(base: KbBase, done: () => void): void {
    this.#probes.get(base.name)?.abort();
    const abort = new AbortController();
    abort.signal.addEventListener('abort', done, { once: true });
    this.#probes.set(base.name, abort);
    const started = this.#now();
    let delay = this.#o.firstDelayMs ?? 300;
    const max = this.#o.maxDelayMs ?? 3_000;
    const end = () => {
      this.#probes.delete(base.name);
      done();
    };
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
          return end();
        } catch (e) {
          if (abort.signal.aborted) return;
          // 404 while indexing; anything transient is retried. Refusals end the wait.
          if (isAppError(e) && (e.kind === 'Unauthorized' || e.kind === 'Forbidden' || e.kind === 'Invalid')) {
            this.#set({ ...base, state: 'failed', message: e.message });
            return end();
          }
        }
      }
      if (!abort.signal.aborted) {
        this.#set({
          ...base,
          state: 'failed',
          message: 'No answers came within 5 minutes: the file may not have been readable. Check the link and upload it again.',
        });
        end();
      }
    })();
  }

  /** Cancels every upload and probe and forgets the bases (workspace closed or switched). */
  reset(): void {
    for (const a of this.#uploads) a.abort();
    this.#uploads.clear();
    for (const a of this.#probes.values()) a.abort();
    this.#probes.clear();
    this.#bases.clear();
  }
}
