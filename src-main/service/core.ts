import { randomBytes } from 'node:crypto';
import type { Pool } from 'undici';
import type { z } from 'zod';
import { backoffDelay, isRetryable, retryAfterDelay } from '../../src-shared/error-kinds';
import { AppError, internalError, isAppError } from '../../src-shared/errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src-shared/json-depth';
import { logInternal, type Logger } from '../log';
import {
  badResponse,
  errorEnvelope,
  errorFromFailure,
  errorFromStatus,
  invalidFromEnvelope,
  type OpContext,
  unreadable,
  waitWords,
} from './errors';
import { type AnswerMemory, processAnswerMemory } from './answer-memory';
import { ServiceTime } from './service-time';
import { AbortReason, exchange, type RawResponse, type ReadLimits, TransportFailure } from './transport';
import { errorText } from '../../src-shared/error-text';
import { systemClock } from '../clock';

/**
 * The one place that talks HTTP: token header, per-host concurrency limit, timeout, retries
 * with backoff, answer checking and logging. Every operation of the client goes through `call`.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is handed back as RateLimited instead of waited out. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 150, maxDelayMs: 4_000, maxRetryAfterMs: 30_000 };

/**
 * How much of an answer the client reads, per kind of answer (bytes), and how deep its JSON may
 * nest. Past a limit reading stops, the connection is dropped and the call fails naming the limit:
 * whatever the service sends, the console holds no more than this of it.
 */
export interface AnswerLimits {
  /** A page of a list, or an answer that is mostly a list. */
  list: number;
  /** One record, or another small answer. */
  record: number;
  /** Binary answers (synthesised speech). */
  binary: number;
  /** A message's media (image, audio, video, file), handed to the page whole. */
  media: number;
  /** The part of an error answer read (what it says comes first; the rest is not needed). */
  errorPage: number;
  jsonDepth: number;
}

const MiB = 1024 * 1024;
export const DEFAULT_ANSWER_LIMITS: AnswerLimits = {
  list: 16 * MiB,
  record: 4 * MiB,
  binary: 32 * MiB,
  media: 16 * MiB,
  errorPage: 64 * 1024,
  jsonDepth: MAX_JSON_DEPTH,
};

export interface CoreOptions {
  baseUrl: string;
  /** From the vault; only the client adds the Authorization header. */
  getToken(): Promise<string | null>;
  /** The service refused the token (401): the vault marks it refused. */
  onUnauthorized?(): void;
  log?: Logger;
  /** Per attempt; default 15,000. */
  timeoutMs?: number;
  /** Requests in flight per host; default 6. */
  maxConcurrent?: number;
  retry?: Partial<RetryPolicy>;
  /** Per kind of answer; defaults in DEFAULT_ANSWER_LIMITS. */
  limits?: Partial<AnswerLimits>;
  /** What the answers being read may hold between them; defaults to the process's. */
  answerMemory?: AnswerMemory;
  /** How the service writes date-times (its zone); default: learned by this client alone. */
  serviceTime?: ServiceTime;
  /** The time, for the service's Retry-After (a test's manual clock); systemClock.now by default. */
  now?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Per attempt; defaults to the client's. */
  timeoutMs?: number;
  /** Attempts at most for a call that may be repeated (the first included); defaults to the client's. */
  attempts?: number;
}

export interface WriteOptions extends CallOptions {
  /** Repeating this write cannot do harm (e.g. an upsert carrying its id): retry it like a read. */
  safeToRetry?: boolean;
}

export interface Multipart {
  fields: Record<string, string>;
  files: Array<{ name: string; filename: string; contentType: string; data: Uint8Array }>;
}

/** A JSON answer is read within the `list` or the `record` limit (the default); bytes within `binary`; a file within `media`. */
export type Answer<T> =
  | { kind: 'json'; schema: z.ZodType<T>; size?: 'list' | 'record' }
  | { kind: 'bytes'; check(body: Buffer): string | null }
  | { kind: 'file' };

/** A file read whole (the `file` answer): its bytes and the type the server gave them. */
export interface FileAnswer {
  bytes: Uint8Array;
  contentType: string | null;
}

export interface CallSpec<T> extends OpContext {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path from the service root, e.g. `/chatapi/1.0/api/v2/agent`. */
  path: string;
  json?: unknown;
  multipart?: Multipart;
  answer: Answer<T>;
  safeToRetry?: boolean;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  attempts?: number | undefined;
}

/** Waiting room in front of the pool: at most `limit` exchanges in flight per host. */
class Gate {
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  readonly #limit: number;
  constructor(limit: number) {
    this.#limit = limit;
  }

  acquire(signal: AbortSignal): Promise<void> {
    if (this.#active < this.#limit) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        this.#active++;
        resolve();
      };
      const onAbort = () => {
        const i = this.#waiting.indexOf(grant);
        if (i >= 0) this.#waiting.splice(i, 1);
        const r: unknown = signal.reason;
        reject(new TransportFailure(r instanceof AbortReason ? r.reason : 'cancelled', false, 'aborted while queued'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }

  release(): void {
    this.#active--;
    const next = this.#waiting.shift();
    if (next) next();
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new TransportFailure('cancelled', false, 'cancelled while waiting to retry'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new TransportFailure('cancelled', false, 'cancelled while waiting to retry'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function multipartBody(m: Multipart): { body: Buffer; contentType: string } {
  const boundary = `----console${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  const quote = (s: string) => s.replace(/["\r\n\\]/g, '_');
  for (const [name, value] of Object.entries(m.fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`, 'utf8'));
  }
  for (const f of m.files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(f.name)}"; filename="${quote(f.filename)}"\r\nContent-Type: ${f.contentType}\r\n\r\n`,
        'utf8',
      ),
      Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The request body: JSON nested past the answer limit is refused here, before anything is sent
 * (the service's answer would echo it, and the console could not read that back).
 */
function jsonBody(spec: OpContext, value: unknown, depth: number): Buffer {
  const tooDeep = () =>
    new AppError({
      kind: 'Invalid',
      message: `The data to ${spec.action} is nested more than ${depth} levels deep; the console does not send it.`,
      operation: spec.operation,
    });
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    // Nesting deep enough to exhaust the stack; anything else (a cycle, a BigInt) is ours.
    if (e instanceof RangeError) throw tooDeep();
    throw e;
  }
  if (nestsDeeperThan(text, depth)) throw tooDeep();
  return Buffer.from(text, 'utf8');
}

export class Core {
  /**
   * The connections to the service, opened at the first call: the HTTP client loads with it,
   * not with the console (whose first view may call nothing at the service).
   */
  #pool: Promise<Pool> | null = null;
  readonly #origin: string;
  readonly #connections: number;
  readonly #prefix: string;
  readonly #gate: Gate;
  readonly #retry: RetryPolicy;
  readonly #limits: AnswerLimits;
  readonly #timeoutMs: number;
  #closed = false;
  /**
   * Calls in flight, ended by `close`. A set rather than a listener per call on one shared
   * signal: a busy console has more than ten calls at once, and Node warns of a leak there.
   */
  readonly #inFlight = new Set<AbortController>();

  readonly #o: CoreOptions;
  /** The service's date-times: answers are read in its zone, and what is sent is written its way. */
  readonly time: ServiceTime;
  constructor(o: CoreOptions) {
    this.#o = o;
    this.time = o.serviceTime ?? new ServiceTime({ log: o.log });
    let url: URL;
    try {
      url = new URL(o.baseUrl);
    } catch {
      throw new AppError({ kind: 'Invalid', message: `"${o.baseUrl}" is not a service address. Use a full URL such as https://host.` });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new AppError({ kind: 'Invalid', message: 'The service address must start with http:// or https://.' });
    }
    const limit = Math.max(1, o.maxConcurrent ?? 6);
    this.#timeoutMs = o.timeoutMs ?? 15_000;
    this.#prefix = url.pathname.replace(/\/+$/, '');
    this.#gate = new Gate(limit);
    this.#retry = { ...DEFAULT_RETRY, ...o.retry };
    this.#limits = { ...DEFAULT_ANSWER_LIMITS, ...o.limits };
    this.#origin = url.origin;
    this.#connections = limit;
  }

  #dispatcher(): Promise<Pool> {
    // Our own timer bounds every attempt, so undici's own timeouts are switched off.
    this.#pool ??= import('undici').then(
      ({ Pool }) => new Pool(this.#origin, { connections: this.#connections, keepAliveTimeout: 10_000, headersTimeout: 0, bodyTimeout: 0 }),
    );
    return this.#pool;
  }

  /** The client's logger, for what its operations notice beyond one call (skipped records). */
  get log(): Logger | undefined {
    return this.#o.log;
  }

  /** Ends calls in flight (a sent write comes back OutcomeUnknown) and the keep-alive sockets. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const c of this.#inFlight) c.abort(new AbortReason('cancelled'));
    this.#inFlight.clear();
    await (await this.#pool?.catch(() => null))?.close();
  }

  async call<T>(spec: CallSpec<T>): Promise<T> {
    const retryable = !spec.write || spec.safeToRetry === true;
    const attempts = retryable ? Math.max(1, spec.attempts ?? this.#retry.attempts) : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#once(spec, attempt);
      } catch (e) {
        let err: AppError;
        if (isAppError(e)) err = e;
        else {
          err = new AppError(internalError(spec.operation), { cause: e });
          logInternal(this.#o.log, err, { op: spec.operation });
        }
        if (attempt >= attempts || !isRetryable(err)) throw err;
        // A read that timed out is tried once more, not `attempts` times: each try costs the whole timeout.
        if (err.kind === 'Timeout' && attempt >= 2) throw err;
        let delay = backoffDelay(attempt, { baseMs: this.#retry.baseDelayMs, maxMs: this.#retry.maxDelayMs });
        if (err.info.retryAfterMs !== undefined) {
          // Told how long to stay away: this call waits that long or hands the error back.
          if (err.info.retryAfterMs > this.#retry.maxRetryAfterMs) throw err;
          delay = retryAfterDelay(err.info.retryAfterMs);
        }
        if (this.#closed) throw err;
        try {
          await sleep(delay, spec.signal);
        } catch {
          throw new AppError({ kind: 'Cancelled', message: 'The operation was cancelled.', operation: spec.operation });
        }
      }
    }
  }

  /**
   * Until when the service asked us to send nothing (Retry-After on a 429 or 5xx, capped by the
   * one rule): every call of this client waits or is handed back until then, none is sent.
   */
  #quietUntil = 0;
  readonly #now = (): number => (this.#o.now ?? systemClock.now)();

  async #once<T>(spec: CallSpec<T>, attempt: number): Promise<T> {
    if (this.#closed)
      throw new AppError({ kind: 'Cancelled', message: 'The connection to the service was closed.', operation: spec.operation });
    if (spec.signal?.aborted) throw new AppError({ kind: 'Cancelled', message: 'The operation was cancelled.', operation: spec.operation });
    const quietUntil = this.#quietUntil;
    const quietFor = quietUntil - this.#now();
    if (quietFor > 0)
      // Not sent: the service asked for quiet. The same kind as its own 429, with what is left.
      throw new AppError({
        kind: 'RateLimited',
        status: 429,
        message: `The service asked us to wait until ${new Date(quietUntil).toISOString()}; nothing was sent. Try again in ${waitWords(quietFor)}.`,
        operation: spec.operation,
        retryAfterMs: quietFor,
      });
    try {
      return await this.#send(spec, attempt);
    } catch (e) {
      const asked = isAppError(e) && e.info.status !== undefined ? e.info.retryAfterMs : undefined;
      if (asked !== undefined) this.#quietUntil = Math.max(this.#quietUntil, this.#now() + asked);
      throw e;
    }
  }

  async #send<T>(spec: CallSpec<T>, attempt: number): Promise<T> {
    const { headers, body } = await this.#request(spec);
    const controller = new AbortController();
    const timeoutMs = spec.timeoutMs ?? this.#timeoutMs;
    const timer = setTimeout(() => controller.abort(new AbortReason('timeout')), timeoutMs);
    const onCallerAbort = () => controller.abort(new AbortReason('cancelled'));
    spec.signal?.addEventListener('abort', onCallerAbort, { once: true });
    this.#inFlight.add(controller);

    const started = performance.now();
    const path = this.#prefix + spec.path;
    const limits: ReadLimits = {
      maxBytes:
        spec.answer.kind === 'bytes'
          ? this.#limits.binary
          : spec.answer.kind === 'file'
            ? this.#limits.media
            : this.#limits[spec.answer.size ?? 'record'],
      maxOtherBytes: this.#limits.errorPage,
      memory: this.#o.answerMemory ?? processAnswerMemory,
      ...(spec.answer.kind === 'json' ? { jsonDepth: this.#limits.jsonDepth } : {}),
    };
    let res: RawResponse;
    try {
      await this.#gate.acquire(controller.signal);
      try {
        res = await exchange(
          await this.#dispatcher(),
          { method: spec.method, path, headers, ...(body ? { body } : {}) },
          controller.signal,
          limits,
        );
      } finally {
        this.#gate.release();
      }
    } catch (e) {
      const err =
        e instanceof TransportFailure
          ? errorFromFailure(spec, e)
          : new AppError(
              { kind: 'Unavailable', message: `The service could not be reached to ${spec.action}.`, operation: spec.operation },
              { cause: e },
            );
      this.#o.log?.warn('service call failed', {
        op: spec.operation,
        method: spec.method,
        path,
        attempt,
        kind: err.kind,
        ms: Math.round(performance.now() - started),
        detail: errorText(e),
      });
      throw err;
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onCallerAbort);
      this.#inFlight.delete(controller);
    }

    return this.#answer(spec, res, limits, { path, ms: Math.round(performance.now() - started), attempt });
  }

  /** The request's headers (with the token) and body. */
  async #request(spec: CallSpec<unknown>): Promise<{ headers: Record<string, string>; body: Buffer | undefined }> {
    const token = await this.#o.getToken();
    if (!token)
      throw new AppError({
        kind: 'Unauthorized',
        message: 'No token is stored for this workspace. Sign in first.',
        operation: spec.operation,
      });
    this.#o.log?.registerSecret?.(token);

    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json, */*' };
    let body: Buffer | undefined;
    if (spec.multipart) {
      const m = multipartBody(spec.multipart);
      body = m.body;
      headers['content-type'] = m.contentType;
    } else if (spec.json !== undefined) {
      body = jsonBody(spec, this.time.body(spec.json), this.#limits.jsonDepth);
      headers['content-type'] = 'application/json';
    }
    return { headers, body };
  }

  /** The answer read by the call's spec, logged; a refusal logged and thrown. */
  #answer<T>(spec: CallSpec<T>, res: RawResponse, limits: ReadLimits, at: { path: string; ms: number; attempt: number }): T {
    const { path, ms, attempt } = at;
    try {
      const value = this.#read(spec, res, limits);
      // Writes at info (rare, and worth an audit line); reads at debug (the queue polls).
      const fields = { op: spec.operation, method: spec.method, path, status: res.status, ms, attempt };
      if (spec.write) this.#o.log?.info('service call', fields);
      else this.#o.log?.debug('service call', fields);
      return value;
    } catch (err) {
      const kind = isAppError(err) ? err.kind : 'Internal';
      const field = isAppError(err) ? err.info.field : undefined;
      this.#o.log?.warn('service call refused', {
        op: spec.operation,
        method: spec.method,
        path,
        status: res.status,
        ms,
        attempt,
        kind,
        ...(field ? { field } : {}),
      });
      if (isAppError(err) && err.kind === 'Unauthorized') this.#o.onUnauthorized?.();
      throw err;
    }
  }

  #read<T>(spec: CallSpec<T>, res: RawResponse, limits: ReadLimits): T {
    if (res.status < 200 || res.status >= 300) throw errorFromStatus(spec, res, this.#o.baseUrl.replace(/\/+$/, '') + spec.path);
    if (res.cut === 'too-large') throw unreadable(spec, res.status, { reason: 'tooLarge', limit: limits.maxBytes });
    if (res.cut === 'too-deep') throw unreadable(spec, res.status, { reason: 'tooDeep', limit: limits.jsonDepth ?? 0 });
    if (spec.answer.kind === 'bytes') {
      const problem = spec.answer.check(res.body);
      if (problem) throw unreadable(spec, res.status, { reason: 'malformed', what: problem });
      // A copy: the chunk may share its memory with other socket reads.
      return new Uint8Array(res.body) as T;
    }
    if (spec.answer.kind === 'file') {
      const file: FileAnswer = { bytes: new Uint8Array(res.body), contentType: res.headers.contentType ?? null };
      return file as T;
    }
    let data: unknown;
    try {
      data = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw unreadable(spec, res.status, {
        reason: 'malformed',
        what: res.body.length ? 'a body that is not valid JSON' : 'an empty body',
      });
    }
    const env = errorEnvelope(data);
    if (env) throw invalidFromEnvelope(spec, env, res.status);
    // A write's answer holds the service's own time of that write: its zone, against `Date`.
    if (spec.write) this.time.learnFromWrite(data, res.headers.date);
    const schema = spec.answer.schema;
    const parsed = this.time.read(() => schema.safeParse(data));
    if (!parsed.success) throw badResponse(spec, parsed.error);
    return parsed.data;
  }
}
