import { invokeIn, on } from '../../lib/bridge';
import { frontStore, type Scope } from '../../lib/scope.svelte';
import { DeskStore } from '../../lib/desk.svelte';
import { QueueStore } from '../../lib/queue.svelte';
import { tt } from './strings';
import { app } from '../../lib/app.svelte';

/**
 * Away detection. The desktop app hears the operating system (idle time, screen locked); the
 * browser console only its own page (no key, pointer or wheel for a while). After the chosen
 * number of minutes the console offers a pause (a question that stays until answered), or
 * applies one with the chosen reason of the service; on return it resumes what it paused itself
 * and says so in one line, naming the sessions of the attendant's that customers wrote in
 * meanwhile. A pause the attendant took (or accepted) is never ended by it.
 */

export const AWAY_MODES = ['off', 'offer', 'pause'] as const;
export type AwayMode = (typeof AWAY_MODES)[number];

export interface AwaySettings {
  mode: AwayMode;
  minutes: number;
  /** The service's pause reason to apply (null: the first the service lists). */
  reasonId: number | null;
}

const KEY = 'console.away';
const DEFAULTS: AwaySettings = { mode: 'offer', minutes: 5, reasonId: null };
const CHECK_EVERY_MS = 5_000;
/** The attendant's own input in the page (window focus counts too; an element taking focus does not). */
const ACTIVITY = ['keydown', 'pointerdown', 'pointermove', 'wheel'] as const;

function stored(): AwaySettings {
  try {
    const raw = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? 'null') as Partial<AwaySettings> | null;
    if (!raw || typeof raw !== 'object') return DEFAULTS;
    return {
      mode: AWAY_MODES.find((m) => m === raw.mode) ?? DEFAULTS.mode,
      minutes: typeof raw.minutes === 'number' && raw.minutes >= 1 && raw.minutes <= 240 ? Math.round(raw.minutes) : DEFAULTS.minutes,
      reasonId: typeof raw.reasonId === 'number' ? raw.reasonId : null,
    };
  } catch {
    return DEFAULTS;
  }
}

export interface AwayReturn {
  /** How long the attendant was away, in ms. */
  awayMs: number;
  /** The console paused them (and has resumed them now). */
  resumed: boolean;
  /** Sessions of theirs that customers wrote in while they were away. */
  waiting: Array<{ id: number; name: string }>;
}

/**
 * Watches the attendant's presence for the whole page, whichever workspace is in front: their
 * input (or, in the desktop app, the system's idle time and lock), and the away settings, kept
 * on this computer. Going away and coming back are told to the workspace in front (`AwayStore`).
 */
export class AwayWatch {
  #settings = $state<AwaySettings>(stored());
  #lastActivity = Date.now();
  /** From the desktop app: the system's idle seconds and lock state (null in a browser). */
  #system: { idleSeconds: number; locked: boolean } | null = null;
  #started = false;

  get settings() {
    return this.#settings;
  }

  configure(next: Partial<AwaySettings>): void {
    this.#settings = { ...this.#settings, ...next };
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(this.#settings));
    } catch {
      // Storage refused: the choice holds for this run.
    }
  }

  start(): void {
    // Once for the console's life: it watches whichever account is signed in.
    if (this.#started) return;
    this.#started = true;
    const active = (e: Event) => {
      // The attendant's own input only: not an event a script dispatched, not a move in place.
      if (!e.isTrusted) return;
      if (e instanceof PointerEvent && e.type === 'pointermove' && !this.#moved(e)) return;
      this.#activity();
    };
    for (const type of ACTIVITY) window.addEventListener(type, active, { capture: true, passive: true });
    // Coming back to the window counts; a focus without having left it (the page taking it at
    // load, a dialog closing) does not.
    let left = false;
    window.addEventListener('blur', (e) => {
      if (e.target === window) left = true;
    });
    window.addEventListener('focus', (e) => {
      if (e.target !== window || !left) return;
      left = false;
      active(e);
    });
    setInterval(() => this.#check(), CHECK_EVERY_MS);
    on('attendance:presence', (p) => {
      this.#system = p;
      if (!p.locked && p.idleSeconds * 1000 < this.thresholdMs()) frontStore(AwayStore)?.back();
      else this.#check();
    });
  }

  thresholdMs(): number {
    return this.#settings.minutes * 60_000;
  }

  /** Where the pointer was last seen: the browser also sends a move when the page changes under a still pointer. */
  #pointer: { x: number; y: number } | null = null;
  #moved(e: PointerEvent): boolean {
    const was = this.#pointer;
    this.#pointer = { x: e.screenX, y: e.screenY };
    return !was || was.x !== e.screenX || was.y !== e.screenY;
  }

  #activity(): void {
    this.#lastActivity = Date.now();
    // In the desktop app the system says when the attendant is back (input anywhere counts).
    if (!this.#system || !this.#system.locked) frontStore(AwayStore)?.back();
  }

  idleMs(): number {
    if (this.#system) return this.#system.locked ? Infinity : this.#system.idleSeconds * 1000;
    return Date.now() - this.#lastActivity;
  }

  #check(): void {
    if (this.#settings.mode === 'off' || !app.signedIn) return;
    if (this.idleMs() < this.thresholdMs()) return;
    frontStore(AwayStore)?.leave(Date.now() - Math.min(this.idleMs(), this.thresholdMs()));
  }
}

export const awayWatch = new AwayWatch();

/**
 * The attendant away from one workspace: the pause offered or applied there (and in the other
 * workspaces signed in), and on return what the console resumed and who wrote meanwhile.
 */
export class AwayStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  /** Since when the attendant is away (null: here). */
  #awaySince = $state<number | null>(null);
  /** Offering a pause (mode "offer") while away. */
  #offering = $state(false);
  /** The console applied the pause now in force. */
  #pausedByUs = false;
  /** The console's pause on its way to the services (a return meanwhile waits for it, then resumes). */
  #pausing: Promise<void> | null = null;
  /** Unread counts of Mine when the attendant went away, to tell what came meanwhile. */
  #unreadAtLeave = new Map<number, number>();
  #returned = $state<AwayReturn | null>(null);

  get #desk(): DeskStore {
    return this.#scope.use(DeskStore);
  }
  get #queue(): QueueStore {
    return this.#scope.use(QueueStore);
  }

  get settings() {
    return awayWatch.settings;
  }
  get awaySince() {
    return this.#awaySince;
  }
  get offering() {
    return this.#offering;
  }
  get returned() {
    return this.#returned;
  }

  /** Closes the "welcome back" line. */
  dismiss(): void {
    this.#returned = null;
  }

  /** The attendant accepts the offered pause: theirs from now on (the console will not end it). */
  async pauseNow(): Promise<void> {
    this.#offering = false;
    const reason = this.reason;
    if (reason && !this.#desk.paused) await this.#desk.pause(reason.id);
    await this.#pauseElsewhere(reason?.label ?? null);
  }

  /** The console's other workspaces it paused while the attendant was away (resumed on return). */
  #pausedElsewhere: string[] = [];

  /**
   * The attendant is away from every workspace, not only this one: each other one signed in is
   * paused too, with its reason of the same name (else its first). One that is already paused
   * (by the attendant), or whose service does not answer, is left as it is.
   */
  async #pauseElsewhere(label: string | null): Promise<string[]> {
    const paused: string[] = [];
    for (const w of app.state?.workspaces ?? []) {
      if (w.id === this.#scope.workspaceId || !w.signedIn) continue;
      try {
        const dir = await invokeIn(w.id, 'attendance:directory', {});
        const reason = dir.pauseReasons.find((r) => r.label === label) ?? dir.pauseReasons[0];
        if (dir.myStatus === 'PAUSED' || !reason) continue;
        await invokeIn(w.id, 'attendance:pause', { reasonId: reason.id });
        paused.push(w.id);
      } catch {
        // That service did not answer: the others are still paused.
      }
    }
    return paused;
  }

  /** The attendant declines the offered pause. */
  decline(): void {
    this.#offering = false;
  }

  /** The pause reason the console would apply: the chosen one if the service still lists it, else its first. */
  get reason(): { id: number; label: string } | null {
    const reasons = this.#desk.directory?.pauseReasons ?? [];
    return reasons.find((r) => r.id === awayWatch.settings.reasonId) ?? reasons[0] ?? null;
  }

  /** The attendant has been away since `since` (ms): offer or apply the pause, once. */
  leave(since: number): void {
    if (this.#awaySince !== null) return;
    this.#awaySince = since;
    this.#unreadAtLeave = new Map(this.#queue.mine().map((s) => [s.id, s.unread ?? 0]));
    this.#returned = null;
    // Already paused (by the attendant): nothing to offer or apply.
    if (this.#desk.paused) return;
    const { mode, minutes } = awayWatch.settings;
    if (mode === 'pause') {
      const pausing = this.#applyPause().finally(() => {
        if (this.#pausing === pausing) this.#pausing = null;
      });
      this.#pausing = pausing;
    } else {
      // Asked until answered: coming back does not take the question away.
      this.#offering = true;
      this.#desk.attend(tt('away.offerTitle'), tt('away.offer', { minutes, reason: this.reason?.label ?? '—' }), null, undefined, false);
    }
  }

  async #applyPause(): Promise<void> {
    // The reasons come with the directory, which the sessions view loads; read it if not yet.
    await this.#desk.ensureDirectory();
    const reason = this.reason;
    // Back already, or paused meanwhile by the attendant: nothing to pause.
    if (this.#awaySince === null || this.#desk.paused) return;
    if (reason) await this.#desk.pause(reason.id);
    if (!reason || !this.#desk.paused) {
      // Not paused (no reason to pause with, the service refused or did not answer; the desk
      // shows why): this spell ends here, so the next check, still away, tries again.
      this.#awaySince = null;
      return;
    }
    this.#pausedByUs = true;
    this.#pausedElsewhere = await this.#pauseElsewhere(reason.label);
  }

  /** The attendant is back: resume what the console paused, and say who wrote meanwhile. */
  back(): void {
    const since = this.#awaySince;
    if (since === null) return;
    this.#awaySince = null;
    // An open question stays for the attendant to answer; it says enough.
    if (this.#offering) return;
    const awayMs = Date.now() - since;
    const waiting = this.#queue
      .mine()
      .filter((s) => (s.unread ?? 0) > (this.#unreadAtLeave.get(s.id) ?? 0))
      .map((s) => ({ id: s.id, name: s.customerName }));
    // Back while the pause was on its way: once it is in force, it is ended like any other.
    if (this.#pausing) void this.#pausing.then(() => this.#resumeOnReturn(awayMs, waiting));
    else this.#resumeOnReturn(awayMs, waiting);
  }

  #resumeOnReturn(awayMs: number, waiting: AwayReturn['waiting']): void {
    // Away again meanwhile: that spell's return will resume.
    if (this.#awaySince !== null) return;
    const resumed = this.#pausedByUs && this.#desk.paused;
    this.#pausedByUs = false;
    this.#returned = { awayMs, resumed, waiting };
    if (resumed) void this.#desk.resume();
    for (const id of this.#pausedElsewhere) void invokeIn(id, 'attendance:resume', {}).catch(() => undefined);
    this.#pausedElsewhere = [];
  }
}
