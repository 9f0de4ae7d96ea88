import type { QueueItem } from '../../../src-shared/bridge/attendance';

/**
 * How many of the queue's sessions name each group and channel: what the filter menus offer.
 * Counted as sessions come, change and go, so a delta never walks the whole queue.
 */
export class QueueFacets {
  #groups = new Map<number, { name: string; n: number }>();
  #channels = new Map<string, number>();

  /** One session leaves `prev`'s group and channel and joins `next`'s (either may be absent); whether a menu changed. */
  move(prev: QueueItem | undefined, next: QueueItem | undefined): boolean {
    // Both counts move, whatever the first says: `||` would skip the second.
    const groups = this.#moveGroup(prev, next);
    const channels = this.#moveChannel(prev, next);
    return groups || channels;
  }

  clear(): void {
    this.#groups = new Map();
    this.#channels = new Map();
  }

  /** The groups present, by name. */
  groups(): Array<{ id: number; name: string }> {
    return [...this.#groups].map(([id, g]) => ({ id, name: g.name })).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The channels present, in order. */
  channels(): string[] {
    return [...this.#channels.keys()].sort();
  }

  #moveGroup(prev: QueueItem | undefined, next: QueueItem | undefined): boolean {
    let changed = false;
    if (prev?.groupId != null) {
      const g = this.#groups.get(prev.groupId);
      if (g && --g.n === 0) {
        this.#groups.delete(prev.groupId);
        changed = true;
      }
    }
    if (next?.groupId == null) return changed;
    const name = next.groupName ?? `#${next.groupId}`;
    const g = this.#groups.get(next.groupId);
    if (!g) {
      this.#groups.set(next.groupId, { name, n: 1 });
      return true;
    }
    g.n++;
    if (g.name === name) return changed;
    g.name = name;
    return true;
  }

  #moveChannel(prev: QueueItem | undefined, next: QueueItem | undefined): boolean {
    let changed = false;
    if (prev?.channel) {
      const n = (this.#channels.get(prev.channel) ?? 1) - 1;
      if (n <= 0) {
        this.#channels.delete(prev.channel);
        changed = true;
      } else this.#channels.set(prev.channel, n);
    }
    if (next?.channel) {
      const n = this.#channels.get(next.channel) ?? 0;
      if (n === 0) changed = true;
      this.#channels.set(next.channel, n + 1);
    }
    return changed;
  }
}
