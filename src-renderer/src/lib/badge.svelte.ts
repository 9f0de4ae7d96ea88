import { invoke } from './bridge';

/**
 * The console's one attention count: what needs the attendant in the workspace in front (things
 * that happened while the window was not focused, sessions with unread customer messages) and
 * in the others. Shown in the page title, and by the main process on the dock or taskbar.
 */
export class AttentionBadge {
  #here = 0;
  #elsewhere = 0;
  #baseTitle: string | null = null;
  #sent: number | null = null;

  /** The workspace in front's count (its desk sets it; zero while its sessions view is not shown). */
  setHere(count: number): void {
    if (count === this.#here) return;
    this.#here = count;
    this.update();
  }

  /** Sessions with unread customer messages in the console's other workspaces. */
  setElsewhere(count: number): void {
    if (count === this.#elsewhere) return;
    this.#elsewhere = count;
    this.update();
  }

  /** The window's title before the count, in the console's language. */
  setTitle(title: string): void {
    if (title === this.#baseTitle) return;
    this.#baseTitle = title;
    this.update();
  }

  update(): void {
    const count = this.#here + this.#elsewhere;
    this.#baseTitle ??= document.title.replace(/^\(\d+\)\s*/, '');
    document.title = count > 0 ? `(${count}) ${this.#baseTitle}` : this.#baseTitle;
    if (this.#sent !== count) {
      this.#sent = count;
      void invoke('attendance:badge', { count }).catch(() => undefined);
    }
  }
}

export const badge = new AttentionBadge();
