/**
 * The attention badge (the dock or taskbar count of things waiting for the attendant), kept out
 * of the attendance feature so that it never imports Electron: the Electron shell binds a setter
 * built by `electronBadgeSetter`, the web host binds nothing (the page title carries the count).
 */
export type BadgeSetter = (count: number) => void;

/** The part of Electron's `app` the badge needs. */
export interface BadgeApp {
  setBadgeCount(count?: number): boolean;
}

export interface BadgeSlot {
  /** Binds the platform's setter and shows the current count at once. Returns an unbind. */
  bind(setter: BadgeSetter): () => void;
  /** Sets the count; the platform is called only when the shown number changes. */
  set(count: number): number;
  readonly count: number;
}

/** More than this shows as this: a dock badge has room for a few digits only. */
export const BADGE_MAX = 999;

/** What the badge shows for a count: a whole number from 0 to BADGE_MAX (0 clears it). */
export function badgeCount(count: number): number {
  if (!Number.isFinite(count) || count <= 0) return 0;
  return Math.min(BADGE_MAX, Math.floor(count));
}

export function createBadgeSlot(): BadgeSlot {
  let setter: BadgeSetter | null = null;
  let count = 0;
  let shown: number | null = null;
  const show = () => {
    if (!setter || shown === count) return;
    shown = count;
    setter(count);
  };
  return {
    bind(s) {
      setter = s;
      shown = null;
      show();
      return () => {
        if (setter === s) setter = null;
      };
    },
    set(next) {
      count = badgeCount(next);
      show();
      return count;
    },
    get count() {
      return count;
    },
  };
}

/**
 * Electron's setter. `setBadgeCount` answers false where the desktop has no badge (many Linux
 * desktops without Unity launcher support): that is said once in the log, never thrown, since
 * the count is also in the window title.
 */
export function electronBadgeSetter(app: BadgeApp, warn: (message: string) => void): BadgeSetter {
  let warned = false;
  return (count) => {
    let ok: boolean;
    try {
      ok = app.setBadgeCount(count);
    } catch {
      ok = false;
    }
    if (!ok && !warned) {
      warned = true;
      warn('This desktop shows no badge count; the window title carries it instead.');
    }
  };
}
