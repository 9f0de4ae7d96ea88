import { createHash } from 'node:crypto';
import { errorText } from '../src-shared/error-text';

/**
 * An attendant's file message, fetched as a messaging provider does: the console saves a message
 * whose `message` is a URL and whose `contentType` a MIME type (interface §2.9; README of the
 * console: "Sending files"), and the provider reads the URL to deliver the file. The stand-in
 * reads it once, keeps its size and SHA-256 (what tests compare; the bytes themselves are let
 * go), and marks the message `errorConversation: true` when it cannot be read.
 */

/** What a provider takes for media (the console's limit too). */
export const FETCH_MAX_BYTES = 16 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 20_000;
/** Fetch records kept (the oldest go first). */
const KEPT = 500;

export interface MediaFetchRecord {
  messageId: number;
  sessionId: number | null;
  url: string;
  state: 'fetching' | 'stored' | 'failed';
  /** The type the message declares; the answer's own type once read. */
  contentType: string;
  receivedType: string | null;
  size: number | null;
  sha256: string | null;
  error: string | null;
}

type Rec = Record<string, unknown>;

/** A message that carries a file to fetch: a MIME type (not text) and an http(s) URL. */
export function fileToFetch(m: Rec): { url: URL; contentType: string } | null {
  const type = typeof m.contentType === 'string' ? m.contentType.trim().toLowerCase() : '';
  if (!/^(image|audio|video|application)\/[a-z0-9.+-]+$/.test(type)) return null;
  const raw = typeof m.message === 'string' ? m.message.trim() : '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return { url, contentType: type };
}

export class MediaFetcher {
  readonly #records = new Map<number, MediaFetchRecord>();
  readonly #running = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  readonly #failed: (messageId: number) => void;

  /** `failed`: marks the message as not delivered (errorConversation). */
  constructor(failed: (messageId: number) => void) {
    this.#failed = failed;
  }

  /** Starts reading the file of a just-saved message, when it carries one; `refuse`: read, then refused (a fault). */
  take(m: Rec, o: { refuse?: boolean } = {}): void {
    const file = fileToFetch(m);
    const messageId = typeof m.id === 'number' ? m.id : null;
    if (!file || messageId === null) return;
    const session = m.session as Rec | null | undefined;
    const record: MediaFetchRecord = {
      messageId,
      sessionId: typeof session?.id === 'number' ? session.id : null,
      url: file.url.href,
      state: 'fetching',
      contentType: file.contentType,
      receivedType: null,
      size: null,
      sha256: null,
      error: null,
    };
    this.#records.set(messageId, record);
    while (this.#records.size > KEPT) this.#records.delete(this.#records.keys().next().value as number);
    const run = this.#fetch(file.url, record, o.refuse === true).finally(() => this.#running.delete(run));
    this.#running.add(run);
  }

  async #fetch(url: URL, record: MediaFetchRecord, refuse: boolean): Promise<void> {
    try {
      const res = await fetch(url, {
        signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]),
        redirect: 'follow',
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`the URL answered HTTP ${res.status}`);
      }
      if (Number(res.headers.get('content-length') ?? '0') > FETCH_MAX_BYTES) {
        await res.body?.cancel();
        throw new Error(`the file is larger than ${FETCH_MAX_BYTES} bytes`);
      }
      const hash = createHash('sha256');
      let size = 0;
      if (res.body) {
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          size += chunk.byteLength;
          if (size > FETCH_MAX_BYTES) throw new Error(`the file is larger than ${FETCH_MAX_BYTES} bytes`);
          hash.update(chunk);
        }
      }
      if (size === 0) throw new Error('the file is empty');
      if (refuse) throw new Error('the provider refused the file (fault refusesMedia)');
      Object.assign(record, { state: 'stored', size, sha256: hash.digest('hex'), receivedType: res.headers.get('content-type') });
    } catch (e) {
      if (this.#abort.signal.aborted) return;
      const why = e instanceof Error && e.name === 'TimeoutError' ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : errorText(e);
      Object.assign(record, { state: 'failed', error: `Could not fetch ${url.href}: ${why}.` });
      this.#failed(record.messageId);
    }
  }

  /** Every fetch kept, oldest first (the stand-in's control path shows them). */
  list(): MediaFetchRecord[] {
    return [...this.#records.values()].map((r) => ({ ...r }));
  }

  async close(): Promise<void> {
    this.#abort.abort();
    await Promise.allSettled([...this.#running]);
  }
}
