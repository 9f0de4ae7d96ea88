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

/** Clock ticks: the whole machine's busy and total time, and the busy time of the bench's process tree. */
interface CpuTicks {
  busy: number;
  total: number;
  ours: number;
}

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

/** Sums utime, stime, cutime and cstime of `root` and its live descendants (a reaped child's time is in its parent's cutime). */
function treeTicks(root: number): number {
  const children = new Map<number, number[]>();
  const own = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // Fields after the command name (which may hold spaces and parentheses): state ppid ... utime(14) stime cutime cstime.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(name);
    const ppid = Number(f[1]);
    own.set(pid, Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  let sum = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    sum += own.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return sum;
}

/** The machine's ticks now, or null where there is no /proc (not Linux). */
function readTicks(): CpuTicks | null {
  let line: string | undefined;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  } catch {
    return null;
  }
  // cpu user nice system idle iowait irq softirq steal (guest time is already in user).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = (line ?? '').trim().split(/\s+/).slice(1).map(Number);
  const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
  return { busy, total: busy + idle! + iowait!, ours: treeTicks(process.pid) };
}

/** Measures from `start()` to `stop()`: others' average CPU use over that time. */
export function cpuWatch(): { stop(): BusyReading } {
  const cores = cpus().length;
  const from = readTicks();
  return {
    stop() {
      const to = from && readTicks();
      const load1 = loadavg()[0]!;
      if (!from || !to || to.total <= from.total) return { others: 0, load1, cores, source: 'load' };
      const total = to.total - from.total;
      const ours = to.ours - from.ours;
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
