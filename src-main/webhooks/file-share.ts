import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { KB_FILE_TYPES, type KbFileType } from '../../src-shared/kb-name';
import { systemClock } from '../clock';

/**
 * Files the console lends to the service for a short while. The knowledge-base upload reads a
 * file from a URL (interface §4.5), so a file chosen on this computer is offered by the webhook
 * listener (the service's one way in, through the tunnel) under an unguessable path, for a few
 * downloads and a few minutes, then forgotten; sooner when its upload ends (withdrawn). Held in
 * memory only: nothing is written to disk.
 */

/** A file lent to the service: where it reads it, and the end of the loan. */
export interface LentFile {
  readonly url: string;
  /** Forgets the file now (the upload failed, was cancelled, or the service has read it). */
  withdraw(): void;
}

/** The media type of each file type upload_files takes (§4.5). */
const TYPES: Record<KbFileType, string> = {
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
const typeOf = (ext: string): string | null => ((KB_FILE_TYPES as readonly string[]).includes(ext) ? TYPES[ext as KbFileType] : null);

export const FILE_PATH_PREFIX = '/files/';
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export interface SharedFile {
  name: string;
  type: string;
  bytes: Buffer;
}

interface Entry extends SharedFile {
  expiresAt: number;
  downloadsLeft: number;
  onEnd?: ((how: 'read' | 'expired') => void) | undefined;
  /** Ends the loan at its time when someone waits for its end (else it goes at the next sweep). */
  timer?: NodeJS.Timeout | undefined;
}

/** How one file is lent, where it differs from the share's defaults. */
export interface LendOptions {
  /** Its media type (else from its extension, among the knowledge-base types). */
  type?: string;
  ttlMs?: number;
  maxDownloads?: number;
  /** Told once when the loan ends by itself: every read used (`read`) or its time over (`expired`); not when withdrawn. */
  onEnd?: (how: 'read' | 'expired') => void;
}

export interface FileShareOptions {
  /** How long an offered file stays reachable. Default 15 minutes. */
  ttlMs?: number;
  /** How many times it may be read (the service may retry). Default 3. */
  maxDownloads?: number;
  /** Offered files held at once; the oldest goes first. Default 8. */
  maxFiles?: number;
  now?(): number;
}

export class FileShare {
  readonly #files = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxDownloads: number;
  readonly #maxFiles: number;

  readonly #o: FileShareOptions;
  constructor(o: FileShareOptions = {}) {
    this.#o = o;
    this.#ttlMs = o.ttlMs ?? 15 * 60_000;
    this.#maxDownloads = o.maxDownloads ?? 3;
    this.#maxFiles = o.maxFiles ?? 8;
  }

  #now(): number {
    return this.#o.now?.() ?? systemClock.now();
  }

  /**
   * Offers a file; returns the path to append to the listener's origin. Without `o.type` the
   * file is a knowledge-base file typed by its extension, and throws on a type the service does
   * not index; a chat file gives its own type and is read once (`o.maxDownloads`).
   */
  offer(name: string, bytes: Buffer, o: LendOptions = {}): string {
    const ext = extname(name).slice(1).toLowerCase();
    const type = o.type ?? typeOf(ext);
    if (!type)
      throw new Error(
        `${ext ? `A .${ext} file` : 'A file without an extension'} cannot be indexed. Supported: ${KB_FILE_TYPES.map((t) => `.${t}`).join(', ')}.`,
      );
    this.#sweep();
    while (this.#files.size >= this.#maxFiles) this.#drop(this.#files.keys().next().value as string);
    const token = randomBytes(32).toString('base64url');
    const ttl = o.ttlMs ?? this.#ttlMs;
    const entry: Entry = {
      name,
      type,
      bytes,
      expiresAt: this.#now() + ttl,
      downloadsLeft: o.maxDownloads ?? this.#maxDownloads,
      onEnd: o.onEnd,
    };
    if (o.onEnd) {
      entry.timer = setTimeout(() => this.#sweep(), ttl + 1);
      entry.timer.unref();
    }
    this.#files.set(token, entry);
    return `${FILE_PATH_PREFIX}${token}/${encodeURIComponent(name)}`;
  }

  /** The token a request path names, when it is one. */
  #tokenOf(path: string): string | null {
    if (!path.startsWith(FILE_PATH_PREFIX)) return null;
    const token = path.slice(FILE_PATH_PREFIX.length).split('/', 1)[0]!;
    return TOKEN_RE.test(token) ? token : null;
  }

  /** The file a request path names, counting the download; null when unknown, used up or expired. */
  take(path: string): SharedFile | null {
    const token = this.#tokenOf(path);
    const entry = this.#look(path);
    if (!token || !entry) return null;
    entry.downloadsLeft--;
    if (entry.downloadsLeft <= 0) this.#drop(token, 'read');
    return { name: entry.name, type: entry.type, bytes: entry.bytes };
  }

  /** The file a request path names, without counting a download (a HEAD reads no bytes). */
  peek(path: string): SharedFile | null {
    const entry = this.#look(path);
    return entry && { name: entry.name, type: entry.type, bytes: entry.bytes };
  }

  #look(path: string): Entry | null {
    this.#sweep();
    const token = this.#tokenOf(path);
    return (token && this.#files.get(token)) || null;
  }

  /** Forgets the file at this path, read or not. */
  withdraw(path: string): void {
    const token = this.#tokenOf(path);
    if (token) this.#drop(token);
  }

  /** Forgets every offered file (sign-out, workspace change). */
  clear(): void {
    for (const token of [...this.#files.keys()]) this.#drop(token);
  }

  get size(): number {
    this.#sweep();
    return this.#files.size;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [token, e] of this.#files) if (e.expiresAt <= now) this.#drop(token, 'expired');
  }

  /** Forgets a loan; says how it ended to whoever waits, unless it was taken back. */
  #drop(token: string, how?: 'read' | 'expired'): void {
    const e = this.#files.get(token);
    if (!e) return;
    this.#files.delete(token);
    clearTimeout(e.timer);
    if (how) e.onEnd?.(how);
  }
}
