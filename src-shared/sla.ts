/**
 * A session against its attendance group's SLA (interface §2.6: `sla` in `timeUnit`, and
 * `warningRatio`): the one rule the queue, "Needs me" and the main process's ordering follow.
 */

/** Seconds in one unit of a group's `timeUnit` (interface §2.6 lists these seven). */
export const SLA_UNIT_SECONDS: Readonly<Record<string, number>> = {
  NANOSECONDS: 1e-9,
  MICROSECONDS: 1e-6,
  MILLISECONDS: 1e-3,
  SECONDS: 1,
  MINUTES: 60,
  HOURS: 3600,
  DAYS: 86400,
};

/**
 * A group's SLA in seconds, or null when it has none. The interface does not say which unit a
 * group without `timeUnit` (or with one outside its list) means: minutes, the unit SLAs are set in.
 */
export function slaSecondsOf(sla: unknown, timeUnit: unknown): number | null {
  if (typeof sla !== 'number' || !Number.isFinite(sla)) return null;
  const unit = typeof timeUnit === 'string' ? timeUnit.trim().toUpperCase() : '';
  return sla * (SLA_UNIT_SECONDS[unit] ?? SLA_UNIT_SECONDS.MINUTES!);
}

/** Percent of the SLA after which its timer turns amber when the group does not say. */
export const DEFAULT_WARNING_RATIO = 80;

/** A group's `warningRatio` as a percent of its SLA (1–100); anything else is the default. */
export function warningRatioOf(v: unknown): number {
  return typeof v === 'number' && v > 0 && v <= 100 ? v : DEFAULT_WARNING_RATIO;
}

/** green: within the SLA; amber: past the group's warning ratio; red: past the SLA; none: no SLA. */
export type SlaState = 'green' | 'amber' | 'red' | 'none';

/** What the rule reads of a session (a queue item carries all three). */
export interface SlaSubject {
  /** When the session began (ISO), the start of its SLA. */
  createdAt: string | null;
  slaSeconds: number | null;
  /** The group's warning ratio (absent: the default). */
  slaWarningRatio?: number | null | undefined;
}

/** When the session's SLA runs out (ms since the epoch), or Infinity without one. */
export function slaDue(s: SlaSubject): number {
  const start = s.createdAt ? Date.parse(s.createdAt) : NaN;
  return s.slaSeconds === null || Number.isNaN(start) ? Infinity : start + s.slaSeconds * 1000;
}

/** Where a session stands at `now` (ms): its state, and the seconds left (negative once late; NaN without an SLA). */
export function slaState(s: SlaSubject, now: number): { state: SlaState; leftSeconds: number } {
  const due = slaDue(s);
  if (due === Infinity || s.slaSeconds === null) return { state: 'none', leftSeconds: NaN };
  const left = (due - now) / 1000;
  if (left <= 0) return { state: 'red', leftSeconds: left };
  const ratio = warningRatioOf(s.slaWarningRatio);
  const waited = s.slaSeconds - left;
  return { state: waited >= (s.slaSeconds * ratio) / 100 ? 'amber' : 'green', leftSeconds: left };
}

/** The next moment after `now` (ms) at which `slaState` says something else (amber, then red); Infinity when none comes. */
export function slaChangesAt(s: SlaSubject, now: number): number {
  const due = slaDue(s);
  if (due === Infinity || s.slaSeconds === null) return Infinity;
  const amber = due - s.slaSeconds * 1000 + (s.slaSeconds * 1000 * warningRatioOf(s.slaWarningRatio)) / 100;
  return [amber, due].find((at) => at > now) ?? Infinity;
}
