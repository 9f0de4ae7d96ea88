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
  const checkEveryMs = o.checkEveryMs ?? 10_000;
  const recheckMs = o.recheckMs ?? 1000;
  const failuresToRestart = o.failuresToRestart ?? 2;
  const startTimeoutMs = o.startTimeoutMs ?? 30_000;
  const backoff = o.backoff ?? DEFAULT_BACKOFF;
  const stableMs = o.stableMs ?? 60_000;
  const listeners = new Set<(s: SupervisedTunnelState) => void>();

  let state: SupervisedTunnelState = { status: 'starting' };
  /** Each run has its own number: callbacks of an earlier run do nothing. */
  let run = 0;
  let runner: TunnelRunner | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let restarts = 0;
  let liveSince: number | null = null;
  let stopped = false;

  const setState = (s: SupervisedTunnelState) => {
    state = s;
    if (s.status !== 'running') o.log?.info('Tunnel supervisor state changed.', s);
    for (const l of listeners) {
      try {
        l(s);
      } catch (e) {
        o.log?.error('A tunnel state listener failed.', { error: String(e) });
      }
    }
  };
  const clearTimer = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const later = (ms: number, f: () => void) => {
    clearTimer();
    timer = setTimeout(f, ms);
    timer.unref?.();
  };
  const endRunner = () => {
    const r = runner;
    runner = null;
    return r ? r.stop() : Promise.resolve();
  };

  function restartLater(reason: string): void {
    const mine = ++run;
    clearTimer();
    if (liveSince !== null && systemClock.now() - liveSince >= stableMs) restarts = 0;
    liveSince = null;
    const wait = backoffDelay(restarts + 1, backoff, noJitter);
    restarts++;
    setState({ status: 'restarting', reason, at: systemClock.now() + wait });
    void endRunner().then(() => {
      if (mine === run && !stopped) later(Math.max(0, state.status === 'restarting' ? state.at - systemClock.now() : 0), launch);
    });
  }

  /** Self-checks: until the first comes back while starting, then every `checkEveryMs`. */
  function checkLoop(mine: number, url: string, deadline: number | null, failures: number): void {
    o.check(url).then(
      (problem) => afterCheck(mine, url, deadline, failures, problem),
      (e: unknown) => afterCheck(mine, url, deadline, failures, String(e)),
    );
  }

  async function afterCheck(mine: number, url: string, deadline: number | null, failures: number, problem: string | null): Promise<void> {
    if (mine !== run || stopped) return;
    if (deadline !== null) {
      // Starting: the program may need a moment before it forwards.
      if (problem === null) {
        if (o.onLive) {
          try {
            await o.onLive(url);
          } catch (e) {
            o.log?.warn('After the tunnel came up, registering or resyncing failed.', { error: String(e) });
          }
          if (mine !== run || stopped) return;
        }
        liveSince = systemClock.now();
        setState({ status: 'running', url, checkedAt: systemClock.now() });
        later(checkEveryMs, () => checkLoop(mine, url, null, 0));
      } else if (systemClock.now() >= deadline) {
        restartLater(`The tunnel gave ${url} but nothing came back through it within ${Math.round(startTimeoutMs / 1000)} s. ${problem}`);
      } else {
        later(FIRST_CHECK_MS, () => checkLoop(mine, url, deadline, 0));
      }
      return;
    }
    if (problem === null) {
      setState({ status: 'running', url, checkedAt: systemClock.now() });
      later(checkEveryMs, () => checkLoop(mine, url, null, 0));
    } else if (failures + 1 >= failuresToRestart) {
      restartLater(`The tunnel stopped forwarding. ${problem}`);
    } else {
      later(recheckMs, () => checkLoop(mine, url, null, failures + 1));
    }
  }

  function onRunner(mine: number, s: TunnelState, deadline: number): void {
    if (mine !== run || stopped) return;
    if (s.status === 'running') {
      setState({ status: 'starting', url: s.url });
      checkLoop(mine, s.url, deadline, 0);
    } else if (s.status === 'failed') {
      if (s.retry) {
        restartLater(s.reason);
      } else {
        ++run;
        clearTimer();
        void endRunner();
        setState({ status: 'failed', reason: s.reason });
      }
    }
  }

  function launch(): void {
    if (stopped) return;
    const mine = ++run;
    clearTimer();
    setState({ status: 'starting' });
    const deadline = systemClock.now() + startTimeoutMs;
    const r = o.start();
    runner = r;
    r.onState((s) => onRunner(mine, s, deadline));
    // Whatever the runner already knows (a fixed URL, a spawn that failed at once).
    if (r.state.status !== 'starting') onRunner(mine, r.state, deadline);
    // A program that prints a URL but never forwards is caught by the check deadline; one that
    // prints nothing by the runner's own start timeout.
  }

  launch();

  return {
    get state() {
      return state;
    },
    get pid() {
      return runner?.pid;
    },
    onState(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    wake() {
      if (stopped || state.status === 'failed') return;
      restarts = 0;
      liveSince = null;
      const mine = ++run;
      clearTimer();
      setState({ status: 'restarting', reason: 'The computer woke from sleep; the tunnel starts again.', at: systemClock.now() });
      void endRunner().then(() => {
        if (mine === run) launch();
      });
    },
    async stop() {
      stopped = true;
      ++run;
      clearTimer();
      await endRunner();
      setState({ status: 'stopped' });
    },
  };
}
