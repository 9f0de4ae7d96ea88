import { z } from 'zod';

/** v2 list answer (interface §2.2), its records not yet read: see `readPage`. */
export const RawPageSchema = z.object({ page: z.number().int(), size: z.number().int(), results: z.array(z.unknown()) }).loose();

export interface ReadPage<T> {
  page: number;
  size: number;
  results: T[];
  /** Records of the page that could not be read (kept out of `results`). */
  skipped: number;
  /** What was wrong with the first few skipped records, for the log. */
  problems: string[];
}

/**
 * One odd record never fails a whole page: each record is read on its own, the readable ones are
 * kept and the others counted (interface fidelity policy, src-shared/schemas/README.md).
 */
export function readPage<T>(raw: z.infer<typeof RawPageSchema>, item: z.ZodType<T>): ReadPage<T> {
  const results: T[] = [];
  const problems: string[] = [];
  let skipped = 0;
  raw.results.forEach((r, i) => {
    const parsed = item.safeParse(r);
    if (parsed.success) return void results.push(parsed.data);
    skipped++;
    if (problems.length < 3) {
      const issue = parsed.error.issues[0];
      problems.push(`record ${i}${issue?.path.length ? ` field ${issue.path.join('.')}` : ''}: ${issue?.message ?? 'unreadable'}`);
    }
  });
  return { page: raw.page, size: raw.size, results, skipped, problems };
}

/** A page envelope schema whose records are read one by one (see `readPage`). */
export const pageEnvelope = <T>(item: z.ZodType<T>) => RawPageSchema.transform((raw) => readPage(raw, item));

/** Envelope with a status: SUCCESS, or ERROR with message and errorCode (interface §7.3). */
export const ErrorEnvelopeSchema = z
  .object({ status: z.literal('ERROR'), message: z.string().optional(), errorCode: z.union([z.string(), z.number()]).optional() })
  .loose();
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
