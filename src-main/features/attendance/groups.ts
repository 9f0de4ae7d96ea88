import type { GroupInfo } from '../../../src-shared/bridge/attendance';

/**
 * The groups the console learned of, by id: from session records that embed one whole, from an
 * open thread's session, from the directory's reads. Its own module so the queue (which shows a
 * group's SLA on its rows) and the directory (which lists and completes groups) share it without
 * importing each other.
 */
export class GroupRegistry {
  readonly #groups = new Map<number, GroupInfo>();
  readonly #slaListeners = new Set<(g: GroupInfo) => void>();

  get(id: number): GroupInfo | undefined {
    return this.#groups.get(id);
  }

  has(id: number): boolean {
    return this.#groups.has(id);
  }

  values(): Iterable<GroupInfo> {
    return this.#groups.values();
  }

  get size(): number {
    return this.#groups.size;
  }

  /** Keeps a group read along with a session record, saying nothing (the session's row is being put anyway). */
  note(g: GroupInfo): void {
    this.#groups.set(g.id, g);
  }

  /** Keeps a group read on its own; those listening hear when its SLA became known or changed. */
  remember(g: GroupInfo): void {
    const before = this.#groups.get(g.id);
    this.#groups.set(g.id, g);
    if (g.slaSeconds === null || before?.slaSeconds === g.slaSeconds) return;
    for (const listener of this.#slaListeners) listener(g);
  }

  /** `listener` hears each group whose SLA `remember` learned. */
  onSla(listener: (g: GroupInfo) => void): void {
    this.#slaListeners.add(listener);
  }
}
