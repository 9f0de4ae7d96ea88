/** How long a console that opens a window waits for its page's first view before going on without it. */
export const FIRST_VIEW_WITHIN_MS = 3_000;

/**
 * The moment the page first has a view on screen. Work that view does not need (live updates,
 * the service's read behind a kept queue) waits for it, so it does not take the machine from the
 * page while the page starts. The page says when (`workspace:viewShown`); a page that never says
 * (it failed to load, or no window opened) lets the work go on after `withinMs`.
 */
export class FirstView {
  /** Resolves once the page has said so or after `withinMs`; never rejects. */
  readonly shown: Promise<void>;
  #open: () => void = () => undefined;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #opened = false;

  /** `withinMs` null: no page to wait for (tests, a console serving no window): open from the start. */
  constructor(withinMs: number | null) {
    this.shown = new Promise<void>((resolve) => {
      this.#open = resolve;
    });
    if (withinMs === null) this.open();
    else {
      this.#timer = setTimeout(() => this.open(), withinMs);
      this.#timer.unref?.();
    }
  }

  /** Whether `shown` has resolved: work that may wait for the first view need not any more. */
  get opened(): boolean {
    return this.#opened;
  }

  /** The page shows its first view: what waited goes on (once). */
  open(): void {
    this.#opened = true;
    const open = this.#open;
    this.drop();
    open();
  }

  /** The console closes: what still waits never starts. */
  drop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#open = () => undefined;
  }
}
