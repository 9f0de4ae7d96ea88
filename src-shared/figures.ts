/**
 * The supervisor's figures from attendance time report rows: counts, medians and 90th percentiles
 * of waiting and attendance time, the share answered within the group's SLA, per hour of the day
 * and per day. Pure: the rows are read once per period and every view (overview, per attendant,
 * per group, trend) is computed from them here, on either side of the bridge.
 */

/** What the figures read of a report row (the bridge's ReportRow has these and more). */
export interface FigureRow {
  agentName: string | null;
  groupName: string | null;
  createdAtProtocol: string | null;
  waitingTime: number | null;
  attendanceTime: number | null;
}

/** Where an instant falls on the clock the figures are read in. */
export interface ClockPoint {
  /** YYYY-MM-DD */
  day: string;
  /** 0–23 */
  hour: number;
}
export type Clock = (ms: number) => ClockPoint;

const pad = (n: number) => String(n).padStart(2, '0');

/** The clock of this machine's zone (what the date inputs of the views mean). */
export const localClock: Clock = (ms) => {
  const d = new Date(ms);
  return { day: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, hour: d.getHours() };
};

/** The clock of a named zone (IANA). */
export function zoneClock(timeZone: string): Clock {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  });
  return (ms) => {
    const parts = f.formatToParts(new Date(ms));
    const p = (t: string) => parts.find((x) => x.type === t)?.value ?? '00';
    return { day: `${p('year')}-${p('month')}-${p('day')}`, hour: Number(p('hour')) };
  };
}

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The nearest-rank percentile: the smallest value with at least p% of the values at or below it. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length))) - 1]!;
}

export interface Figures {
  sessions: number;
  waitingMedian: number | null;
  waitingP90: number | null;
  attendanceMedian: number | null;
  attendanceP90: number | null;
  /** Percent of the sessions of groups with an SLA that waited no longer than it; null when none had one. */
  withinSla: number | null;
  /** Sessions counted for `withinSla` (their group has an SLA and they have a waiting time). */
  slaCounted: number;
}

const nums = (rows: readonly FigureRow[], f: (r: FigureRow) => number | null) =>
  rows.map(f).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));

/** `slaOf`: a group's SLA in seconds, or null when it has none (or is not known). */
export function figuresOf(rows: readonly FigureRow[], slaOf: (groupName: string | null) => number | null): Figures {
  const waiting = nums(rows, (r) => r.waitingTime);
  const attendance = nums(rows, (r) => r.attendanceTime);
  let counted = 0,
    within = 0;
  for (const r of rows) {
    const sla = slaOf(r.groupName);
    if (sla === null || r.waitingTime === null) continue;
    counted++;
    if (r.waitingTime <= sla) within++;
  }
  return {
    sessions: rows.length,
    waitingMedian: median(waiting),
    waitingP90: percentile(waiting, 90),
    attendanceMedian: median(attendance),
    attendanceP90: percentile(attendance, 90),
    withinSla: counted ? (within / counted) * 100 : null,
    slaCounted: counted,
  };
}

/** Figures per attendant or per group, by name (rows without one under ""), busiest first. */
export function figuresBy(
  rows: readonly FigureRow[],
  key: 'agentName' | 'groupName',
  slaOf: (groupName: string | null) => number | null,
): Array<{ name: string } & Figures> {
  const parts = new Map<string, FigureRow[]>();
  for (const r of rows) {
    const k = r[key] ?? '';
    let list = parts.get(k);
    if (!list) parts.set(k, (list = []));
    list.push(r);
  }
  return [...parts.entries()]
    .map(([name, list]) => ({ name, ...figuresOf(list, slaOf) }))
    .sort((a, b) => b.sessions - a.sessions || a.name.localeCompare(b.name));
}

const MS = 1000;
/** A wait is followed minute by minute for at most this long (longer ones are still counted to here). */
const LONGEST_WAIT_MS = 7 * 24 * 3600 * MS;

export interface HourFigures {
  hour: number;
  /** Sessions that began in this hour of the day (every day of the period together). */
  arrived: number;
  /** Sessions that waited for an attendant during this hour (once per day they waited in it). */
  waiting: number;
  /** Sessions an attendant took in this hour (the start plus the waiting time). */
  answered: number;
}

/** Customers arriving, waiting and answered per hour of the day, on the given clock. */
export function hourly(rows: readonly FigureRow[], clock: Clock): HourFigures[] {
  const out = Array.from({ length: 24 }, (_, hour) => ({ hour, arrived: 0, waiting: 0, answered: 0 }));
  for (const r of rows) {
    const start = r.createdAtProtocol ? Date.parse(r.createdAtProtocol) : NaN;
    if (Number.isNaN(start)) continue;
    out[clock(start).hour]!.arrived++;
    if (r.waitingTime === null || !Number.isFinite(r.waitingTime)) continue;
    const end = start + Math.max(0, r.waitingTime) * MS;
    out[clock(end).hour]!.answered++;
    // Each clock hour the wait touched, once: minute steps find every hour on any zone's clock.
    const touched = new Set<string>();
    for (let t = start; t < end && t - start <= LONGEST_WAIT_MS; t += 60 * MS) {
      const p = clock(t);
      touched.add(`${p.day}T${p.hour}`);
    }
    const last = clock(Math.max(start, end - 1));
    if (end > start) touched.add(`${last.day}T${last.hour}`);
    for (const k of touched) out[Number(k.slice(k.indexOf('T') + 1))]!.waiting++;
  }
  return out;
}

/** Every day from `from` to `to` (YYYY-MM-DD, both included). */
export function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  // Noon UTC steps by whole days whatever the zone's clock changes do.
  for (let t = Date.UTC(y, m - 1, d, 12); out.length < 3700; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    if (day > to) break;
    out.push(day);
  }
  return out;
}

/** The period of the same number of days just before [from, to]. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const n = Math.max(1, daysOf(from, to).length);
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  const day = (k: number) => new Date(Date.UTC(y, m - 1, d + k, 12)).toISOString().slice(0, 10);
  return { from: day(-n), to: day(-1) };
}

/** One point per day of the period, days without sessions included. */
export function daily(
  rows: readonly FigureRow[],
  days: readonly string[],
  clock: Clock,
  slaOf: (groupName: string | null) => number | null,
): Array<{ day: string } & Figures> {
  const byDay = new Map<string, FigureRow[]>(days.map((d) => [d, []]));
  for (const r of rows) {
    const t = r.createdAtProtocol ? Date.parse(r.createdAtProtocol) : NaN;
    if (!Number.isNaN(t)) byDay.get(clock(t).day)?.push(r);
  }
  return days.map((day) => ({ day, ...figuresOf(byDay.get(day) ?? [], slaOf) }));
}

/** The rows that began within [from, to] by the clock's day. */
export function rowsWithin<R extends FigureRow>(rows: readonly R[], from: string, to: string, clock: Clock): R[] {
  return rows.filter((r) => {
    const t = r.createdAtProtocol ? Date.parse(r.createdAtProtocol) : NaN;
    if (Number.isNaN(t)) return false;
    const day = clock(t).day;
    return day >= from && day <= to;
  });
}

/** NPS per day from the survey answers' scores: the index (positive − negative) / answers × 100, null on a day without one. */
export function npsDaily(
  answers: ReadonlyArray<{ at: string; score: number | null }>,
  days: readonly string[],
  clock: Clock,
): Array<{ day: string; answers: number; nps: number | null }> {
  const counts = new Map(days.map((d) => [d, { n: 0, positive: 0, negative: 0 }]));
  for (const a of answers) {
    if (a.score === null) continue;
    const t = Date.parse(a.at);
    const c = Number.isNaN(t) ? undefined : counts.get(clock(t).day);
    if (!c) continue;
    c.n++;
    if (a.score >= 9) c.positive++;
    else if (a.score <= 6) c.negative++;
  }
  return days.map((day) => {
    const c = counts.get(day)!;
    return { day, answers: c.n, nps: c.n ? Math.round(((c.positive - c.negative) / c.n) * 1000) / 10 : null };
  });
}
