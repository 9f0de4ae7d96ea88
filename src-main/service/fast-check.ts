import type { z } from 'zod';

/**
 * A quick in-place acceptance test compiled from a zod schema, so a valid answer is checked
 * without zod copying every object of it (a page of 500 sessions embeds 500 group copies).
 *
 * It answers only "certainly valid": `true` means zod would accept the value unchanged (the
 * schemas here have no transforms), `false` means "ask zod", which stays the authority and
 * names the field of any problem. Anything it does not understand compiles to `false`.
 */

export type FastCheck = (value: unknown) => boolean;

const NEVER: FastCheck = () => false;
const ANY: FastCheck = () => true;

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
  format?: string;
  checks?: Array<{ _zod: { def: { check?: string; format?: string } } }>;
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

const compiled = new WeakMap<z.ZodType, FastCheck>();

const isPlainRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function numberCheck(def: Def): FastCheck {
  const formats = [def.format, ...(def.checks ?? []).map((c) => (c._zod.def.check === 'number_format' ? c._zod.def.format : '?'))];
  const wanted = formats.filter((f): f is string => f !== undefined);
  if (wanted.length === 0) return (v) => typeof v === 'number' && Number.isFinite(v);
  if (wanted.every((f) => f === 'safeint')) return (v) => typeof v === 'number' && Number.isSafeInteger(v);
  return NEVER;
}

function objectCheck(def: Def): FastCheck {
  // Only loose objects: a stripping object would hand back fewer keys than it was given.
  if (!def.catchall || defOf(def.catchall).type !== 'unknown' || (def.checks?.length ?? 0) > 0) return NEVER;
  const entries = Object.entries(def.shape ?? {}).map(([key, schema]) => {
    const optional = defOf(schema).type === 'optional';
    return { key, optional, check: fastCheckOf(schema) };
  });
  return (v) => {
    if (!isPlainRecord(v)) return false;
    // zod drops an own "__proto__" key; let it do so.
    if (Object.prototype.hasOwnProperty.call(v, '__proto__')) return false;
    for (const e of entries) {
      const x = v[e.key];
      if (x === undefined) {
        if (!e.optional || Object.prototype.hasOwnProperty.call(v, e.key)) return false;
        continue;
      }
      if (!e.check(x)) return false;
    }
    return true;
  };
}

function build(schema: z.ZodType): FastCheck {
  const def = defOf(schema);
  const plain = (def.checks?.length ?? 0) === 0;
  switch (def.type) {
    case 'unknown':
    case 'any':
      return ANY;
    case 'string':
      return plain && def.format === undefined ? (v) => typeof v === 'string' : NEVER;
    case 'boolean':
      return plain ? (v) => typeof v === 'boolean' : NEVER;
    case 'number':
      return numberCheck(def);
    case 'optional': {
      const inner = fastCheckOf(def.innerType!);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = fastCheckOf(def.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'array': {
      if (!plain) return NEVER;
      const item = fastCheckOf(def.element!);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
        return true;
      };
    }
    case 'object':
      return objectCheck(def);
    case 'union': {
      const options = (def.options ?? []).map(fastCheckOf);
      return (v) => options.some((o) => o(v));
    }
    case 'lazy': {
      let inner: FastCheck | undefined;
      return (v) => (inner ??= fastCheckOf(def.getter!()))(v);
    }
    default:
      return NEVER;
  }
}

export function fastCheckOf(schema: z.ZodType): FastCheck {
  const known = compiled.get(schema);
  if (known) return known;
  // A placeholder first, so recursive schemas (classification trees) compile.
  let real: FastCheck | undefined;
  compiled.set(schema, (v) => real!(v));
  real = build(schema);
  compiled.set(schema, real);
  return real;
}
