import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DirSyncer, ensureDir, quarantineFile, removeFile, removeStaleTemps, writeFileDurable } from './fsutil';
import { systemClock, type Clock } from '../clock';
import type { OutboxProblem } from './types';

export type DraftKind = 'reply' | 'note';
export const DRAFT_KINDS = ['reply', 'note'] as const satisfies readonly DraftKind[];

export interface Draft {
  sessionId: number;
  kind: DraftKind;
  text: string;
  updatedAt: number;
}

const DraftTextSchema = z.strictObject({ text: z.string(), updatedAt: z.number() });
const DraftFileSchema = z.strictObject({
  v: z.literal(1),
  sessionId: z.number().int().positive(),
  reply: DraftTextSchema.optional(),
  note: DraftTextSchema.optional(),
});
type DraftFile = z.infer<typeof DraftFileSchema>;

const FILE_NAME = /^session-(\d+)\.json$/;
const fileName = (sessionId: number) => `session-${sessionId}.json`;

export interface DraftStoreOptions {
  /** Base directory; drafts live in `<dir>/drafts/`, unreadable ones go to `<dir>/quarantine/`. */
  dir: string;
  /** Quiet time after the last keystroke before a write. */
  debounceMs?: number;
  /** Longest a draft stays unwritten while the attendant keeps typing. */
  maxWaitMs?: number;
  clock?: Clock;
  log?: (message: string, detail?: unknown) => void;
}

interface Pending {
  timer: unknown;
  firstDirtyAt: number;
}

/**
 * Reply and note drafts per session, so nothing typed is lost when a window closes or the app
 * is killed. Writes are debounced (with a ceiling) and atomic: one small file per session, so a
 * damaged file costs one session's drafts, not all of them.
 */
export class DraftStore {
  readonly #draftsDir: string;
  readonly #quarantineDir: string;
  readonly #syncer: DirSyncer;
  readonly #clock: Clock;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #log: (message: string, detail?: unknown) => void;
  readonly #files = new Map<number, DraftFile>();
  readonly #dirty = new Map<number, Pending>();
  /** One write per session at a time, in order. */
  readonly #writes = new Map<number, Promise<void>>();
  #loading: Promise<void> | null = null;
  readonly problems: OutboxProblem[] = [];

  constructor(opts: DraftStoreOptions) {
    this.#draftsDir = path.join(opts.dir, 'drafts');
    this.#quarantineDir = path.join(opts.dir, 'quarantine');
    this.#syncer = new DirSyncer(this.#draftsDir);
    this.#clock = opts.clock ?? systemClock;
    this.#debounceMs = opts.debounceMs ?? 400;
    this.#maxWaitMs = opts.maxWaitMs ?? 2_000;
    this.#log = opts.log ?? (() => undefined);
  }

  load(): Promise<void> {
    this.#loading ??= this.#doLoad();
    return this.#loading;
  }

  async #doLoad(): Promise<void> {
    await ensureDir(this.#draftsDir);
    await removeStaleTemps(this.#draftsDir);
    const now = this.#clock.now();
    for (const name of await readdir(this.#draftsDir)) {
      const file = path.join(this.#draftsDir, name);
      const m = FILE_NAME.exec(name);
      let reason: string | undefined;
      if (!m) reason = 'not a draft file name';
      else {
        try {
          const parsed = DraftFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
          if (!parsed.success) reason = 'invalid draft file';
          else if (parsed.data.sessionId !== Number(m[1])) reason = 'session does not match the file name';
          else this.#files.set(parsed.data.sessionId, parsed.data);
        } catch {
          reason = 'not readable as JSON';
        }
      }
      if (reason) {
        const movedTo = await quarantineFile(file, this.#quarantineDir, now, reason);
        const problem: OutboxProblem = {
          kind: 'quarantined',
          file: name,
          movedTo,
          message: `Drafts could not be read (${reason}); the file was set aside in ${movedTo}.`,
          at: now,
        };
        this.problems.push(problem);
        this.#log('drafts: file quarantined', problem);
      }
    }
  }

  /** The draft text of a session ('' when none). Call after `load()`. */
  get(sessionId: number, kind: DraftKind): string {
    return this.#files.get(sessionId)?.[kind]?.text ?? '';
  }

  all(): Draft[] {
    const out: Draft[] = [];
    for (const f of this.#files.values()) {
      for (const kind of DRAFT_KINDS) {
        const d = f[kind];
        if (d && d.text) out.push({ sessionId: f.sessionId, kind, text: d.text, updatedAt: d.updatedAt });
      }
    }
    return out;
  }

  /** Records a keystroke's worth of draft; written after a quiet moment. Empty text clears it. */
  set(sessionId: number, kind: DraftKind, text: string): void {
    const id = z.number().int().positive().parse(sessionId);
    z.enum(DRAFT_KINDS).parse(kind);
    const now = this.#clock.now();
    const f: DraftFile = this.#files.get(id) ?? { v: 1, sessionId: id };
    if (text) f[kind] = { text: z.string().parse(text), updatedAt: now };
    else delete f[kind];
    this.#files.set(id, f);
    this.#schedule(id, now);
  }

  clear(sessionId: number, kind?: DraftKind): void {
    for (const k of kind ? [kind] : DRAFT_KINDS) this.set(sessionId, k, '');
  }

  /** Writes every unsaved draft now (window closing, app quitting). */
  async flush(): Promise<void> {
    const ids = [...this.#dirty.keys()];
    for (const id of ids) this.#startWrite(id);
    await Promise.allSettled([...this.#writes.values()]);
  }

  #schedule(id: number, now: number): void {
    const p = this.#dirty.get(id);
    if (p) this.#clock.clearTimeout(p.timer);
    const firstDirtyAt = p?.firstDirtyAt ?? now;
    const due = Math.min(now + this.#debounceMs, firstDirtyAt + this.#maxWaitMs);
    const timer = this.#clock.setTimeout(() => this.#startWrite(id), Math.max(0, due - now));
    this.#dirty.set(id, { timer, firstDirtyAt });
  }

  #startWrite(id: number): void {
    const p = this.#dirty.get(id);
    if (!p) return;
    this.#clock.clearTimeout(p.timer);
    this.#dirty.delete(id);
    const prev = this.#writes.get(id) ?? Promise.resolve();
    const next = prev
      .then(() => this.#write(id))
      .catch((e: unknown) => {
        this.#log('drafts: write failed; will try again', e);
        // Keep it dirty so the next keystroke or flush tries again.
        if (!this.#dirty.has(id)) this.#schedule(id, this.#clock.now());
      });
    this.#writes.set(id, next);
    void next.then(() => {
      if (this.#writes.get(id) === next) this.#writes.delete(id);
    });
  }

  /** Writes the session's current drafts (the latest text at the time of writing). */
  async #write(id: number): Promise<void> {
    const f = this.#files.get(id);
    if (!f || (!f.reply && !f.note)) {
      this.#files.delete(id);
      await removeFile(path.join(this.#draftsDir, fileName(id)));
      await this.#syncer.sync();
      return;
    }
    await writeFileDurable(this.#syncer, fileName(id), JSON.stringify(DraftFileSchema.parse(f)));
  }
}
