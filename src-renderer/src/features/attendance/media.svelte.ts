import { SvelteMap } from 'svelte/reactivity';
import { BridgeError, failure, type Worded } from '../../lib/bridge';
import { tt } from './strings';
import type { Scope } from '../../lib/scope.svelte';

/** A message's media as the page holds it: read by the main process, shown from a blob URL of ours. */
export type MediaState =
  { state: 'loading' } | { state: 'ready'; url: string; type: string; size: number } | { state: 'failed'; error: Worded };

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** Media kept at once; the least recently shown are let go first (their blobs freed). */
const KEPT = 60;

/**
 * Media of the messages shown, by address. The page never loads a foreign URL (its CSP allows
 * only our origin): it asks the main process for the bytes and shows them from a blob URL.
 */
export class MediaStore {
  readonly #scope: Scope;
  readonly #items = new SvelteMap<string, MediaState>();
  /** The image shown larger, over the thread (its address and name). */
  #viewing = $state<{ url: string; name: string } | null>(null);
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  get viewing() {
    return this.#viewing;
  }

  view(url: string, name: string): void {
    this.#viewing = { url, name };
  }

  closeView(): void {
    this.#viewing = null;
  }

  get(url: string): MediaState | undefined {
    return this.#items.get(url);
  }

  /** A file this window just sent: shown from the file itself, not read back. */
  seed(url: string, file: Blob): void {
    const had = this.#items.get(url);
    if (had?.state === 'ready') URL.revokeObjectURL(had.url);
    this.#items.set(url, { state: 'ready', url: URL.createObjectURL(file), type: file.type, size: file.size });
    this.#trim();
  }

  /** Reads the media once (again after a failure when `again`). */
  async load(url: string, again = false): Promise<void> {
    const had = this.#items.get(url);
    if (had && !(again && had.state === 'failed')) {
      if (had.state === 'ready') {
        // Most recently shown last: the first entries are the ones let go.
        this.#items.delete(url);
        this.#items.set(url, had);
      }
      return;
    }
    this.#items.set(url, { state: 'loading' });
    try {
      const got = await this.#scope.invoke('attendance:media', { url });
      const bytes = Uint8Array.from(atob(got.data), (c) => c.charCodeAt(0));
      const blob = URL.createObjectURL(new Blob([bytes], { type: got.contentType }));
      this.#items.set(url, { state: 'ready', url: blob, type: got.contentType, size: got.size });
      this.#trim();
    } catch (e) {
      // Refused before reading (another host, another scheme): said in the attendant's language.
      const refused = e instanceof BridgeError && e.info.kind === 'Invalid';
      this.#items.set(url, { state: 'failed', error: refused ? () => tt('m.notFromService', { host: hostOf(url) }) : failure(e) });
    }
  }

  #trim(): void {
    for (const [key, item] of this.#items) {
      if (this.#items.size <= KEPT) return;
      if (item.state === 'loading') continue;
      if (item.state === 'ready') URL.revokeObjectURL(item.url);
      this.#items.delete(key);
    }
  }

  dispose(): void {
    for (const item of this.#items.values()) if (item.state === 'ready') URL.revokeObjectURL(item.url);
    this.#items.clear();
  }
}
