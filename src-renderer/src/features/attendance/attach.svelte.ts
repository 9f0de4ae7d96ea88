import type { ChannelOutput } from '../../../../src-shared/bridge';
import { chatFileName, chatFileRefusal, type ChatFileKind } from '../../../../src-shared/chat-files';
import { sizeWords } from '../../../../src-shared/size-words';
import { failure, type Worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { MediaStore } from './media.svelte';
import { tt } from './strings';
import { ThreadStore } from './thread.svelte';

type Rules = ChannelOutput<'attendance:fileRules'>;

/** Where a file is on its way: its bytes to the console (`bytes`), then the service saving its message (`saving`). */
export interface AttachProgress {
  phase: 'bytes' | 'saving';
  sent: number;
  total: number;
}

const kindWords = (kinds: ChatFileKind[]): string => (kinds.length ? kinds.map((k) => tt(`f.k.${k}`)).join(', ') : tt('f.k.none'));

/** base64 of a piece of a file (the bridge carries JSON). */
async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let out = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(out);
}

let seq = 0;
const newClientId = () => `f${Date.now().toString(36)}-${(seq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * The file attached to the reply (README: "Sending files"): checked when attached against the
 * session's group and the size limit, and whether this console can lend it at all (a public
 * address); sent with the reply box's text as its caption, its progress shown. The bytes go to
 * the main process, never anywhere else from the page.
 */
export class AttachStore {
  readonly #scope: Scope;
  #file = $state.raw<File | null>(null);
  #sessionId = $state<number | null>(null);
  #error = $state.raw<Worded | null>(null);
  /** What the console must have to send a file here (a tunnel...), said before anything is tried. */
  #setup = $state<Rules['lend']>(null);
  #progress = $state<AttachProgress | null>(null);
  #uploadId: string | null = null;
  #clientId = newClientId();
  #rules = new Map<number, Rules>();

  constructor(scope: Scope) {
    this.#scope = scope;
  }

  get file(): File | null {
    return this.#file;
  }
  get error(): string | null {
    return this.#error?.() ?? null;
  }
  get setup(): Rules['lend'] {
    return this.#setup;
  }
  get progress(): AttachProgress | null {
    return this.#progress;
  }
  get busy(): boolean {
    return this.#progress !== null;
  }

  /** The file of another session is not carried over: switching sessions drops it. */
  follow(sessionId: number | null): void {
    if (sessionId === this.#sessionId) return;
    this.remove();
    this.#error = null;
    this.#setup = null;
    this.#sessionId = sessionId;
  }

  async #rulesOf(sessionId: number): Promise<Rules> {
    // The public address may come and go (a tunnel started): asked again each time.
    const rules = await this.#scope.invoke('attendance:fileRules', { sessionId });
    this.#rules.set(sessionId, rules);
    return rules;
  }

  /** Takes a file picked or dropped; a refused one is said and not kept. */
  async attach(file: File): Promise<boolean> {
    const sessionId = this.#sessionId;
    if (sessionId === null || this.busy) return false;
    this.#error = null;
    const name = chatFileName(file.name);
    let rules: Rules;
    try {
      rules = await this.#rulesOf(sessionId);
    } catch (e) {
      this.#error = failure(e);
      return false;
    }
    if (this.#sessionId !== sessionId) return false;
    this.#setup = rules.lend;
    if (rules.lend) return false;
    const refused = chatFileRefusal({ type: file.type, size: file.size }, rules.acceptedMedias);
    if (refused) {
      this.#error = () => {
        switch (refused.reason) {
          case 'type':
            return tt('f.type', { name });
          case 'notAccepted':
            return tt('f.notAccepted', {
              group: rules.group ?? '—',
              kind: tt(`f.k.${refused.kind}`),
              accepted: kindWords(refused.accepted),
            });
          case 'tooLarge':
            return tt('f.tooLarge', { name, size: sizeWords(file.size), max: sizeWords(refused.max) });
          case 'empty':
            return tt('f.empty', { name });
        }
      };
      return false;
    }
    this.remove();
    this.#file = file;
    this.#clientId = newClientId();
    return true;
  }

  /** Lets the attached file go (its bytes held by the main process too). */
  remove(): void {
    if (this.busy) return;
    const id = this.#uploadId;
    this.#uploadId = null;
    this.#file = null;
    if (id) void this.#scope.invoke('attendance:fileCancel', { uploadId: id }).catch(() => undefined);
  }

  /** Sends the attached file with its caption; true once the service saved its message. */
  async send(caption: string): Promise<boolean> {
    const file = this.#file;
    const sessionId = this.#sessionId;
    if (!file || sessionId === null || this.busy) return false;
    this.#error = null;
    this.#progress = { phase: 'bytes', sent: 0, total: file.size };
    try {
      const rules = this.#rules.get(sessionId) ?? (await this.#rulesOf(sessionId));
      if (!this.#uploadId) {
        const { uploadId } = await this.#scope.invoke('attendance:fileBegin', {
          sessionId,
          name: chatFileName(file.name),
          contentType: file.type,
          size: file.size,
        });
        for (let offset = 0; offset < file.size; offset += rules.chunkBytes) {
          const data = await base64Of(file.slice(offset, offset + rules.chunkBytes));
          const { received } = await this.#scope.invoke('attendance:fileChunk', { uploadId, offset, data });
          this.#progress = { phase: 'bytes', sent: received, total: file.size };
        }
        this.#uploadId = uploadId;
      }
      this.#progress = { phase: 'saving', sent: file.size, total: file.size };
      const saved = await this.#scope.invoke('attendance:fileSend', {
        uploadId: this.#uploadId,
        clientId: this.#clientId,
        ...(caption.trim() ? { caption: caption.trim() } : {}),
      });
      // The thread shows it at once from the file itself (the main process keeps its own copy too).
      if (saved.media) this.#scope.use(MediaStore).seed(saved.media.url, file);
      this.#scope.use(ThreadStore).showSent(saved);
      this.#uploadId = null;
      this.#file = null;
      return true;
    } catch (e) {
      // Kept attached, its bytes held by the main process: sending again uses the same upload and
      // client id, so a save whose answer was lost is looked for before it is made again.
      this.#error = (() => {
        const why = failure(e);
        return () => tt('f.failed', { name: chatFileName(file.name), error: why() });
      })();
      return false;
    } finally {
      this.#progress = null;
    }
  }
}
