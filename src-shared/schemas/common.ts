import { z } from 'zod';
import { boolOf, instantOf, intOf, isUnsafeInteger, numOf, record, stringOf, text, unsafeIntegerReason } from '../scalars';

/**
 * Building blocks of the resource schemas (policy: README.md here). Every typed field is read
 * by the one reader of its kind in src-shared/concepts.ts, so a field has one parser and what a
 * schema keeps is what the concept functions read: integers as numbers or digit strings,
 * date-times in any shape `instantOf` reads (kept as ISO 8601 UTC), booleans as booleans or the
 * words. The interface leaves most required flags unstated, so a field is optional and nullable
 * unless the interface marks it required, and every object keeps the fields we do not know about
 * (`.loose()`). A field that cannot be read is absent instead of failing its record (one odd
 * field never costs a record it is not needed for), with one exception: an integer beyond
 * 2^53 - 1 refuses its record with the reason, since no number here carries it exactly.
 */

type Reader<T> = (v: unknown) => T | null;
type Ctx = z.core.$RefinementCtx;

/** The mark of an issue that refuses a whole record (it is not caught by the field around it). */
const REFUSES = 'refusesRecord';

function refuse(ctx: Ctx, v: unknown): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message: unsafeIntegerReason(v), input: v, params: { [REFUSES]: true } });
  return z.NEVER;
}

const refuses = (issue: z.core.$ZodIssue): boolean =>
  issue.code === 'custom' && (issue as { params?: Record<string, unknown> }).params?.[REFUSES] === true;

/**
 * Direct reading. Every builder here registers, beside its zod schema, a plain function that reads
 * a value the same way (`readObject` below runs them field by field in one loop): zod's per-field
 * pipes cost several times JSON.parse on a list page, and a page of sessions is the console's
 * hottest read. The zod schema stays the definition and the only source of issues: a record the
 * direct read cannot take (a refusal, a required field missing) is parsed again by zod for its
 * exact issues. `test/node/shared/direct-read.test.ts` holds the two to the same outputs.
 */
const REFUSED = Symbol('refuses the record');
const INVALID = Symbol('fails this value');
type Failure = typeof REFUSED | typeof INVALID;
type Direct = (v: unknown) => unknown;
/**
 * The values a field's reader gives back unchanged, by kind (a string for a string field, a safe
 * integer for an integer field): `readObject` keeps those without calling the reader, which is
 * most fields of most records. The reader stays the rule; this only says where it is the identity.
 */
type Keeps = 'nothing' | 'strings' | 'booleans' | 'safe integers' | 'finite numbers';
/** A builder's direct reading: its reader, what it keeps as it comes, and whether it reads an absent field (a required one: absence is its failure). */
interface DirectField {
  read: Direct;
  kept: Keeps;
  needed: boolean;
}
const directs = new WeakMap<z.ZodType, DirectField>();

let direct = true;
/** Whether records are read directly (on) or by zod alone (off): tests hold the two to one outcome. */
export function readDirectly(on: boolean): void {
  direct = on;
}

let owned = false;
/**
 * Runs `read` with the records it reads owned by the reader: values parsed from an answer that
 * nothing else holds (a list page). Such a record is read where it is, its few changed fields
 * written back, not copied field by field: most of a page's fields are kept as they come, and the
 * copy cost three times the rest of the reading. Both give one outcome, fields in one order.
 */
export function readingOwned<T>(read: () => T): T {
  const was = owned;
  owned = true;
  try {
    return read();
  } finally {
    owned = was;
  }
}

/** Of a record's failures, the one that decides: a refusal over a failed value. */
const worst = (a: Failure | null, b: unknown): Failure | null =>
  a === REFUSED || b === REFUSED ? REFUSED : (a ?? (b === INVALID ? INVALID : null));

function withDirect<S extends z.ZodType>(schema: S, read: Direct, o: { kept?: Keeps; needed?: boolean } = {}): S {
  directs.set(schema, { read, kept: o.kept ?? 'nothing', needed: o.needed ?? false });
  return schema;
}

/** The direct reader of `schema`, or a safeParse that says the same when it has none. */
function directOf(schema: z.ZodType): Direct {
  const own = directs.get(schema);
  if (own) return own.read;
  if (schema instanceof z.ZodLazy) {
    let inner: Direct | undefined;
    return (v) => (inner ??= directOf(schema.unwrap() as z.ZodType))(v);
  }
  return (v) => {
    const r = schema.safeParse(v);
    return r.success ? r.data : r.error.issues.some(refuses) ? REFUSED : INVALID;
  };
}

const hasDirect = (schema: z.ZodType): boolean => directs.has(schema) || schema instanceof z.ZodLazy;

/** `inner` read directly: a failure that does not refuse the record leaves the value absent. */
function innerDirect(read: Direct, v: unknown): unknown {
  const got = read(v);
  return got === INVALID ? undefined : got;
}

/** A nested parse: its data, or its record-refusing issues passed on, or absent. */
function inner<T>(schema: z.ZodType<T>, v: unknown, ctx: Ctx): T | undefined {
  const r = schema.safeParse(v);
  if (r.success) return r.data;
  const passed = r.error.issues.filter(refuses);
  for (const i of passed) ctx.addIssue({ code: 'custom', message: i.message, path: i.path, input: i.input, params: { [REFUSES]: true } });
  return passed.length ? z.NEVER : undefined;
}

/** Which values refuse their record: an integer beyond 2^53 - 1 where an integer is read. */
type Unsafe = (v: unknown) => boolean;
const noneUnsafe: Unsafe = () => false;
/** A string field refuses only a JSON number it could not write exactly (digits stay text). */
const unsafeNumber: Unsafe = (v) => typeof v === 'number' && isUnsafeInteger(v);

/** A field read by `reader`: null stays null, what it cannot read is absent. */
const field = <T>(reader: Reader<T>, unsafe: Unsafe, kept: Keeps = 'nothing') =>
  withDirect(
    z
      .unknown()
      .transform((v, ctx): T | null | undefined => {
        if (v === null) return null;
        if (unsafe(v)) return refuse(ctx, v);
        return reader(v) ?? undefined;
      })
      .optional(),
    (v) => (v === undefined ? undefined : v === null ? null : unsafe(v) ? REFUSED : (reader(v) ?? undefined)),
    { kept },
  );

/** A field the interface marks required: `reader` must read it, else the answer is broken. */
const required = <T>(reader: Reader<T>, what: string, unsafe: Unsafe) =>
  withDirect(
    z.unknown().transform((v, ctx): T => {
      if (unsafe(v)) return refuse(ctx, v);
      const out = reader(v);
      if (out === null) {
        ctx.addIssue({ code: 'custom', message: `expected ${what}, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`, input: v });
        return z.NEVER;
      }
      return out;
    }),
    (v) => (unsafe(v) ? REFUSED : (reader(v) ?? INVALID)),
    { needed: true },
  );

/** Integers: ids and counters (int64 / int32 in the interface). */
export const int = () => field(intOf, isUnsafeInteger, 'safe integers');
/** Doubles and durations whose unit the interface does not give. */
export const num = () => field(numOf, noneUnsafe, 'finite numbers');
export const str = () => field(stringOf, unsafeNumber, 'strings');
export const bool = () => field(boolOf, noneUnsafe, 'booleans');
/** Date-times, kept as ISO 8601 in UTC: every shape reads to one instant. */
export const dateTime = () => field(instantOf, noneUnsafe);
/** A field whose type the interface does not show at all: kept as it comes, read by concepts.ts. */
export const anyValue = () => withDirect(z.unknown().optional(), (v) => v);

export const reqInt = () => required(intOf, 'an integer', isUnsafeInteger);
export const reqNum = () => required(numOf, 'a number', noneUnsafe);
export const reqStr = () => required(stringOf, 'a string', unsafeNumber);
export const reqBool = () => required(boolOf, 'a boolean', noneUnsafe);

/** A nested object of a known shape; anything else (a string, a number) is absent. */
export const nested = <T>(schema: z.ZodType<T>) => {
  const read = directOf(schema);
  return withDirect(
    z
      .unknown()
      .transform((v, ctx): T | null | undefined => (v === null ? null : record(v) ? inner(schema, v, ctx) : undefined))
      .optional(),
    (v) => (v === null ? null : record(v) ? innerDirect(read, v) : undefined),
  );
};

/** A list: its readable items (an item that cannot be read is left out); null stays null. */
export const list = <T>(item: z.ZodType<T>) => {
  const read = directOf(item);
  return withDirect(
    z
      .unknown()
      .transform((v, ctx): T[] | null | undefined => {
        if (v === null) return null;
        if (!Array.isArray(v)) return undefined;
        const out: T[] = [];
        for (const x of v) {
          const got = inner(item, x, ctx);
          if (got !== undefined) out.push(got);
        }
        return out;
      })
      .optional(),
    (v) => {
      if (v === null) return null;
      if (!Array.isArray(v)) return undefined;
      const out: unknown[] = [];
      for (const x of v) {
        const got = innerDirect(read, x);
        if (got === REFUSED) return REFUSED;
        if (got !== undefined) out.push(got);
      }
      return out;
    },
  );
};

/**
 * A reference whose shape servers choose: the whole record (read by `schema`), a bare id (an
 * integer or digits, kept as a number) or a name (a user name, a role word: kept as it comes).
 * Read further by the concept functions (`personOf`, `sessionGroupOf`, `sessionIdOf`).
 */
export const ref = <T>(schema: z.ZodType<T>) => {
  const read = directOf(schema);
  return withDirect(
    z
      .unknown()
      .transform((v, ctx): T | number | string | null | undefined => {
        if (v === null) return null;
        if (record(v)) return inner(schema, v, ctx);
        if (isUnsafeInteger(v)) return refuse(ctx, v);
        return intOf(v) ?? text(v) ?? undefined;
      })
      .optional(),
    (v) => {
      if (v === undefined || v === null) return v;
      if (record(v)) return innerDirect(read, v);
      if (isUnsafeInteger(v)) return REFUSED;
      return intOf(v) ?? text(v) ?? undefined;
    },
  );
};

/**
 * A scalar field named without a type (§2.9) that servers fill with a flag, a number or a word
 * (a report's `step`, a bot tree's `version`): a boolean or its word as a boolean, an integer or
 * its digits as a number, anything else as it comes.
 */
export const scalar = () =>
  withDirect(
    z
      .unknown()
      .transform((v, ctx): unknown => {
        if (v === null) return null;
        if (isUnsafeInteger(v)) return refuse(ctx, v);
        return boolOf(v) ?? intOf(v) ?? v;
      })
      .optional(),
    (v) => (v === undefined || v === null ? v : isUnsafeInteger(v) ? REFUSED : (boolOf(v) ?? intOf(v) ?? v)),
  );

/** A flag that may also carry a reason (message `errorConversation`: true, or the error's text). */
export const flagOrText = () => {
  const read = (v: unknown): boolean | string | null | undefined => (v === null ? null : (boolOf(v) ?? text(v) ?? undefined));
  return withDirect(z.unknown().transform(read).optional(), (v) => (v === undefined ? undefined : read(v)));
};

/** A user reference or a flag (message `fromUser`: true for the customer's line, or who wrote it). */
export const flagOrRef = <T>(schema: z.ZodType<T>) => {
  const asRef = ref(schema);
  const refDirect = directOf(asRef);
  return withDirect(
    z
      .unknown()
      .transform((v, ctx): boolean | T | number | string | null | undefined => {
        const flag = boolOf(v);
        if (flag !== null) return flag;
        const r = asRef.safeParse(v);
        if (r.success) return r.data;
        for (const i of r.error.issues)
          ctx.addIssue({ code: 'custom', message: i.message, path: i.path, input: i.input, params: { [REFUSES]: true } });
        return z.NEVER;
      })
      .optional(),
    (v) => {
      if (v === undefined) return undefined;
      const flag = boolOf(v);
      if (flag !== null) return flag;
      const got = refDirect(v);
      return got === INVALID ? REFUSED : got;
    },
  );
};

/**
 * A record of the interface: the fields of `shape`, and every field we do not know about kept as
 * it comes (`.loose()`). Read directly when every field of the shape can be (see "Direct
 * reading" above); zod parses it again only to say why a record failed.
 */
export function readObject<S extends z.core.$ZodLooseShape>(shape: S): z.ZodType<z.output<z.ZodObject<S, z.core.$loose>>> {
  const slow = z.object(shape).loose();
  const entries = Object.entries(shape) as [string, z.ZodType][];
  if (!entries.every(([, s]) => hasDirect(s))) return slow;
  const fields = entries.map(([k, s]) => ({
    k,
    read: directOf(s),
    kept: directs.get(s)?.kept ?? 'nothing',
    needed: directs.get(s)?.needed ?? false,
  }));
  const byName = new Map(fields.map((f) => [f.k, f]));
  const needed = fields.filter((f) => f.needed);
  const kept = (f: (typeof fields)[number], x: unknown): boolean => keptAsIs(f.kept, x);
  /** The required fields `r` lacks, each read from nothing: name/value pairs to add (null: none), or why the record fails. */
  const absentNeeded = (r: Record<string, unknown>): unknown[] | Failure | null => {
    let add: unknown[] | null = null;
    let failed: Failure | null = null;
    for (const f of needed) {
      if (Object.hasOwn(r, f.k)) continue;
      const got = f.read(undefined);
      if (got === REFUSED) failed = REFUSED;
      else if (got === INVALID) failed ??= INVALID;
      else if (got !== undefined) (add ??= []).push(f.k, got);
    }
    return failed ?? add;
  };
  /**
   * An owned record read where it is: its changed fields written back, in their places. Its own
   * keys are walked (then the required ones it lacks), not the shape's fields: reading each field
   * by a name that changes every step was most of the time a record took.
   */
  const inPlace = (r: Record<string, unknown>): unknown => {
    let changed: unknown[] | null = null;
    let failed: Failure | null = null;
    for (const k in r) {
      const f = byName.get(k);
      if (f === undefined) continue;
      const x = r[k];
      if (kept(f, x)) continue;
      const got = f.read(x);
      if (got === REFUSED) failed = REFUSED;
      else if (got === INVALID) failed ??= INVALID;
      else if (got !== x) (changed ??= []).push(k, got);
    }
    const absent = absentNeeded(r);
    const fails = worst(failed, absent);
    if (fails) return fails;
    if (Array.isArray(absent)) (changed ??= []).push(...absent);
    if (changed) for (let i = 0; i < changed.length; i += 2) r[changed[i] as string] = changed[i + 1];
    return r;
  };
  // A copy, its fields in the order the record gives them (the service's order, which what lists
  // a record's fields follows: the explorer's columns); a required field it lacks fails it.
  const read = (v: unknown): unknown => {
    const r = record(v);
    if (!r) return INVALID;
    if (owned && !Object.hasOwn(r, '__proto__')) return inPlace(r);
    const out: Record<string, unknown> = {};
    let failed: Failure | null = null;
    for (const k in r) {
      const f = byName.get(k);
      const x = r[k];
      if (f === undefined || kept(f, x)) {
        if (k !== '__proto__') out[k] = x;
        continue;
      }
      const got = f.read(x);
      if (got === REFUSED) failed = REFUSED;
      else if (got === INVALID) failed ??= INVALID;
      else out[k] = got;
    }
    const absent = absentNeeded(r);
    const fails = worst(failed, absent);
    if (fails) return fails;
    if (Array.isArray(absent)) for (let i = 0; i < absent.length; i += 2) out[absent[i] as string] = absent[i + 1];
    return out;
  };
  const schema = readOrExplain(slow, read);
  objects.set(schema, slow);
  return withDirect(schema, read);
}

/** Whether a field keeps `x` as it comes (no reader call): a value of the type the field keeps. */
function keptAsIs(kept: Keeps, x: unknown): boolean {
  return (
    (kept === 'strings' && typeof x === 'string') ||
    (kept === 'booleans' && typeof x === 'boolean') ||
    (kept === 'safe integers' && Number.isSafeInteger(x)) ||
    (kept === 'finite numbers' && Number.isFinite(x))
  );
}

/** The record read directly; when that fails (or direct reading is off), zod reads it and says why. */
function readOrExplain<T>(slow: z.ZodType<T>, read: Direct): z.ZodType<T> {
  return z.unknown().transform((v, ctx): T => {
    const got = direct ? read(v) : INVALID;
    if (got !== REFUSED && got !== INVALID) return got as T;
    const again = slow.safeParse(v);
    if (again.success) return inOrderOf(v, again.data);
    for (const i of again.error.issues) {
      const params = refuses(i) ? { [REFUSES]: true } : undefined;
      ctx.addIssue({ code: 'custom', message: i.message, path: i.path, input: i.input, ...(params ? { params } : {}) });
    }
    return z.NEVER;
  });
}

/** `data` with its fields in the order `input` gives them (zod puts the shape's first), then any others. */
function inOrderOf<T>(input: unknown, data: T): T {
  const r = record(input);
  const d = record(data);
  if (!r || !d) return data;
  const out: Record<string, unknown> = {};
  for (const k in r) if (k !== '__proto__' && Object.hasOwn(d, k)) out[k] = d[k];
  for (const k in d) if (k !== '__proto__' && !Object.hasOwn(out, k)) out[k] = d[k];
  return out as T;
}

const objects = new WeakMap<z.ZodType, z.ZodObject>();
/** The object schema a record schema of `readObject` reads by (its fields by name); null for others. */
export function objectOf(schema: z.ZodType): z.ZodObject | null {
  return schema instanceof z.ZodObject ? schema : (objects.get(schema) ?? null);
}

/** The four audit fields (interface §2.9, "audit"). */
export const audit = {
  createdAt: dateTime(),
  createdBy: str(),
  updatedAt: dateTime(),
  updatedBy: str(),
};

/** Only the creation half of the audit fields (session comment, bot tag, cognition, message). */
export const created = {
  createdAt: dateTime(),
  createdBy: str(),
};

/** An identifier from another system (call ids, dispatch ids): a string, or a number written as one. */
export const externalId = () => str();

/**
 * The first field a lenient parse dropped for its type (present in `input`, absent from `parsed`),
 * as a dotted path; null when none was. Reads tolerate such fields; what the console sends must
 * not lose one silently (a mistyped id would turn an update into a create).
 */
export function droppedField(input: unknown, parsed: unknown, path: string[] = []): string | null {
  if (path.length > 6 || !isPlain(input) || !isPlain(parsed)) return null;
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || v === null) continue;
    const out = parsed[k];
    if (out === undefined) return [...path, k].join('.');
    const inner = droppedField(v, out, [...path, k]);
    if (inner) return inner;
  }
  return null;
}

const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
