/**
 * The zone a service's date-times without an offset are wall time in (README: "Date-times
 * without an offset"). A server that writes Java's `LocalDateTime` says "2026-11-29T10:15:00" and
 * means ten past ten where it runs; the console reads that in this zone, never in its own
 * machine's, and writes date-times back to such a service the same way.
 */

export interface ServiceZone {
  /** As the user or the log reads it: `-03:00`, `America/Sao_Paulo`, `UTC`. */
  readonly name: string;
  /** Minutes east of UTC at the instant `utcMs` (negative west of Greenwich). */
  offsetAt(utcMs: number): number;
}

/** The widest offsets in use (Kiribati +14:00, Baker Island -12:00), with a margin. */
export const MAX_OFFSET_MINUTES = 14 * 60;

/** `-180` -> `-03:00`. */
export function offsetName(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A fixed offset in minutes east of UTC. */
export function fixedZone(minutes: number): ServiceZone {
  return { name: minutes === 0 ? 'UTC' : offsetName(minutes), offsetAt: () => minutes };
}

export const UTC_ZONE: ServiceZone = fixedZone(0);

const OFFSET = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i;

/** Minutes east of UTC at `utcMs`, from the wall-clock fields `format` gives in its zone. */
function ianaOffset(format: Intl.DateTimeFormat, utcMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour! % 24, parts.minute, parts.second);
  // Whole seconds on both sides: the offset is whole minutes.
  return Math.round((wall - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

/**
 * A zone as a person writes it: `UTC`, an offset (`-03:00`, `+0530`, `UTC-3`) or an IANA name
 * (`America/Sao_Paulo`, whose offset follows its daylight-saving rules). Null when it names none.
 */
export function parseZone(spec: string): ServiceZone | null {
  const t = spec.trim();
  if (!t) return null;
  if (/^(UTC|GMT|Z)$/i.test(t)) return UTC_ZONE;
  const m = OFFSET.exec(t);
  if (m) {
    const minutes = (Number(m[2]) * 60 + Number(m[3] ?? 0)) * (m[1] === '-' ? -1 : 1);
    return Math.abs(minutes) <= MAX_OFFSET_MINUTES && Number(m[3] ?? 0) < 60 ? fixedZone(minutes) : null;
  }
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: t,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return null;
  }
  const name = format.resolvedOptions().timeZone;
  return { name, offsetAt: (utcMs) => ianaOffset(format, utcMs) };
}

/**
 * The instant of a wall-clock time in `zone`; `wallMs` is that wall time read as if it were UTC.
 * Twice round: the offset is the one in force at the instant found (a daylight-saving change).
 */
export function wallToInstant(wallMs: number, zone: ServiceZone): number {
  const first = wallMs - zone.offsetAt(wallMs) * 60_000;
  return wallMs - zone.offsetAt(first) * 60_000;
}

/** An instant as wall time in `zone`, with no offset: `2026-11-29T07:15:00.000`. */
export function wallTimeOf(utcMs: number, zone: ServiceZone): string {
  return new Date(utcMs + zone.offsetAt(utcMs) * 60_000).toISOString().slice(0, -1);
}

/** Offsets are whole quarter hours (Nepal +05:45, Chatham +12:45 included). */
const QUARTER_MS = 15 * 60_000;
/**
 * How far a record's own time may stand from the answer's `Date` header, once the offset is taken
 * out: the write's round trip, the header's whole seconds, and two clocks that differ a little.
 */
export const LEARN_TOLERANCE_MS = 2 * 60_000;

/**
 * The service's offset, from a time it wrote without an offset for a record it had just saved
 * (`wallMs`, that wall time read as if it were UTC) and the HTTP `Date` header of the same answer
 * (true UTC): their difference rounded to the quarter hour. Null when the difference is not an
 * offset: too far from a quarter hour (the record's time is not "now": an old `createdAt`), or
 * beyond the widest offset in use.
 */
export function learnedOffset(wallMs: number, dateHeaderMs: number): number | null {
  if (!Number.isFinite(wallMs) || !Number.isFinite(dateHeaderMs)) return null;
  const diff = wallMs - dateHeaderMs;
  const quarters = Math.round(diff / QUARTER_MS);
  const minutes = quarters * 15;
  if (Math.abs(diff - quarters * QUARTER_MS) > LEARN_TOLERANCE_MS) return null;
  if (Math.abs(minutes) > MAX_OFFSET_MINUTES) return null;
  return minutes === 0 ? 0 : minutes;
}
