import { isCanonicalInstant, readingInZone, wallClockOf } from '../../src-shared/concepts';
import { fixedZone, learnedOffset, parseZone, wallTimeOf, type ServiceZone } from '../../src-shared/service-zone';
import type { Logger } from '../log';

/**
 * How one workspace's service writes date-times (README: "Date-times without an offset"): with
 * an offset (or `Z`), read as they say; or as wall time with none (Java's `LocalDateTime`), read
 * in the service's zone. The zone is the workspace's setting when the user gave one, else the
 * one learned from the service's own time for a record the console just wrote against the HTTP
 * `Date` header of that answer, else UTC until a write teaches it. Date-times the console sends
 * are written the way the service writes them.
 */

/** What the console learned of a service's date-times, kept per workspace. */
export interface LearnedTime {
  /** The service's offset in minutes east of UTC, learned from a write's answer; null: not yet. */
  offsetMinutes: number | null;
  /** The service has been seen writing date-times without an offset. */
  wallTime: boolean;
}

export interface ServiceTimeOptions {
  /** The workspace's setting (`UTC`, `-03:00`, `America/Sao_Paulo`); null or blank: learn it. */
  configured?: () => string | null;
  /** What was learned before (the workspace's setting), read once. */
  learned?: LearnedTime | null;
  /** Something new was learned: kept for the next start. */
  onLearned?: (learned: LearnedTime) => void;
  /** The learned offset moved the zone date-times are read in: what was read before is off. */
  onZoneChange?: () => void;
  log?: Logger | undefined;
}

/** The fields whose time is the record's last write: "now", in an answer to a save. */
const WRITE_TIMES = ['updatedAt', 'createdAt', 'lastModifiedDate', 'modifiedAt'] as const;
/**
 * Fields of free text in what the console sends: a message could be exactly an ISO instant, and
 * the customer would be sent another text. Never rewritten.
 */
const FREE_TEXT = new Set([
  'message',
  'caption',
  'text',
  'comment',
  'description',
  'subject',
  'body',
  'suggestion',
  'question',
  'answer',
  'name',
  'title',
  'note',
  'summary',
  'content',
  'prompt',
  'sentence',
  'query',
  'input',
  'transcript',
]);

export class ServiceTime {
  readonly #o: ServiceTimeOptions;
  #learned: LearnedTime;
  #configuredSpec: string | null = null;
  #configured: ServiceZone | null = null;

  constructor(o: ServiceTimeOptions = {}) {
    this.#o = o;
    this.#learned = o.learned ?? { offsetMinutes: null, wallTime: false };
  }

  /** The zone date-times without an offset are read in; null: UTC (nothing set nor learned). */
  get zone(): ServiceZone | null {
    const spec = this.#o.configured?.()?.trim() || null;
    if (spec !== this.#configuredSpec) {
      this.#configuredSpec = spec;
      this.#configured = spec ? parseZone(spec) : null;
    }
    if (this.#configured) return this.#configured;
    return this.#learned.offsetMinutes === null ? null : fixedZone(this.#learned.offsetMinutes);
  }

  get learned(): LearnedTime {
    return { ...this.#learned };
  }

  /** Reads an answer (`read` parses it) in the service's zone, noting whether it wrote wall time. */
  read<T>(read: () => T): T {
    return readingInZone(this.zone, read, () => {
      if (!this.#learned.wallTime) this.#set({ ...this.#learned, wallTime: true });
    });
  }

  /**
   * Learns the service's offset from the answer to a write: the record's own time of that write
   * (`updatedAt`, else `createdAt`), written with no offset, against the answer's `Date` header.
   * An answer whose times carry an offset, or whose time is not "now" (an old `createdAt`), or
   * with no `Date` header teaches nothing.
   */
  learnFromWrite(body: unknown, dateHeader: string | undefined): void {
    if (!dateHeader || body === null || typeof body !== 'object' || Array.isArray(body)) return;
    const headerMs = Date.parse(dateHeader);
    if (!Number.isFinite(headerMs)) return;
    const rec = body as Record<string, unknown>;
    for (const key of WRITE_TIMES) {
      const wall = wallClockOf(rec[key]);
      if (wall === null) continue;
      const offset = learnedOffset(wall, headerMs);
      if (offset === null) continue;
      if (offset !== this.#learned.offsetMinutes || !this.#learned.wallTime) {
        this.#o.log?.info('service time zone learned', { offset: fixedZone(offset).name, from: key });
        const before = this.zone?.name ?? 'UTC';
        this.#set({ offsetMinutes: offset, wallTime: true });
        if ((this.zone?.name ?? 'UTC') !== before) this.#o.onZoneChange?.();
      }
      return;
    }
  }

  /**
   * A date-time the console sends (an ISO instant), as the service writes them: wall time in its
   * zone with no offset when it writes so and its zone is known; else as it is (ISO UTC).
   */
  out(iso: string): string {
    const zone = this.zone;
    if (!zone || !this.#learned.wallTime) return iso;
    return isCanonicalInstant(iso) ? wallTimeOf(Date.parse(iso), zone) : iso;
  }

  /**
   * A JSON body on its way to the service, with every date-time the console holds (ISO instants
   * as the readers write them) written the service's way (`out`); free-text fields stay as typed.
   * The same value when nothing is to change.
   */
  body(value: unknown): unknown {
    if (!this.zone || !this.#learned.wallTime) return value;
    const walk = (v: unknown, key: string | null): unknown => {
      if (typeof v === 'string') return key !== null && FREE_TEXT.has(key) ? v : isCanonicalInstant(v) ? this.out(v) : v;
      if (Array.isArray(v)) return v.map((x) => walk(x, null));
      if (v === null || typeof v !== 'object') return v;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, k);
      return out;
    };
    return walk(value, null);
  }

  #set(learned: LearnedTime): void {
    this.#learned = learned;
    this.#o.onLearned?.({ ...learned });
  }
}
