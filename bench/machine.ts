// How busy the machine is with work that is not the bench's own. A figure measured while other
// programs take the cores judges the machine, not the console, so `npm run bench` reads this
// before and during each module and leaves a missed budget "not judged" when it was busy.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/**
 * The machine counts as busy when work other than the bench's uses more than this share of its
 * cores before a module (sampled while the bench itself is idle)...
 */
const BUSY_SHARE = 0.5;
/**
 * ...or this share on average while the module ran: then the module competes for the cores, and
 * a program that would take them all gets only its share of them.
 */
export const BUSY_SHARE_DURING = 0.25;
/** How long the bench waits for a busy machine to quiet down before a module (`BENCH_QUIET_WAIT`, seconds). */
const QUIET_WAIT_S = Number(process.env.BENCH_QUIET_WAIT ?? 120);
const SAMPLE_MS = 2_000;
/** Linux's clock ticks per second in /proc (USER_HZ, 100 on every architecture Node runs on). */
const TICKS_PER_S = 100;
const POLL_MS = 5_000;

/** What the machine was doing: `others` in cores (others' CPU use); `load1` the 1-minute load average. */
export interface BusyReading {
  others: number;
  /** The bench's own processes' CPU use in cores, and the seconds read (with /proc). */
  ours?: number;
  seconds?: number;
  load1: number;
  cores: number;
  /** How it was read: from /proc (others' CPU time) or, without /proc, the load average alone. */
  source: 'cpu' | 'load';
}

/** Busy when others take more than `share` of the cores (by the load average where that is all there is). */
export function isBusy(r: BusyReading, share = BUSY_SHARE): boolean {
  return (r.source === 'cpu' ? r.others : r.load1) > share * r.cores;
}

/** A short sentence for the report: what others used, and the load average. */
export function describeBusy(r: BusyReading): string {
  const used = r.source === 'cpu' ? `others used ${r.others.toFixed(1)} of ${r.cores} cores, ` : '';
  return `${used}load average ${r.load1.toFixed(2)}`;
}

/** The machine's busy and total clock ticks, from /proc/stat (null where there is none: not Linux). */
function machineTicks(): { busy: number; total: number } | null {
  let line: string | undefined;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  } catch {
    return null;
  }
  // cpu user nice system idle iowait irq softirq steal (guest time is already in user).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = (line ?? '').trim().split(/\s+/).slice(1).map(Number);
  const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
  return { busy, total: busy + idle! + iowait! };
}

/** One process as /proc tells it: its parent, when it started, its own ticks and its waited-for children's. */
interface ProcTicks {
  pid: number;
  ppid: number;
  /** The process's start (ticks since boot): a pid with another start is another process. */
  start: string;
  own: number;
  reaped: number;
}

function readProcs(): ProcTicks[] {
  const out: ProcTicks[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // Fields after the command name (which may hold spaces and parentheses): state(3) ppid(4) ... utime(14) stime cutime cstime ... starttime(22).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.push({
      pid: Number(name),
      ppid: Number(f[1]),
      start: f[19]!,
      own: Number(f[11]) + Number(f[12]),
      reaped: Number(f[13]) + Number(f[14]),
    });
  }
  return out;
}

/**
 * The bench's own CPU time: its process and every process it started, followed by sampling.
 * A process that exits while its parent is the bench's is counted by that parent (its waited-for
 * children's time); one the bench's tree has let go of (a closed browser's renderers, re-parented
 * to init when the browser exits first) stays the bench's at its last reading. What a process
 * uses after the last sample before it exits is not seen.
 */
class OwnTicks {
  readonly #root: number;
  /** The bench's processes at the last sample, by pid and start, with whether their parent was the bench's. */
  #known = new Map<string, ProcTicks & { orphan: boolean }>();
  /** Ticks of the bench's processes that exited with no parent of the bench's to count them. */
  #gone = 0;

  constructor(root: number) {
    this.#root = root;
  }

  /** Reads /proc and returns the bench's ticks so far. */
  sample(): number {
    const procs = readProcs();
    const children = new Map<number, ProcTicks[]>();
    const alive = new Map<string, ProcTicks>();
    for (const p of procs) {
      alive.set(`${p.pid}:${p.start}`, p);
      const list = children.get(p.ppid);
      if (list) list.push(p);
      else children.set(p.ppid, [p]);
    }
    // Ours: the root, every process ours before (wherever it was re-parented to), and their descendants.
    const ours = new Map<string, ProcTicks>();
    const stack = procs.filter((p) => p.pid === this.#root || this.#known.has(`${p.pid}:${p.start}`));
    while (stack.length) {
      const p = stack.pop()!;
      const key = `${p.pid}:${p.start}`;
      if (ours.has(key)) continue;
      ours.set(key, p);
      stack.push(...(children.get(p.pid) ?? []));
    }
    for (const [key, last] of this.#known) if (!alive.has(key) && last.orphan) this.#gone += last.own + last.reaped;
    const oursPids = new Set([...ours.values()].map((p) => p.pid));
    this.#known = new Map([...ours].map(([key, p]) => [key, { ...p, orphan: p.pid !== this.#root && !oursPids.has(p.ppid) }]));
    let sum = this.#gone;
    for (const p of ours.values()) sum += p.own + p.reaped;
    return sum;
  }
}

/** How often a watch reads the bench's processes (a browser's renderers may live only a second or two). */
const FOLLOW_MS = 500;

/**
 * Measures from `cpuWatch()` to `stop()`: others' average CPU use over that time, the machine's
 * busy time less the bench's own (followed every `everyMs` meanwhile).
 */
export function cpuWatch(everyMs = FOLLOW_MS): { stop(): BusyReading } {
  const cores = cpus().length;
  const from = machineTicks();
  const own = new OwnTicks(process.pid);
  const ownFrom = from ? own.sample() : 0;
  const timer = from ? setInterval(() => own.sample(), everyMs).unref() : null;
  return {
    stop() {
      if (timer) clearInterval(timer);
      const to = from && machineTicks();
      const load1 = loadavg()[0]!;
      if (!from || !to || to.total <= from.total) return { others: 0, load1, cores, source: 'load' };
      const total = to.total - from.total;
      const ours = own.sample() - ownFrom;
      const others = Math.max(0, to.busy - from.busy - ours) / total;
      return { others: others * cores, ours: (ours / total) * cores, seconds: total / cores / TICKS_PER_S, load1, cores, source: 'cpu' };
    },
  };
}

/** Others' CPU use over a short sample taken now (the bench idle meanwhile). */
async function sampleBusy(ms = SAMPLE_MS): Promise<BusyReading> {
  const w = cpuWatch();
  await new Promise((r) => setTimeout(r, ms));
  return w.stop();
}

/**
 * Before a module: samples the machine, and while it is busy waits (up to `waitS` seconds,
 * sampling every few seconds) for it to quiet down. Returns the last reading, busy or not.
 */
export async function waitForQuiet(waitS = QUIET_WAIT_S, onWait?: (r: BusyReading) => void): Promise<BusyReading> {
  const until = performance.now() + waitS * 1000;
  let r = await sampleBusy();
  while (isBusy(r) && performance.now() < until) {
    onWait?.(r);
    await new Promise((res) => setTimeout(res, POLL_MS));
    r = await sampleBusy();
  }
  return r;
}
