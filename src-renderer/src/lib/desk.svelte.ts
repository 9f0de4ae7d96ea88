import type { Directory } from '../../../src-shared/bridge/attendance';
import type { LiveStatus } from '../../../src-shared/bridge/live';
import { maskDocuments } from '../../../src-shared/redact';
import { BridgeError, failure, type Worded, worded } from './bridge';
import type { Followed, Scope } from './scope.svelte';
import { badge } from './badge.svelte';

/**
 * The attendant's desk around the sessions: the directory (groups, fellow attendants, pause
 * reasons), their own status (pause with a reason, resume), live updates, and attention
 * (notifications when the window is not focused, and the badge count).
 */
export class DeskStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
    // The directory given to the first view was the one kept from the last start: read again
    // after that view, it comes here when it changed.
    scope.on('attendance:directory', (d) => this.#take(d, this.#statusChanges));
  }

  #directory = $state<Directory | null>(null);
  #status = $state<string | null>(null);
  #pauseReason = $state<string | null>(null);
  #live = $state<LiveStatus | null>(null);
  /** The live status as pushed, while the sessions view is in front (`start` to `suspend`). */
  #liveFollowed: Followed<LiveStatus> | null = null;
  #error = $state.raw<Worded | null>(null);
  /** Things that happened while the window was not focused. */
  #unseen = $state(0);
  #focused = $state(true);
  #notifications = $state<'granted' | 'denied' | 'default' | 'unsupported'>('default');
  /** In-window notices (also where a notification goes when the system refuses it). */
  /** `open`: what a click does instead of opening `sessionId` here (a session of another workspace). */
  #toasts = $state<Array<{ id: number; text: string; sessionId: number | null; open?: () => void }>>([]);
  #toastSeq = 0;
  #unsubscribe: Array<() => void> = [];

  async start(): Promise<void> {
    if (!this.#unsubscribe.length) {
      const live = this.#scope.follow('live:status', (s) => (this.#live = s));
      this.#liveFollowed = live;
      this.#unsubscribe.push(() => live.stop());
      const onFocus = () => {
        this.#focused = true;
        this.#unseen = 0;
        this.updateBadge();
      };
      const onBlur = () => (this.#focused = false);
      const onOnline = () => void this.#scope.invoke('live:resync', {}).catch(() => undefined);
      window.addEventListener('focus', onFocus);
      window.addEventListener('blur', onBlur);
      window.addEventListener('online', onOnline);
      this.#unsubscribe.push(() => {
        window.removeEventListener('focus', onFocus);
        window.removeEventListener('blur', onBlur);
        window.removeEventListener('online', onOnline);
      });
      // A wake from sleep is detected in the main process, which resyncs by itself.
      this.#focused = document.hasFocus();
      this.#notifications = typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
    }
    await Promise.allSettled([this.loadDirectory(), this.#liveFollowed?.read(() => this.#scope.invoke('live:status', {}))]);
  }

  /** Reads the directory unless it is here already (the views that need it call this). */
  ensureDirectory(): Promise<void> {
    return this.#directory ? Promise.resolve() : this.loadDirectory();
  }

  /** The directory read under way: whoever asks meanwhile (the desk starting, a view) shares it. */
  #directoryRead: Promise<void> | null = null;

  loadDirectory(): Promise<void> {
    return (this.#directoryRead ??= this.#readDirectory().finally(() => (this.#directoryRead = null)));
  }

  async #readDirectory(): Promise<void> {
    const changes = this.#statusChanges;
    try {
      this.#take(await this.#scope.invoke('attendance:directory', {}), changes);
    } catch (e) {
      this.#error = failure(e);
    }
  }

  /** A directory asked for when `changes` pauses or resumes had been sent. */
  #take(d: Directory, changes: number): void {
    this.#directory = d;
    // A pause or resume sent since is newer than what it says of the status.
    if (changes === this.#statusChanges) {
      this.#status = d.myStatus;
      this.#pauseReason = d.myPauseReason;
    }
  }

  get paused(): boolean {
    return this.#status === 'PAUSED';
  }

  /**
   * Not receiving, on this console only: the service refused to record the attendant's pause
   * (403: its rules reserve the agent's status to others), so the console holds new acceptances
   * and the notices of new waiting sessions itself. Never shown as a pause the service holds.
   */
  #notReceiving = $state<{ since: number; reason: string | null } | null>(null);
  /** The service refused the last pause (403): the console offers to stop receiving here. */
  #pauseRefused = $state(false);
  #refusedReason: string | null = null;
  get notReceiving() {
    return this.#notReceiving;
  }
  get pauseRefused() {
    return this.#pauseRefused;
  }

  stopReceiving(): void {
    this.#notReceiving = { since: Date.now(), reason: this.#refusedReason };
    this.#pauseRefused = false;
    this.#error = null;
  }

  receiveAgain(): void {
    this.#notReceiving = null;
  }

  /** When this console saw the pause start (null: not paused, or paused before it started). */
  #pausedSince = $state<number | null>(null);
  get pausedSince() {
    return this.#pausedSince;
  }

  /** A pause or resume on its way: shown, and not sent twice. */
  #changingStatus = $state(false);

  get directory() {
    return this.#directory;
  }
  get status() {
    return this.#status;
  }
  /** The minutes the current pause's reason allows (null: no allowance, or the reason is not listed). */
  get pauseAllowance(): number | null {
    const reason = this.#pauseReason;
    return this.directory?.pauseReasons.find((p) => p.label === reason)?.minutes ?? null;
  }
  get pauseReason() {
    return this.#pauseReason;
  }
  get live() {
    return this.#live;
  }
  get error() {
    return worded(this.#error);
  }
  get unseen() {
    return this.#unseen;
  }
  get focused() {
    return this.#focused;
  }
  get notifications() {
    return this.#notifications;
  }
  get toasts() {
    return this.#toasts;
  }
  get changingStatus() {
    return this.#changingStatus;
  }

  pause(reasonId: number): Promise<void> {
    this.#refusedReason = this.#directory?.pauseReasons.find((p) => p.id === reasonId)?.label ?? null;
    return this.#changeStatus(() => this.#scope.invoke('attendance:pause', { reasonId }), true);
  }

  resume(): Promise<void> {
    return this.#changeStatus(() => this.#scope.invoke('attendance:resume', {}));
  }

  /** Pauses and resumes sent so far: a directory read older than the last one does not set the status. */
  #statusChanges = 0;

  async #changeStatus(call: () => Promise<{ status: string; reason: string | null }>, pausing = false): Promise<void> {
    if (this.#changingStatus) return;
    this.#pauseRefused = false;
    this.#changingStatus = true;
    this.#statusChanges++;
    try {
      const r = await call();
      const wasPaused = this.paused;
      this.#status = r.status;
      if (this.paused && !wasPaused) this.#pausedSince = Date.now();
      else if (!this.paused) this.#pausedSince = null;
      this.#pauseReason = r.reason;
      this.#error = null;
    } catch (e) {
      this.#error = failure(e);
      if (pausing && e instanceof BridgeError && e.info.kind === 'Forbidden') this.#pauseRefused = true;
    } finally {
      this.#changingStatus = false;
    }
  }

  async setLive(running: boolean): Promise<void> {
    try {
      const ask = () => this.#scope.invoke('live:setRunning', { running });
      if (this.#liveFollowed) await this.#liveFollowed.read(ask);
      else this.#live = await ask();
    } catch (e) {
      this.#error = failure(e);
    }
  }

  async enableNotifications(): Promise<void> {
    if (typeof Notification === 'undefined') return;
    try {
      this.#notifications = await Notification.requestPermission();
    } catch {
      this.#notifications = 'denied';
    }
  }

  /**
   * Something needs the attendant. When the window is not focused it counts towards the badge
   * and becomes a system notification; when that is refused it is still shown in the window.
   */
  attend(title: string, body: string, sessionId: number | null, onOpen?: () => void, counted = true): void {
    const text = maskDocuments(body);
    if (this.#focused && document.hasFocus()) return;
    if (counted) {
      this.#unseen++;
      this.updateBadge();
    }
    let shown = false;
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      try {
        const n = new Notification(title, { body: text, tag: sessionId === null ? undefined : `session-${sessionId}` });
        n.onclick = () => {
          window.focus();
          onOpen?.();
        };
        shown = true;
      } catch {
        shown = false;
      }
    }
    if (!shown) this.toast(`${title}: ${text}`, sessionId, sessionId === null ? onOpen : undefined);
  }

  toast(text: string, sessionId: number | null, open?: () => void): void {
    const id = ++this.#toastSeq;
    this.#toasts = [...this.#toasts.slice(-3), { id, text, sessionId, ...(open ? { open } : {}) }];
    setTimeout(() => this.dismiss(id), 8_000);
  }

  dismiss(id: number): void {
    this.#toasts = this.#toasts.filter((t) => t.id !== id);
  }

  /** Sessions of mine with customer messages not yet seen: they count on the badge until read. */
  #unreadSessions = 0;
  setUnreadSessions(count: number): void {
    if (count === this.#unreadSessions) return;
    this.#unreadSessions = count;
    this.updateBadge();
  }

  /** What this workspace adds to the console's badge (its sessions view is in front while this runs). */
  updateBadge(): void {
    badge.setHere(this.#unseen + this.#unreadSessions);
  }

  /** The sessions view leaves: listening stops, the directory and notices go, and this workspace no longer counts on the badge. */
  suspend(): void {
    for (const u of this.#unsubscribe) u();
    this.#unsubscribe = [];
    this.#liveFollowed = null;
    this.#directory = null;
    this.#pausedSince = null;
    this.#live = null;
    this.#unseen = 0;
    this.#unreadSessions = 0;
    this.#toasts = [];
    this.updateBadge();
  }
}
