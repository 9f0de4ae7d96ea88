import { createWriteStream, mkdirSync, openSync, renameSync, statSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { inspect } from 'node:util';
import { toErrorInfo, type ErrorInfo } from '../src-shared/errors';
import { maskDocuments } from '../src-shared/redact';
import { carriesSecret } from '../src-shared/secret-fields';
import { hideKnownSecrets, rememberSecret } from './secrets';
import { systemClock } from './clock';

/**
 * A small structured logger: one JSON object per line. Everything written passes through the
 * redactor first, so a secret or a CPF that slips into a message or a field never reaches disk.
 */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** Remembers a secret so that it is masked wherever it would appear. */
  registerSecret?(secret: string): void;
}

export interface LogSink {
  write(line: string): unknown;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; defaults to stderr. Ignored when `file` is given. */
  stream?: LogSink;
  /** Appends to this file (created with its folder), rotated at `maxFileBytes`. */
  file?: string;
  /** Size at which the file starts afresh, the one before kept beside it as `<file>.1`. */
  maxFileBytes?: number;
  /** Fields added to every line (e.g. `{ scope: 'service' }`). */
  bindings?: LogFields;
  now?: () => Date;
}

export interface RootLogger extends Logger {
  registerSecret(secret: string): void;
  child(bindings: LogFields): Logger;
  close(): Promise<void>;
}

const REDACTED = '[redacted]';
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
/** Secrets shorter than this would mask ordinary words. */
const MIN_SECRET_LENGTH = 6;
const MAX_DEPTH = 6;

export class Redactor {
  readonly #secrets = new Set<string>();

  register(secret: string): void {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) return;
    // The process's one list too: the bridge hides the same secrets in what it answers.
    rememberSecret(secret);
    this.#secrets.add(secret);
    // The same secret as it appears inside a JSON string.
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) this.#secrets.add(escaped);
  }

  /** Masks registered secrets, bearer credentials and CPF/CNPJ in a finished line. */
  text(line: string): string {
    let out = line;
    for (const s of this.#secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    out = hideKnownSecrets(out, REDACTED);
    out = out.replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
    return maskDocuments(out);
  }

  /** Copies a value for logging, replacing credential fields and flattening errors. */
  value(v: unknown, depth = 0): unknown {
    if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? String(v) : v;
    if (v instanceof Error) return { name: v.name, message: v.message };
    if (depth >= MAX_DEPTH) return '[deep]';
    if (Array.isArray(v)) return v.slice(0, 50).map((x) => this.value(x, depth + 1));
    if (v instanceof Uint8Array) return `[${v.byteLength} bytes]`;
    const out: Record<string, unknown> = {};
    // Fields named for a credential are masked: the bridge's rule (`secret-fields.ts`).
    for (const [k, x] of Object.entries(v)) out[k] = carriesSecret(k, x) ? REDACTED : this.value(x, depth + 1);
    return out;
  }
}

/** A console left running for months keeps at most twice this of log. */
export const LOG_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A log file that starts afresh once it would pass `maxBytes`, the one before kept as `<file>.1`
 * (and the one before that dropped): the log is bounded however long the console runs.
 */
export class RotatingFile implements LogSink {
  #stream: WriteStream;
  #size: number;
  readonly #file: string;
  readonly #maxBytes: number;

  constructor(file: string, maxBytes = LOG_MAX_BYTES) {
    this.#file = file;
    this.#maxBytes = maxBytes;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    let size = 0;
    try {
      size = statSync(file).size;
    } catch {
      // No log yet.
    }
    this.#size = size;
    this.#stream = this.#open();
  }

  #open(): WriteStream {
    // Opened now, not when the stream gets to it: a rotation renames this very file.
    const fd = openSync(this.#file, 'a', 0o600);
    return createWriteStream(this.#file, { fd });
  }

  write(line: string): boolean {
    const bytes = Buffer.byteLength(line);
    if (this.#size > 0 && this.#size + bytes > this.#maxBytes) this.#rotate();
    this.#size += bytes;
    return this.#stream.write(line);
  }

  #rotate(): void {
    // Lines still queued on the old stream land in the renamed file (the same file on disk).
    const old = this.#stream;
    this.#size = 0;
    try {
      renameSync(this.#file, `${this.#file}.1`);
    } catch {
      return; // keep writing where it was rather than lose lines
    }
    old.end();
    this.#stream = this.#open();
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#stream.end(() => resolve()));
  }
}

export function createLogger(options: LoggerOptions = {}): RootLogger {
  const redactor = new Redactor();
  const threshold = LOG_LEVELS.indexOf(options.level ?? 'info');
  const now = options.now ?? (() => new Date(systemClock.now()));
  let sink: LogSink;
  let closeSink: () => Promise<void> = async () => {};
  if (options.file) {
    const file = new RotatingFile(options.file, options.maxFileBytes);
    sink = file;
    closeSink = () => file.close();
  } else {
    sink = options.stream ?? process.stderr;
  }

  const write = (level: LogLevel, bindings: LogFields, message: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const record = { t: now().toISOString(), level, msg: message, ...bindings, ...(fields ? (redactor.value(fields) as LogFields) : {}) };
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch {
      line = JSON.stringify({ t: record.t, level, msg: message, note: 'fields could not be serialised' });
    }
    try {
      sink.write(`${redactor.text(line)}\n`);
    } catch {
      // A broken log must never break the caller.
    }
  };

  const make = (bindings: LogFields): Logger => ({
    debug: (m, f) => write('debug', bindings, m, f),
    info: (m, f) => write('info', bindings, m, f),
    warn: (m, f) => write('warn', bindings, m, f),
    error: (m, f) => write('error', bindings, m, f),
    registerSecret: (s) => redactor.register(s),
  });

  const base = make(redactor.value(options.bindings ?? {}) as LogFields);
  return {
    ...base,
    registerSecret: (s: string) => redactor.register(s),
    child: (bindings: LogFields) =>
      make({ ...(redactor.value(options.bindings ?? {}) as LogFields), ...(redactor.value(bindings) as LogFields) }),
    close: () => closeSink(),
  };
}

/** A logger that drops everything (tests, and callers that pass none). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Internal errors already logged: one passing through several layers is written once. */
const loggedInternal = new WeakSet<object>();

/** The stack of an error and of each cause under it. */
function stackOf(e: unknown): string {
  const parts: string[] = [];
  let at: unknown = e;
  for (let depth = 0; at !== undefined && at !== null && depth < 5; depth++) {
    parts.push(at instanceof Error ? (at.stack ?? `${at.name}: ${at.message}`) : inspect(at, { depth: 2 }));
    at = at instanceof Error ? at.cause : undefined;
  }
  return parts.join('\nCaused by: ');
}

/**
 * Logs an internal error with its stack (and its causes'), once. Wherever the user is told that
 * "the details are in the log", this is what puts them there.
 */
export function logInternal(log: Pick<Logger, 'error'> | undefined, e: unknown, fields?: LogFields): void {
  if (typeof e === 'object' && e !== null) {
    const cause: unknown = (e as { cause?: unknown }).cause;
    if (loggedInternal.has(e) || (typeof cause === 'object' && cause !== null && loggedInternal.has(cause))) return;
    loggedInternal.add(e);
    if (typeof cause === 'object' && cause !== null) loggedInternal.add(cause);
  }
  log?.error('internal error', { ...fields, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e), stack: stackOf(e) });
}

/** The error value to show for anything thrown; an internal error is logged with its stack first. */
export function shownError(log: Pick<Logger, 'error'> | undefined, e: unknown, fields?: LogFields): ErrorInfo {
  const info = toErrorInfo(e);
  if (info.kind === 'Internal') logInternal(log, e, fields);
  return info;
}
