import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { download, type FileType } from './kb-fetch';
import { parseDocuments } from './kb-parse';
import { VectorIndex } from './vectors';
import { errorText } from '../../src-shared/error-text';

/**
 * The knowledge bases of the stand-in. An upload answers at once and indexes in the
 * background. States, as the status endpoint reports them:
 *   indexing  the first version is being built: `questions` answers 404 with a message saying so;
 *   ready     searchable; a re-upload keeps the old version searchable until the new one is
 *             ready, then replaces it whole (`pending` shows the re-index under way, `error`
 *             a re-upload that failed while the old version stayed);
 *   failed    nothing searchable: the upload failed (`error` says why); `questions` answers
 *             404 with that reason.
 * With a data folder, ready bases are written to disk and come back after a restart.
 */

export type KbState = 'indexing' | 'ready' | 'failed';

export interface KbStatus {
  index: string;
  state: KbState;
  documents: number;
  source: string | null;
  updatedAt: string | null;
  /** A newer upload still being processed while an older version answers. */
  pending: boolean;
  error: string | null;
}

interface Base {
  name: string;
  ready: { index: VectorIndex; source: string; updatedAt: string } | null;
  job: { generation: number; abort: AbortController; done: Promise<void> } | null;
  error: string | null;
  generation: number;
}

export interface UploadRequest {
  name: string;
  url: URL;
  type: FileType | null;
  separator?: string | undefined;
  idField?: string | undefined;
}

export type SearchOutcome =
  | { kind: 'ok'; answer: Array<{ text: string; score: number }> }
  | { kind: 'missing' }
  | { kind: 'indexing' }
  | { kind: 'failed'; error: string };

const StoredBaseSchema = z.object({
  version: z.literal(1),
  name: z.string(),
  source: z.string(),
  updatedAt: z.string(),
  documents: z.array(z.string()),
});

const FILE_SUFFIX = '.kb.json';

export interface KnowledgeBaseOptions {
  dataDir?: string | undefined;
  maxBytes?: number;
  fetchTimeoutMs?: number;
  /** Bases built at every start unless a stored base of the same name exists. */
  seeds?: Array<{ name: string; source: string; load: () => Promise<string[]> }>;
  log?: (line: string) => void;
}

export class KnowledgeBases {
  readonly #bases = new Map<string, Base>();
  readonly #dir: string | null;
  readonly #maxBytes: number;
  readonly #fetchTimeoutMs: number;
  readonly #log: (line: string) => void;
  #closed = false;
  readonly ready: Promise<void>;

  readonly #opts: KnowledgeBaseOptions;
  constructor(opts: KnowledgeBaseOptions = {}) {
    this.#opts = opts;
    this.#dir = opts.dataDir ? join(opts.dataDir, 'knowledge-bases') : null;
    this.#maxBytes = opts.maxBytes ?? 20 * 1024 * 1024;
    this.#fetchTimeoutMs = opts.fetchTimeoutMs ?? 30_000;
    this.#log = opts.log ?? (() => {});
    this.ready = this.#load();
  }

  #base(name: string): Base {
    let b = this.#bases.get(name);
    if (!b) {
      b = { name, ready: null, job: null, error: null, generation: 0 };
      this.#bases.set(name, b);
    }
    return b;
  }

  async #load(): Promise<void> {
    if (this.#dir) {
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      for (const file of await readdir(this.#dir)) {
        if (!file.endsWith(FILE_SUFFIX)) continue;
        try {
          const stored = StoredBaseSchema.parse(JSON.parse(await readFile(join(this.#dir, file), 'utf8')));
          this.#base(stored.name).ready = { index: new VectorIndex(stored.documents), source: stored.source, updatedAt: stored.updatedAt };
        } catch (e) {
          this.#log(`knowledge base file ${file} ignored: ${errorText(e)}`);
        }
      }
    }
    for (const seed of this.#opts.seeds ?? []) {
      if (this.#bases.get(seed.name)?.ready) continue;
      try {
        this.#install(this.#base(seed.name), await seed.load(), seed.source);
      } catch (e) {
        this.#base(seed.name).error = `The demo base could not be built: ${errorText(e)}`;
      }
    }
  }

  status(name: string): KbStatus | null {
    const b = this.#bases.get(name);
    if (!b) return null;
    const state: KbState = b.ready ? 'ready' : b.job ? 'indexing' : 'failed';
    return {
      index: name,
      state,
      documents: b.ready?.index.chunks.length ?? 0,
      source: b.ready?.source ?? null,
      updatedAt: b.ready?.updatedAt ?? null,
      pending: b.job !== null,
      error: b.error,
    };
  }

  list(): KbStatus[] {
    return [...this.#bases.keys()]
      .sort()
      .map((n) => this.status(n))
      .filter((s): s is KbStatus => s !== null);
  }

  search(name: string, question: string, size: number): SearchOutcome {
    const b = this.#bases.get(name);
    if (!b) return { kind: 'missing' };
    if (!b.ready) return b.job ? { kind: 'indexing' } : { kind: 'failed', error: b.error ?? 'unknown error' };
    return { kind: 'ok', answer: b.ready.index.search(question, size) };
  }

  /** Searchable bases, for drafting replies. */
  readyIndexes(): VectorIndex[] {
    return [...this.#bases.values()].flatMap((b) => (b.ready ? [b.ready.index] : []));
  }

  /** Starts (or restarts) indexing a base in the background; the latest upload of a name wins. */
  upload(req: UploadRequest): void {
    if (this.#closed) throw new Error('closed');
    const b = this.#base(req.name);
    b.job?.abort.abort();
    const generation = ++b.generation;
    const abort = new AbortController();
    b.error = null;
    const done = (async () => {
      try {
        const file = await download(req.url, req.type, { signal: abort.signal, maxBytes: this.#maxBytes, timeoutMs: this.#fetchTimeoutMs });
        const docs = await parseDocuments(file.bytes, file.type, { separator: req.separator, idField: req.idField });
        if (abort.signal.aborted || b.generation !== generation) return;
        await this.#installAndStore(b, docs, req.url.href);
      } catch (e) {
        if (abort.signal.aborted || b.generation !== generation) return;
        b.error = errorText(e);
        this.#log(`indexing ${req.name} failed: ${b.error}`);
      } finally {
        if (b.generation === generation) b.job = null;
      }
    })();
    b.job = { generation, abort, done };
  }

  #install(b: Base, docs: string[], source: string): void {
    b.ready = { index: new VectorIndex(docs), source, updatedAt: new Date().toISOString() };
    b.error = null;
  }

  async #installAndStore(b: Base, docs: string[], source: string): Promise<void> {
    this.#install(b, docs, source);
    if (!this.#dir || !b.ready) return;
    const file = join(this.#dir, `${b.name}${FILE_SUFFIX}`);
    const tmp = `${file}.${process.pid}.tmp`;
    const stored: z.infer<typeof StoredBaseSchema> = { version: 1, name: b.name, source, updatedAt: b.ready.updatedAt, documents: docs };
    try {
      // Write then rename, so a crash never leaves half a base on disk.
      await writeFile(tmp, JSON.stringify(stored), { mode: 0o600 });
      await rename(tmp, file);
    } catch (e) {
      await rm(tmp, { force: true });
      this.#log(`knowledge base ${b.name} not saved: ${errorText(e)}`);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const jobs = [...this.#bases.values()].flatMap((b) => (b.job ? [b.job] : []));
    for (const j of jobs) j.abort.abort();
    await Promise.allSettled([this.ready, ...jobs.map((j) => j.done)]);
  }
}
