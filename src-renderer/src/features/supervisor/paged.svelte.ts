import { failure, type Worded, worded } from '../../lib/bridge';
import { ReadRetry } from '../../lib/read-retry.svelte';

/**
 * A table whose filtering, sorting and paging run on the service: the explorer and the report
 * share this, each saying only how to fetch one page.
 */
export abstract class ServerPagedStore<C extends string, D> {
  #sortColumn = $state<C | null>(null);
  #direction = $state<'ASC' | 'DESC'>('ASC');
  #page = $state(0);
  #size = $state(20);
  #data = $state<D | null>(null);
  #loading = $state(false);
  #error = $state.raw<Worded | null>(null);

  get sortColumn() {
    return this.#sortColumn;
  }
  get direction() {
    return this.#direction;
  }
  get page() {
    return this.#page;
  }
  get size() {
    return this.#size;
  }
  get data() {
    return this.#data;
  }
  get loading() {
    return this.#loading;
  }
  get error() {
    return worded(this.#error);
  }
  /** The error shown is the page's read that failed (Try again reads it), not an export's. */
  get readFailed() {
    return this.#readFailed;
  }
  #readFailed = $state(false);
  /** When the page that could not be read is asked again by itself (ms since epoch), or null. */
  get retryAt() {
    return this.#retry.at;
  }
  /** A failure of a subclass's own call (an export), shown where the table's errors show. */
  protected fail(message: Worded | null): void {
    this.#error = message;
    this.#readFailed = false;
  }

  readonly #defaults: { sortColumn: C | null; direction: 'ASC' | 'DESC'; size: number; clearOnError: boolean };

  constructor(defaults: { sortColumn: C | null; direction: 'ASC' | 'DESC'; size: number; clearOnError: boolean }) {
    this.#defaults = defaults;
    this.#sortColumn = defaults.sortColumn;
    this.#direction = defaults.direction;
    this.#size = defaults.size;
  }

  /** One page as the current filters, sort and page say. */
  protected abstract fetch(): Promise<D>;

  readonly #retry = new ReadRetry();

  async load(): Promise<void> {
    this.#retry.stop();
    this.#loading = true;
    try {
      this.#data = await this.fetch();
      this.#error = null;
      this.#readFailed = false;
      this.#retry.reset();
    } catch (e) {
      if (this.#defaults.clearOnError) this.#data = null;
      // Told to wait or not reached: what was shown stays, and the page is read again by itself.
      this.#error = failure(e);
      this.#readFailed = true;
      this.#retry.failedCall(e, () => void this.load());
    } finally {
      this.#loading = false;
    }
  }

  /** New filters: back to the first page. */
  restart(): Promise<void> {
    this.#page = 0;
    return this.load();
  }

  sortBy(column: C): Promise<void> {
    if (this.#sortColumn === column) this.#direction = this.#direction === 'ASC' ? 'DESC' : 'ASC';
    else {
      this.#sortColumn = column;
      this.#direction = 'ASC';
    }
    return this.restart();
  }

  go(delta: number): Promise<void> {
    this.#page = Math.max(0, this.#page + delta);
    return this.load();
  }

  protected resetPaging(): void {
    this.#sortColumn = this.#defaults.sortColumn;
    this.#direction = this.#defaults.direction;
    this.#page = 0;
    this.#data = null;
    this.#error = null;
    this.#readFailed = false;
    this.#retry.stop();
  }

  dispose(): void {
    this.#retry.stop();
  }
}
