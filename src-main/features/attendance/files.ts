import { randomBytes } from 'node:crypto';
import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import {
  CHAT_FILE_CHUNK_BYTES,
  CHAT_FILE_MAX_BYTES,
  chatFileName,
  chatFileRefusal,
  type ChatFileRefusal,
} from '../../../src-shared/chat-files';
import { sessionGroupOf } from '../../../src-shared/concepts';
import { AppError, isAppError } from '../../../src-shared/errors';
import { errorText } from '../../../src-shared/error-text';
import { eqNum } from '../../../src-shared/query-builder';
import { sizeWords } from '../../../src-shared/size-words';
import type { HandlerTable } from '../../bridge/table';
import { lendError, type LendProblem } from '../live';
import type { LendOptions, LentFile } from '../../webhooks';
import type { FeatureContext } from '../context';
import type { OfflineFeature } from '../offline';
import type { DirectoryCache } from './directory';
import type { QueueFeature } from './queue';
import { toThreadMessage } from './project';
import { readSession } from './reads';
import type { Replies } from './reply';
import type { Threads } from './thread';

/** Lends a file at the console's public address (the live feature's listener, through the tunnel). */
export interface FileLender {
  share(name: string, bytes: Buffer, o: LendOptions): LentFile;
  problem(): LendProblem | null;
}

/**
 * A chat file stays lent until the service has read it once, or for five minutes: long enough
 * for a provider to fetch it after the save, short enough that a URL seen in a log soon leads
 * nowhere.
 */
export const CHAT_LEND_MS = 5 * 60_000;
/** Files on their way from the page at once (each up to the limit); the oldest is let go first. */
const PENDING_MAX = 4;
/** A file begun and not sent within this long is let go (the page was closed mid-way). */
const PENDING_MS = 10 * 60_000;
/** Copies of sent files kept to show them again in the thread once the loan is over (bytes in all). */
const SENT_KEPT_BYTES = 64 * 1024 * 1024;

interface Pending {
  sessionId: number;
  name: string;
  type: string;
  size: number;
  parts: Buffer[];
  received: number;
  startedAt: number;
  /** Lent for a send whose outcome is unknown: a retry saves the same URL, so the save can be found again. */
  lent?: LentFile | undefined;
}

const KINDS = { image: 'images', audio: 'audio', document: 'PDF documents' } as const;

/** A refusal in words (the page says it in the attendant's language; this is for the log and other callers). */
function refusalMessage(name: string, r: ChatFileRefusal, group: string | null): string {
  switch (r.reason) {
    case 'type':
      return `${name} cannot be sent: the console sends images, PDF documents and audio.`;
    case 'notAccepted':
      return `${group ?? 'This group'} does not take ${KINDS[r.kind]}; it takes ${r.accepted.map((k) => KINDS[k]).join(', ') || 'text only'}.`;
    case 'tooLarge':
      return `${name} is larger than ${sizeWords(r.max)}.`;
    case 'empty':
      return `${name} is empty.`;
  }
}

export interface ChatFilesDeps {
  lender: FileLender;
  replies: Replies;
  queue: QueueFeature;
  directory: DirectoryCache;
  offline: OfflineFeature;
  threads: Threads;
}

/** After the service has read a file, how long before its message is read again (a provider marks a failed delivery soon after). */
const READ_BACK_MS = 3_000;

/**
 * Files the attendant sends (README: "Sending files"). The page hands the bytes over in pieces
 * (its progress), the main process keeps them, lends them at the public address under a random
 * path and saves the message with that URL and the file's type. The path never reaches the page
 * before the save (the message carries it afterwards, as the service holds it); the bytes stay
 * here, and a copy of what was sent shows the file in the thread once the loan has ended.
 */
export class ChatFiles {
  readonly #ctx: FeatureContext;
  readonly #d: ChatFilesDeps;
  readonly #pending = new Map<string, Pending>();
  readonly #sent = new Map<string, { type: string; bytes: Buffer }>();
  #sentBytes = 0;

  constructor(ctx: FeatureContext, d: ChatFilesDeps) {
    this.#ctx = ctx;
    this.#d = d;
  }

  /** The session's group: its name and `acceptedMedias` (read whole when the copy held lacks it). */
  async groupOf(sessionId: number): Promise<{ name: string | null; acceptedMedias: string | null }> {
    const { queue, directory } = this.#d;
    const groupId = queue.item(sessionId)?.groupId ?? sessionGroupOf(await readSession(this.#ctx.client(), sessionId))?.id ?? null;
    if (groupId === null) return { name: null, acceptedMedias: null };
    let g = await directory.group(groupId);
    if (g && g.acceptedMedias === undefined) g = await directory.group(groupId, { complete: true });
    return { name: g?.name ?? null, acceptedMedias: g?.acceptedMedias ?? null };
  }

  async rules(sessionId: number) {
    const group = await this.groupOf(sessionId);
    return {
      maxBytes: CHAT_FILE_MAX_BYTES,
      chunkBytes: CHAT_FILE_CHUNK_BYTES,
      group: group.name,
      acceptedMedias: group.acceptedMedias,
      lend: this.#d.lender.problem(),
    };
  }

  async begin(sessionId: number, rawName: string, contentType: string, size: number): Promise<string> {
    const name = chatFileName(rawName);
    const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
    const group = await this.groupOf(sessionId);
    const refused = chatFileRefusal({ type, size }, group.acceptedMedias);
    if (refused) throw new AppError({ kind: 'Invalid', field: 'file', message: refusalMessage(name, refused, group.name) });
    // Said now, before the bytes travel: the same check the loan makes when it is sent.
    const problem = this.#d.lender.problem();
    if (problem) throw lendError(problem);
    this.#sweep();
    while (this.#pending.size >= PENDING_MAX) this.#pending.delete(this.#pending.keys().next().value as string);
    const uploadId = randomBytes(18).toString('base64url');
    this.#pending.set(uploadId, { sessionId, name, type, size, parts: [], received: 0, startedAt: this.#ctx.clock.now() });
    return uploadId;
  }

  chunk(uploadId: string, offset: number, data: string): number {
    const p = this.#take(uploadId);
    if (offset !== p.received)
      throw new AppError({
        kind: 'Invalid',
        field: 'file',
        message: `The file's pieces came out of order (at ${offset}, expected ${p.received}).`,
      });
    const bytes = Buffer.from(data, 'base64');
    if (p.received + bytes.length > p.size) {
      this.#pending.delete(uploadId);
      throw new AppError({ kind: 'Invalid', field: 'file', message: `${p.name} is larger than it said (${p.size} bytes).` });
    }
    p.parts.push(bytes);
    p.received += bytes.length;
    return p.received;
  }

  async send(uploadId: string, caption: string | undefined, clientId: string): Promise<ThreadMessage> {
    const p = this.#take(uploadId);
    if (p.received !== p.size)
      throw new AppError({ kind: 'Invalid', field: 'file', message: `${p.name} arrived incomplete (${p.received} of ${p.size} bytes).` });
    const bytes = Buffer.concat(p.parts);
    let saved: ThreadMessage | null = null;
    const lent =
      p.lent ??
      this.#d.lender.share(p.name, bytes, {
        type: p.type,
        maxDownloads: 1,
        ttlMs: CHAT_LEND_MS,
        // Read or not, the loan's end is when the service's verdict on the file can be known.
        onEnd: (how) => {
          const timer = setTimeout(() => void (saved && this.#readBack(saved)), how === 'read' ? READ_BACK_MS : 0);
          timer.unref();
        },
      });
    p.lent = undefined;
    try {
      const msg = await this.#d.offline.monitor.watch(this.#d.replies.send(p.sessionId, lent.url, clientId, p.type, caption || undefined));
      this.#pending.delete(uploadId);
      this.#keep(lent.url, p.type, bytes);
      saved = msg;
      return msg;
    } catch (e) {
      // Not saved: nobody is to read it, and a retry lends it again under a new path. Not known:
      // it stays lent, and a retry saves the same URL (found in the thread if it was saved).
      if (isAppError(e) && e.kind === 'OutcomeUnknown') p.lent = lent;
      else lent.withdraw();
      throw e;
    }
  }

  /**
   * The sent file's message read again once its loan ended: a service that could not fetch it
   * marks it (`errorConversation`), and the open thread shows that. Messages carry no update
   * time, so a forward read would never see it.
   */
  async #readBack(sent: ThreadMessage): Promise<void> {
    const { threads, offline } = this.#d;
    try {
      const got = await this.#ctx
        .client()
        .resource('message')
        .list({ conditions: [eqNum('id', sent.id)], sort: false, page: 0, size: 1 });
      const raw = got.results[0];
      const m = raw ? toThreadMessage(raw, sent.sessionId, threads.parties.get(sent.sessionId)) : null;
      if (!m || m.failed === sent.failed) return;
      // Ours, whatever shape the server gives its sender (as when it was sent).
      const msg: ThreadMessage = {
        ...m,
        author: 'agent',
        fromCustomer: false,
        senderUserName: sent.senderUserName ?? m.senderUserName ?? null,
      };
      offline.cache.addMessages(sent.sessionId, [msg], new Date(this.#ctx.clock.now()).toISOString());
      if (threads.open.has(sent.sessionId)) this.#ctx.events.emit('attendance:messages', { sessionId: sent.sessionId, messages: [msg] });
    } catch (e) {
      this.#ctx.log.warn('A sent file could not be read back.', { error: errorText(e) });
    }
  }

  cancel(uploadId: string): void {
    this.#pending.delete(uploadId);
  }

  /** A file this console sent, by the URL its message carries (shown once the loan is over). */
  sentCopy(url: string): { type: string; bytes: Buffer } | null {
    return this.#sent.get(url) ?? null;
  }

  #keep(url: string, type: string, bytes: Buffer): void {
    this.#sent.set(url, { type, bytes });
    this.#sentBytes += bytes.length;
    for (const [k, v] of this.#sent) {
      if (this.#sentBytes <= SENT_KEPT_BYTES) break;
      this.#sent.delete(k);
      this.#sentBytes -= v.bytes.length;
    }
  }

  #take(uploadId: string): Pending {
    this.#sweep();
    const p = this.#pending.get(uploadId);
    if (!p) throw new AppError({ kind: 'Invalid', field: 'file', message: 'This file is no longer held by the console: attach it again.' });
    return p;
  }

  #sweep(): void {
    const now = this.#ctx.clock.now();
    for (const [id, p] of this.#pending) if (now - p.startedAt > PENDING_MS) this.#pending.delete(id);
  }
}

type FileChannel =
  'attendance:fileRules' | 'attendance:fileBegin' | 'attendance:fileChunk' | 'attendance:fileSend' | 'attendance:fileCancel';

export function fileHandlers(files: ChatFiles): Pick<HandlerTable, FileChannel> {
  return {
    'attendance:fileRules': ({ sessionId }) => files.rules(sessionId),
    'attendance:fileBegin': async ({ sessionId, name, contentType, size }) => ({
      uploadId: await files.begin(sessionId, name, contentType, size),
    }),
    'attendance:fileChunk': async ({ uploadId, offset, data }) => ({ received: files.chunk(uploadId, offset, data) }),
    'attendance:fileSend': ({ uploadId, caption, clientId }) => files.send(uploadId, caption, clientId),
    'attendance:fileCancel': async ({ uploadId }) => {
      files.cancel(uploadId);
      return { ok: true };
    },
  };
}
