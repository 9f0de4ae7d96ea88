import type { QueueItem } from '../../../src-shared/bridge/attendance';
import type { QueueDelta } from '../../../src-shared/bridge/attendance';
import { bucketOf, type QueueBucket } from '../../../src-shared/queue';
import { statusKind } from '../../../src-shared/concepts';
import { msOf } from '../../../src-shared/concepts';
import { waitDue, waitStartOf } from '../../../src-shared/waiting';
import { NONE_UNREADABLE, type Unreadable } from '../../../src-shared/unreadable';
import { failure, type Worded, worded } from './bridge';
import type { Scope } from './scope.svelte';
import { QueueFacets } from './queue-facets';
import { activityMs, byWake, createdAtMs, haystack } from './queue-order';

/**
 * The queue's tabs. Sessions of mine waiting for the customer have no tab of their own: they stay
 * in Mine, marked as such, so a reply never moves the session out of view. Sessions of mine the
 * attendant snoozed leave Mine for Snoozed until they wake.
 */
export const VISIBLE_BUCKETS = ['waiting', 'mine', 'others', 'snoozed'] as const;
export type VisibleBucket = (typeof VISIBLE_BUCKETS)[number];
/** How "Mine" is ordered: latest customer message first, longest waiting first, nearest SLA first. */
export const MINE_SORTS = ['activity', 'waiting', 'sla'] as const;
export type MineSort = (typeof MINE_SORTS)[number];

/**
 * The tab a bucket shows in: a session of mine waiting for the customer is in Mine (a reply
 * never moves it out of view); one with a bot among the others, marked as such.
 */
export const tabOfBucket = (b: QueueBucket): Exclude<VisibleBucket, 'snoozed'> | null =>
  b === 'closed' ? null : b === 'pending' ? 'mine' : b === 'bot' ? 'others' : b;

/** The tab a session shows in: a snoozed session of mine in Snoozed, the others by their bucket. */
export function tabOfItem(item: QueueItem, me: string | null): VisibleBucket | null {
  const tab = tabOfBucket(bucketOf(item, me));
  return tab === 'mine' && item.snoozed ? 'snoozed' : tab;
}

/**
 * A workspace's session queue: one snapshot from the main process, then deltas. Items stay raw
 * (not deep proxies): 100,000 of them must not become 100,000 reactive objects. Bucketed, sorted
 * by waiting time (oldest first) and filtered here. The attendant's place (tab, filters, open
 * session) is kept while the view is away, the workspace's scope holding the store.
 */
export class QueueStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  #map = new Map<number, QueueItem>();
  /** Bumped on every change of `map` (the map itself is not reactive). */
  #version = $state(0);
  #me = $state<string | null>(null);
  #fetchedAt = $state<string | null>(null);
  /** Sessions the last full read could not list (a quiet note under the queue). */
  #unreadable = $state<Unreadable>(NONE_UNREADABLE);
  #loading = $state(false);
  #error = $state.raw<Worded | null>(null);
  bucket = $state<VisibleBucket>('waiting');
  filter = $state('');
  groupFilter = $state<number | null>(null);
  channelFilter = $state<string | null>(null);
  #selectedId = $state<number | null>(null);
  mineSort = $state<MineSort>('activity');
  /** After a close, the next session needing attention opens (a choice kept on this computer). */
  #openNextAfterClose = $state(localStorage.getItem('queue.openNext') !== 'false');

  setOpenNextAfterClose(on: boolean): void {
    this.#openNextAfterClose = on;
    localStorage.setItem('queue.openNext', String(on));
  }

  /**
   * The session of mine that most needs the attendant, other than `except`: the first with unread
   * customer messages in Mine's order, else the first whose customer waits for an answer
   * (src-shared/waiting.ts), else the first not waiting for the customer; null if none.
   */
  nextNeedingAttention(except: number | null): number | null {
    const mine = this.#byBucket.mine.items.filter((s) => s.id !== except);
    const waits = (s: QueueItem) => !s.pending && waitStartOf(s) !== null;
    return (mine.find((s) => s.unread) ?? mine.find(waits) ?? mine.find((s) => !s.pending))?.id ?? null;
  }
  /** Ids that arrived as new waiting sessions or new assignments (for attention). */
  #arrivals = $state.raw<Array<{ id: number; kind: 'waiting' | 'assigned' }>>([]);

  /**
   * Which tab holds each session, kept as the map changes, and a version per tab: a delta
   * touching a session of mine sorts Mine again, not the tens of thousands waiting elsewhere.
   */
  #members: Record<VisibleBucket, Set<number>> = { waiting: new Set(), mine: new Set(), others: new Set(), snoozed: new Set() };
  #tabVersions = $state<Record<VisibleBucket, number>>({ waiting: 0, mine: 0, others: 0, snoozed: 0 });
  /** How many sessions name each group and channel; the filter menus change when one comes or goes. */
  #facetCounts = new QueueFacets();
  #facetVersion = $state(0);

  /** The tab a session shows in (Mine holds every session assigned to me, those waiting for the customer included). */
  #tabOf(item: QueueItem): VisibleBucket | null {
    return tabOfItem(item, this.#me);
  }

  /** Moves one session between tabs and facet counts (either side may be absent), adding the tabs it touched to `touched`. */
  #place(prev: QueueItem | undefined, next: QueueItem | undefined, touched: Set<VisibleBucket>): void {
    const from = prev ? this.#tabOf(prev) : null;
    const to = next ? this.#tabOf(next) : null;
    if (prev && from) {
      this.#members[from].delete(prev.id);
      touched.add(from);
    }
    if (next && to) {
      this.#members[to].add(next.id);
      touched.add(to);
    }
    if (this.#facetCounts.move(prev, next)) this.#facetVersion++;
  }

  /** Every tab and facet again, from the whole map (a snapshot, another attendant, an empty store). */
  #rebuild(): void {
    this.#members = { waiting: new Set(), mine: new Set(), others: new Set(), snoozed: new Set() };
    this.#facetCounts.clear();
    const touched = new Set<VisibleBucket>();
    for (const item of this.#map.values()) this.#place(undefined, item, touched);
    this.#facetVersion++;
    this.#bump(new Set(VISIBLE_BUCKETS));
  }

  /** The tabs to sort again: each version is its own signal (a deep state object's properties). */
  #bump(tabs: Set<VisibleBucket>): void {
    for (const t of tabs) this.#tabVersions[t]++;
  }

  #build(b: VisibleBucket): { items: QueueItem[]; hay: string[] } {
    void this.#tabVersions[b];
    const order =
      b === 'mine'
        ? this.#mineOrder()
        : b === 'snoozed'
          ? byWake
          : (x: QueueItem, y: QueueItem) => (createdAtMs(x) || 0) - (createdAtMs(y) || 0) || x.id - y.id;
    const items: QueueItem[] = [];
    for (const id of this.#members[b]) {
      const item = this.#map.get(id);
      if (item) items.push(item);
    }
    items.sort(order);
    return { items, hay: items.map(haystack) };
  }

  #waitingTab = $derived.by(() => this.#build('waiting'));
  #mineTab = $derived.by(() => this.#build('mine'));
  #othersTab = $derived.by(() => this.#build('others'));
  #snoozedTab = $derived.by(() => this.#build('snoozed'));

  get #byBucket(): Record<VisibleBucket, { items: QueueItem[]; hay: string[] }> {
    return { waiting: this.#waitingTab, mine: this.#mineTab, others: this.#othersTab, snoozed: this.#snoozedTab };
  }

  #mineOrder(): (x: QueueItem, y: QueueItem) => number {
    const byAge = (x: QueueItem, y: QueueItem) => (createdAtMs(x) || 0) - (createdAtMs(y) || 0) || x.id - y.id;
    if (this.mineSort === 'waiting') {
      // Longest wait for an answer first (src-shared/waiting.ts); customers not waiting go last.
      const starts = new Map<QueueItem, number>();
      const start = (s: QueueItem) => starts.get(s) ?? starts.set(s, msOf(waitStartOf(s)) || Infinity).get(s)!;
      return (x, y) => (start(x) === start(y) ? 0 : start(x) < start(y) ? -1 : 1) || byAge(x, y);
    }
    if (this.mineSort === 'sla') {
      // Nearest end of the customer's wait within the SLA first (read once per session); sessions without one go last.
      const dues = new Map<QueueItem, number>();
      const due = (s: QueueItem) => dues.get(s) ?? dues.set(s, waitDue(s)).get(s)!;
      return (x, y) => (due(x) === due(y) ? 0 : due(x) < due(y) ? -1 : 1) || byAge(x, y);
    }
    return (x, y) => activityMs(y) - activityMs(x) || byAge(x, y);
  }

  /** The sessions in Mine, in its order. */
  mine(): QueueItem[] {
    return this.#byBucket.mine.items;
  }

  /** Sessions of mine with customer messages the attendant has not seen (the badge counts them). */
  get unreadSessions(): number {
    let n = 0;
    for (const s of this.#byBucket.mine.items) if (s.unread) n++;
    return n;
  }

  /** The previous filter's matches: typing forward narrows them instead of scanning again. */
  #lastFilter: { items: QueueItem[]; key: string; needle: string; idx: number[] } | null = null;

  get counts(): Record<VisibleBucket, number> {
    const g = this.#byBucket;
    return { waiting: g.waiting.items.length, mine: g.mine.items.length, others: g.others.items.length, snoozed: g.snoozed.items.length };
  }

  get total(): number {
    void this.#version;
    return this.#map.size;
  }

  /** Groups and channels present in the queue, for the filter menus. */
  facets = $derived.by(() => {
    void this.#facetVersion;
    return {
      groups: this.#facetCounts.groups(),
      channels: this.#facetCounts.channels(),
    };
  });

  visible = $derived.by(() => {
    const { items, hay } = this.#byBucket[this.bucket];
    const g = this.groupFilter;
    const c = this.channelFilter;
    const needle = this.filter.trim().toLowerCase();
    if (g === null && c === null && !needle) {
      this.#lastFilter = null;
      return items;
    }
    const key = `${g}|${c}`;
    const prev = this.#lastFilter;
    let idx: number[];
    if (prev && prev.items === items && prev.key === key && needle.startsWith(prev.needle)) {
      idx = needle === prev.needle ? prev.idx : prev.idx.filter((i) => hay[i]!.includes(needle));
    } else {
      idx = [];
      for (let i = 0; i < items.length; i++) {
        const s = items[i]!;
        if ((g === null || s.groupId === g) && (c === null || s.channel === c) && (!needle || hay[i]!.includes(needle))) idx.push(i);
      }
    }
    this.#lastFilter = { items, key, needle, idx };
    return idx.map((i) => items[i]!);
  });

  get selected(): QueueItem | null {
    void this.#version;
    return this.#selectedId === null ? null : (this.#map.get(this.#selectedId) ?? null);
  }

  item(id: number): QueueItem | undefined {
    void this.#version;
    return this.#map.get(id);
  }

  bucketOf(item: QueueItem): QueueBucket {
    return bucketOf(item, this.#me);
  }

  #unsubscribe: (() => void) | null = null;

  async start(): Promise<void> {
    this.#unsubscribe ??= this.#scope.on('attendance:queueDelta', (d) => this.apply(d));
    await this.refresh();
  }

  /** The last delta applied or included in the snapshot shown (`QueueDelta.seq`). */
  #seq = 0;
  /** Deltas received while a snapshot is on its way: those it does not include follow it. */
  #inFlight: QueueDelta[] | null = null;

  /** `fresh`: the service is read again (the refresh button), not the main process's copy. */
  async refresh(fresh = false): Promise<void> {
    this.#loading = true;
    this.#error = null;
    try {
      const arrived: QueueDelta[] = [];
      this.#inFlight = arrived;
      const snap = await this.#scope.invoke('attendance:queue', fresh ? { fresh } : {}).finally(() => {
        if (this.#inFlight === arrived) this.#inFlight = null;
      });
      this.#map = new Map(snap.items.map((i) => [i.id, i]));
      this.#seq = snap.seq;
      this.#me = snap.me;
      this.#rebuild();
      this.#fetchedAt = snap.fetchedAt;
      this.#unreadable = snap.unreadable;
      this.#version++;
      // The session left open is open again if the queue still holds it.
      if (this.#selectedId !== null && !this.#map.has(this.#selectedId)) this.#selectedId = null;
      this.#openWanted();
      // Changes that overtook the snapshot on their way here, and are newer than it.
      for (const d of arrived) this.apply(d);
    } catch (e) {
      this.#error = failure(e);
    } finally {
      this.#loading = false;
    }
  }

  /** A delta from the main process: applied once, in order with the snapshot it follows. */
  apply(d: QueueDelta): void {
    this.#inFlight?.push(d);
    if (d.seq <= this.#seq) return;
    this.#seq = d.seq;
    this.#change(d);
  }

  /** Items changed or gone, from a delta or from an answer to the attendant's own action. */
  #change(d: Omit<QueueDelta, 'seq'>): void {
    const arrivals: Array<{ id: number; kind: 'waiting' | 'assigned' }> = [];
    const meChanged = !!d.me && d.me !== this.#me;
    if (d.me) this.#me = d.me;
    const touched = new Set<VisibleBucket>();
    for (const id of d.remove) {
      this.#place(this.#map.get(id), undefined, touched);
      this.#map.delete(id);
    }
    for (const item of d.upsert) {
      const prev = this.#map.get(item.id);
      const was = prev ? bucketOf(prev, this.#me) : null;
      const now = bucketOf(item, this.#me);
      if (now === 'waiting' && was !== 'waiting') arrivals.push({ id: item.id, kind: 'waiting' });
      else if (now === 'mine' && was !== 'mine' && was !== 'pending' && item.id !== this.#acceptingId)
        arrivals.push({ id: item.id, kind: 'assigned' });
      this.#place(prev, item, touched);
      this.#map.set(item.id, item);
    }
    // Another attendant: every session may change tabs.
    if (meChanged) this.#rebuild();
    else this.#bump(touched);
    this.#fetchedAt = new Date().toISOString();
    this.#version++;
    if (arrivals.length) this.#arrivals = arrivals;
    if (this.#selectedId !== null && d.upsert.some((i) => i.id === this.#selectedId && (i.unread || i.woke))) this.markSeen();
  }

  /**
   * Set while the attendant accepts a session: their own accept is no news to them, its buttons
   * show progress, and a second click does not send a second accept.
   */
  #acceptingId = $state<number | null>(null);

  get me() {
    return this.#me;
  }
  get fetchedAt() {
    return this.#fetchedAt;
  }
  get unreadable() {
    return this.#unreadable;
  }
  get loading() {
    return this.#loading;
  }
  get error() {
    return worded(this.#error);
  }
  get selectedId() {
    return this.#selectedId;
  }
  get openNextAfterClose() {
    return this.#openNextAfterClose;
  }
  get arrivals() {
    return this.#arrivals;
  }
  get acceptingId() {
    return this.#acceptingId;
  }

  /** Set while the attendant is not receiving on this console: accepts are held, with why. */
  #acceptsHeld = $state.raw<Worded | null>(null);
  get acceptsHeld(): boolean {
    return this.#acceptsHeld !== null;
  }
  holdAccepts(why: Worded | null): void {
    this.#acceptsHeld = why;
  }

  async accept(id: number): Promise<QueueItem | null> {
    if (this.#acceptingId !== null) return null;
    if (this.#acceptsHeld) {
      this.#error = this.#acceptsHeld;
      return null;
    }
    this.#acceptingId = id;
    try {
      const item = await this.#scope.invoke('attendance:accept', { sessionId: id });
      this.#change({ upsert: [item], remove: [], me: this.#me });
      this.#error = null;
      return item;
    } catch (e) {
      this.#error = failure(e);
      return null;
    } finally {
      this.#acceptingId = null;
    }
  }

  /** Set while a snooze or a wake is on its way (one at a time); its error shows under the menu. */
  #snoozing = $state<number | null>(null);
  #snoozeError = $state.raw<Worded | null>(null);
  get snoozing(): number | null {
    return this.#snoozing;
  }
  get snoozeError(): string | null {
    return worded(this.#snoozeError);
  }
  clearSnoozeError(): void {
    this.#snoozeError = null;
  }

  /**
   * Snoozes a session of mine until `until` (a time in the future) or, null, until its customer
   * writes. True when done; a refusal (a time past) is kept in `snoozeError`.
   */
  async snooze(id: number, until: Date | null): Promise<boolean> {
    return this.#snoozeCall(id, () =>
      this.#scope.invoke('attendance:snooze', { sessionId: id, until: until ? until.toISOString() : null }),
    );
  }

  /** Brings a snoozed session back to Mine now. */
  async wake(id: number): Promise<boolean> {
    return this.#snoozeCall(id, () => this.#scope.invoke('attendance:wake', { sessionId: id }));
  }

  async #snoozeCall(id: number, call: () => Promise<QueueItem>): Promise<boolean> {
    if (this.#snoozing !== null) return false;
    this.#snoozing = id;
    this.#snoozeError = null;
    try {
      this.#change({ upsert: [await call()], remove: [], me: this.#me });
      return true;
    } catch (e) {
      this.#snoozeError = failure(e);
      return false;
    } finally {
      this.#snoozing = null;
    }
  }

  #transferring = false;

  /** Moves a session to a group or an attendant, with an optional note for whoever takes it next. */
  async transfer(id: number, to: { groupId: number } | { agentUserName: string }, note = ''): Promise<boolean> {
    if (this.#transferring) return false;
    this.#transferring = true;
    try {
      const item = await this.#scope.invoke('attendance:transfer', { sessionId: id, ...to, ...(note.trim() ? { note: note.trim() } : {}) });
      this.#change({ upsert: [item], remove: [], me: this.#me });
      return true;
    } catch (e) {
      this.#error = failure(e);
      return false;
    } finally {
      this.#transferring = false;
    }
  }

  /** Puts an item the main process answered (e.g. after close). */
  put(item: QueueItem): void {
    if (statusKind(item.status) === 'closed') this.#change({ upsert: [], remove: [item.id], me: this.#me });
    else this.#change({ upsert: [item], remove: [], me: this.#me });
  }

  select(id: number | null): void {
    this.#selectedId = id;
    const item = id === null ? undefined : this.#map.get(id);
    if (item) {
      const tab = tabOfItem(item, this.#me);
      if (tab && tab !== this.bucket) this.bucket = tab;
    }
    this.markSeen();
  }

  /** Clears the filters when they hide the selected session (it must be in sight). */
  revealSelected(): void {
    const id = this.#selectedId;
    if (id === null || this.visible.some((s) => s.id === id)) return;
    this.filter = '';
    this.groupFilter = null;
    this.channelFilter = null;
  }

  /** The open session's unread messages are seen once the attendant can see them. */
  markSeen(): void {
    const item = this.#selectedId === null ? undefined : this.#map.get(this.#selectedId);
    // Unread messages, or the mark of a session back from a snooze: seen once looked at.
    if ((item?.unread || item?.woke) && document.hasFocus())
      void this.#scope.invoke('attendance:seen', { sessionId: item.id }).catch(() => undefined);
  }

  /** A session to open once the queue holds it ("Needs me" opening one in this workspace). */
  #wanted: number | null = null;

  /** Opens session `id` now if the queue holds it, else once the queue is read. */
  openWhenShown(id: number): void {
    this.#wanted = id;
    if (this.#map.size) this.#openWanted();
  }

  #openWanted(): void {
    const id = this.#wanted;
    if (id === null || !this.#map.size) return;
    this.#wanted = null;
    if (!this.#map.has(id)) return;
    this.select(id);
    this.revealSelected();
  }

  /** Next or previous session in the visible list (wraps). */
  step(delta: 1 | -1): void {
    const list = this.visible;
    if (!list.length) return;
    const i = list.findIndex((s) => s.id === this.#selectedId);
    const next = i < 0 ? (delta > 0 ? 0 : list.length - 1) : (i + delta + list.length) % list.length;
    this.#selectedId = list[next]!.id;
  }

  /**
   * The view leaves: stops listening and lets the sessions go (the main process keeps them),
   * keeping the attendant's place (tab, filters, open session) for when it comes back.
   */
  suspend(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#map = new Map();
    this.#version++;
    this.#rebuild();
    this.#arrivals = [];
  }
}
