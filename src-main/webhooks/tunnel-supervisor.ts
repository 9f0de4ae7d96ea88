/**
 * Keeps a tunnel up: starts the program, calls it live only once a self-check came back through
 * it, checks it periodically, and restarts it with backoff when the program exits or stops
 * forwarding (and at once after a wake from sleep). Each time it is live again `onLive` runs, so
 * the caller can register a changed URL and read forward what the gap may have dropped.
 * Plain Node, no Electron.
 */
import type { TunnelRunner, TunnelState } from './tunnel';
import type { WebhookLogger } from './types';
import { systemClock } from '../clock';
import { backoffDelay, noJitter, type Backoff } from '../../src-shared/error-kinds';

export type SupervisedTunnelState =
  | { status: 'stopped' }
  /** `url`: what the program gave, until a self-check comes back through it. */
  | { status: 'starting'; url?: string }
  /** A self-check came back through the tunnel at `checkedAt` (ms since the epoch). */
  | { status: 'running'; url: string; checkedAt: number }
  /** It failed for `reason` and starts again at `at` (ms since the epoch). */
  | { status: 'restarting'; reason: string; at: number }
  /** Starting again cannot help (the program is missing): the user has to act. */
  | { status: 'failed'; reason: string };

export interface SupervisorOptions {
  /** Starts one run of the program. */
  start(): TunnelRunner;
  /** One self-check through `url` (the tunnel's origin): null when it came back, else why not. */
  check(url: string): Promise<string | null>;
  /** Live after a start: awaited before the state says so (registration, resync). */
  onLive?(url: string): Promise<void> | void;
  /** Between self-checks while live. Default 10 s. */
  checkEveryMs?: number;
  /** After a failed self-check, the next one comes this soon. Default 1 s. */
  recheckMs?: number;
  /** Failed self-checks in a row that count as "stopped forwarding". Default 2. */
  failuresToRestart?: number;
  /** From start to the first self-check that came back. Default 30 s. */
  startTimeoutMs?: number;
  /** Waits before each restart in a row, doubling (src-shared's one backoff). Default 1 s up to a minute. */
  backoff?: Backoff;
  /** A run live this long resets the backoff. Default 60 s. */
  stableMs?: number;
  log?: WebhookLogger;
}

export interface TunnelSupervisor {
  readonly state: SupervisedTunnelState;
  /** The current run's program, while it runs. */
  readonly pid: number | undefined;
  onState(listener: (s: SupervisedTunnelState) => void): () => void;
  /** The machine woke up: connections are likely dead, start again now. */
  wake(): void;
  stop(): Promise<void>;
}

const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, maxMs: 60_000 };
/** While starting, the self-check is tried this often until one comes back. */
const FIRST_CHECK_MS = 300;

export function superviseTunnel(o: SupervisorOptions): TunnelSupervisor {
  const s = new Supervision(o);
  s.launch();
  return s;
}

/** One supervised tunnel: its runs (numbered), its timer and its backoff. */
class Supervision implements TunnelSupervisor {
  readonly #o: SupervisorOptions;
  readonly #checkEveryMs: number;
  readonly #recheckMs: number;
  readonly #failuresToRestart: number;
  readonly #startTimeoutMs: number;
  readonly #backoff: Backoff;
  readonly #stableMs: number;
  readonly #listeners = new Set<(s: SupervisedTunnelState) => void>();
  #state: SupervisedTunnelState = { status: 'starting' };
  /** Each run has its own number: callbacks of an earlier run do nothing. */
  #run = 0;
  #runner: TunnelRunner | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #restarts = 0;
  #liveSince: number | null = null;
  #stopped = false;

  constructor(o: SupervisorOptions) {
    this.#o = o;
    this.#checkEveryMs = o.checkEveryMs ?? 10_000;
    this.#recheckMs = o.recheckMs ?? 1000;
    this.#failuresToRestart = o.failuresToRestart ?? 2;
    this.#startTimeoutMs = o.startTimeoutMs ?? 30_000;
    this.#backoff = o.backoff ?? DEFAULT_BACKOFF;
    this.#stableMs = o.stableMs ?? 60_000;
  }

  #setState(s: SupervisedTunnelState): void {
    this.#state = s;
    if (s.status !== 'running') this.#o.log?.info('Tunnel supervisor state changed.', s);
    for (const l of this.#listeners) {
      try {
        l(s);
      } catch (e) {
        this.#o.log?.error('A tunnel state listener failed.', { error: String(e) });
      }
    }
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #later(ms: number, f: () => void): void {
    this.#clearTimer();
    this.#timer = setTimeout(f, ms);
    this.#timer.unref?.();
  }

  #endRunner(): Promise<void> {
    const r = this.#runner;
    this.#runner = null;
    return r ? r.stop() : Promise.resolve();
  }

  #restartLater(reason: string): void {
    const mine = ++this.#run;
    this.#clearTimer();
    if (this.#liveSince !== null && systemClock.now() - this.#liveSince >= this.#stableMs) this.#restarts = 0;
    this.#liveSince = null;
    const wait = backoffDelay(this.#restarts + 1, this.#backoff, noJitter);
    this.#restarts++;
    this.#setState({ status: 'restarting', reason, at: systemClock.now() + wait });
    void this.#endRunner().then(() => {
      const state = this.#state;
      if (mine === this.#run && !this.#stopped)
        this.#later(Math.max(0, state.status === 'restarting' ? state.at - systemClock.now() : 0), () => this.launch());
    });
  }

  /** Self-checks: until the first comes back while starting, then every `checkEveryMs`. */
  #checkLoop(mine: number, url: string, deadline: number | null, failures: number): void {
    this.#o.check(url).then(
      (problem) => this.#afterCheck(mine, url, deadline, failures, problem),
      (e: unknown) => this.#afterCheck(mine, url, deadline, failures, String(e)),
    );
  }

  async #afterCheck(mine: number, url: string, deadline: number | null, failures: number, problem: string | null): Promise<void> {
    if (mine !== this.#run || this.#stopped) return;
    if (deadline !== null) return this.#afterStartCheck(mine, url, deadline, problem);
    if (problem === null) {
      this.#setState({ status: 'running', url, checkedAt: systemClock.now() });
      this.#later(this.#checkEveryMs, () => this.#checkLoop(mine, url, null, 0));
    } else if (failures + 1 >= this.#failuresToRestart) {
      this.#restartLater(`The tunnel stopped forwarding. ${problem}`);
    } else {
      this.#later(this.#recheckMs, () => this.#checkLoop(mine, url, null, failures + 1));
    }
  }

  /** Starting: the program may need a moment before it forwards. */
  async #afterStartCheck(mine: number, url: string, deadline: number, problem: string | null): Promise<void> {
    if (problem === null) {
      if (this.#o.onLive) {
        try {
          await this.#o.onLive(url);
        } catch (e) {
          this.#o.log?.warn('After the tunnel came up, registering or resyncing failed.', { error: String(e) });
        }
        if (mine !== this.#run || this.#stopped) return;
      }
      this.#liveSince = systemClock.now();
      this.#setState({ status: 'running', url, checkedAt: systemClock.now() });
      this.#later(this.#checkEveryMs, () => this.#checkLoop(mine, url, null, 0));
    } else if (systemClock.now() >= deadline) {
      this.#restartLater(
        `The tunnel gave ${url} but nothing came back through it within ${Math.round(this.#startTimeoutMs / 1000)} s. ${problem}`,
      );
    } else {
      this.#later(FIRST_CHECK_MS, () => this.#checkLoop(mine, url, deadline, 0));
    }
  }

  #onRunner(mine: number, s: TunnelState, deadline: number): void {
    if (mine !== this.#run || this.#stopped) return;
    if (s.status === 'running') {
      this.#setState({ status: 'starting', url: s.url });
      this.#checkLoop(mine, s.url, deadline, 0);
    } else if (s.status === 'failed') {
      if (s.retry) {
        this.#restartLater(s.reason);
      } else {
        ++this.#run;
        this.#clearTimer();
        void this.#endRunner();
        this.#setState({ status: 'failed', reason: s.reason });
      }
    }
  }

  /** Starts a run of the program. */
  launch(): void {
    if (this.#stopped) return;
    const mine = ++this.#run;
    this.#clearTimer();
    this.#setState({ status: 'starting' });
    const deadline = systemClock.now() + this.#startTimeoutMs;
    const r = this.#o.start();
    this.#runner = r;
    r.onState((s) => this.#onRunner(mine, s, deadline));
    // Whatever the runner already knows (a fixed URL, a spawn that failed at once).
    if (r.state.status !== 'starting') this.#onRunner(mine, r.state, deadline);
    // A program that prints a URL but never forwards is caught by the check deadline; one that
    // prints nothing by the runner's own start timeout.
  }

  get state(): SupervisedTunnelState {
    return this.#state;
  }

  get pid(): number | undefined {
    return this.#runner?.pid;
  }

  onState(listener: (s: SupervisedTunnelState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  wake(): void {
    if (this.#stopped || this.#state.status === 'failed') return;
    this.#restarts = 0;
    this.#liveSince = null;
    const mine = ++this.#run;
    this.#clearTimer();
    this.#setState({ status: 'restarting', reason: 'The computer woke from sleep; the tunnel starts again.', at: systemClock.now() });
    void this.#endRunner().then(() => {
      if (mine === this.#run) this.launch();
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    ++this.#run;
    this.#clearTimer();
    await this.#endRunner();
    this.#setState({ status: 'stopped' });
  }
}
