import { z } from 'zod';
import { idOf, listOf, record } from './concepts';
import { readingOwned, reqInt, str } from './schemas/common';
import { notARecord, type SkippedRecord } from './unreadable';

/**
 * v2 list answer (interface §2.2), its records not yet read: see `readPage`. `page` and `size`
 * are required integers (digits too); an empty `results` may come as null or not at all.
 */
export const RawPageSchema = z
  .object({
    page: reqInt(),
    size: reqInt(),
    results: z
      .unknown()
      .refine((v) => v === null || v === undefined || Array.isArray(v), 'expected a list of records')
      .optional()
      .transform((v) => listOf(v)),
  })
  .loose();

declare const READ: unique symbol;
/**
 * A record as its schema read it. Projections onto what the console shows take only these, so
 * a record reaches them through the one layer (the schemas built on the concept readers) or not
 * at all: a raw answer or event body does not type-check there. `readRecord` and the client's
 * answers are where they come from.
 */
export type Read<T> = T & { readonly [READ]: true };

/** One record read by `schema`: the record, or why it could not be read (src-shared/unreadable.ts). */
export function readRecord<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  resource: string,
): { ok: true; record: Read<T> } | { ok: false; skip: SkippedRecord } {
  if (!record(raw)) return { ok: false, skip: notARecord(resource, raw) };
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, record: parsed.data as Read<T> } : { ok: false, skip: whyUnread(resource, raw, parsed.error) };
}

export interface ReadPage<T> {
  page: number;
  size: number;
  results: Read<T>[];
  /** Records of the page that could not be read (kept out of `results`). */
  skipped: number;
  /** The first of them, as the log names it (src-shared/unreadable.ts). */
  first: SkippedRecord | null;
}

/** Why a record could not be read: its id when readable, the first field that failed and why. */
export function whyUnread(resource: string, raw: unknown, error: z.ZodError): SkippedRecord {
  if (!record(raw)) return notARecord(resource, raw);
  const issue = error.issues[0];
  return {
    resource,
    id: idOf(record(raw)?.id),
    field: issue?.path.length ? issue.path.map(String).join('.') : null,
    reason: issue?.message ?? 'unreadable',
  };
}

/**
 * One odd record never fails a whole page: each record is read on its own, the readable ones are
 * kept and the others counted (interface fidelity policy, src-shared/schemas/README.md).
 */
export function readPage<T>(raw: z.infer<typeof RawPageSchema>, item: z.ZodType<T>, resource: string): ReadPage<T> {
  const results: Read<T>[] = [];
  let first: SkippedRecord | null = null;
  let skipped = 0;
  // A page's records were parsed from its answer and belong to this read alone.
  readingOwned(() => {
    for (const r of raw.results) {
      const got = readRecord(item, r, resource);
      if (got.ok) results.push(got.record);
      else {
        skipped++;
        first ??= got.skip;
      }
    }
  });
  return { page: raw.page, size: raw.size, results, skipped, first };
}

/** A page envelope schema whose records are read one by one (see `readPage`). */
export const pageEnvelope = <T>(item: z.ZodType<T>, resource: string) => RawPageSchema.transform((raw) => readPage(raw, item, resource));

/** Envelope with a status: SUCCESS, or ERROR with message and errorCode (interface §7.3). */
export const ErrorEnvelopeSchema = z.object({ status: z.literal('ERROR'), message: str(), errorCode: str() }).loose();
