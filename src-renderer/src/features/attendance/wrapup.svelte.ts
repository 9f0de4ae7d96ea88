import type { ClassNode, QueueItem } from '../../../../src-shared/bridge/attendance';
import { failure, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';

export interface FlatNode {
  node: ClassNode;
  depth: number;
  /** Ids from the root to this node. */
  path: number[];
  labels: string[];
}

function flatten(nodes: ClassNode[], depth = 0, path: number[] = [], labels: string[] = [], out: FlatNode[] = []): FlatNode[] {
  for (const n of nodes) {
    const p = [...path, n.id];
    const l = [...labels, n.label];
    out.push({ node: n, depth, path: p, labels: l });
    flatten(n.children, depth + 1, p, l, out);
  }
  return out;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * Classification and close: the group's tree (searchable, keyboard-navigable), mandatory when
 * the group says so, the AI summary offered as a note, and the close itself.
 */
export class WrapUpStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #sessionId = $state<number | null>(null);
  #open = $state(false);
  #loading = $state(false);
  #mandatory = $state(false);
  #roots = $state.raw<ClassNode[]>([]);
  search = $state('');
  /** Path of the chosen node. */
  #chosen = $state<number[] | null>(null);
  /** Index in `shown` that the keyboard is on. */
  cursor = $state(0);
  comment = $state('');
  summary = $state('');
  keepSummary = $state(false);
  #summaryBusy = $state(false);
  #busy = $state(false);
  #error = $state.raw<Worded | null>(null);

  get sessionId() {
    return this.#sessionId;
  }
  get open() {
    return this.#open;
  }
  get loading() {
    return this.#loading;
  }
  get mandatory() {
    return this.#mandatory;
  }
  get roots() {
    return this.#roots;
  }
  get chosen() {
    return this.#chosen;
  }
  get summaryBusy() {
    return this.#summaryBusy;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    return worded(this.#error);
  }

  #all = $derived(flatten(this.#roots));

  /** Leaves and branches matching the search (all of them when empty). */
  shown = $derived.by(() => {
    const q = fold(this.search.trim());
    if (!q) return this.#all;
    return this.#all.filter((f) => f.labels.some((l) => fold(l).includes(q)));
  });

  get chosenLabels(): string[] {
    const c = this.#chosen;
    if (!c) return [];
    return this.#all.find((f) => f.path.length === c.length && f.path.every((id, i) => id === c[i]))?.labels ?? [];
  }

  get canClose(): boolean {
    return !this.#busy && (!this.#mandatory || this.#chosen !== null);
  }

  async start(sessionId: number): Promise<void> {
    this.#sessionId = sessionId;
    this.#open = true;
    this.#loading = true;
    this.#error = null;
    this.search = '';
    this.#chosen = null;
    this.cursor = 0;
    this.comment = '';
    this.summary = '';
    this.keepSummary = false;
    try {
      const got = await this.#scope.invoke('attendance:classificationTree', { sessionId });
      this.#mandatory = got.mandatory;
      this.#roots = got.roots;
    } catch (e) {
      this.#error = failure(e);
    } finally {
      this.#loading = false;
    }
  }

  move(delta: number): void {
    const n = this.shown.length;
    if (!n) return;
    this.cursor = Math.max(0, Math.min(n - 1, this.cursor + delta));
  }

  choose(index = this.cursor): void {
    const f = this.shown[index];
    if (f) {
      this.#chosen = f.path;
      this.cursor = index;
    }
  }

  async summarise(): Promise<void> {
    if (this.#sessionId === null) return;
    this.#summaryBusy = true;
    try {
      // Saved as a note only when the attendant ticks it.
      this.summary = (await this.#scope.invoke('attendance:summary', { sessionId: this.#sessionId })).text;
    } catch (e) {
      this.#error = failure(e);
    } finally {
      this.#summaryBusy = false;
    }
  }

  async close(): Promise<QueueItem | null> {
    if (this.#sessionId === null || !this.canClose) return null;
    this.#busy = true;
    this.#error = null;
    try {
      const item = await this.#scope.invoke('attendance:close', {
        sessionId: this.#sessionId,
        ...(this.#chosen ? { classification: this.#chosen } : {}),
        ...(this.comment.trim() ? { comment: this.comment.trim() } : {}),
        ...(this.keepSummary && this.summary.trim() ? { summaryNote: this.summary.trim() } : {}),
      });
      this.#open = false;
      return item;
    } catch (e) {
      this.#error = failure(e);
      return null;
    } finally {
      this.#busy = false;
    }
  }

  cancel(): void {
    this.#open = false;
  }

  /** The sessions view leaves: the close dialog goes. */
  suspend(): void {
    this.#open = false;
    this.#sessionId = null;
    this.#roots = [];
    this.#chosen = null;
  }
}
