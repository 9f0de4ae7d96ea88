import type { z } from 'zod';
import type { CallOptions, Core } from './core';

/**
 * One read the service takes as a POST (a lookup, a listing, a question to the AI service),
 * answered with JSON read by `schema`. Both interfaces read this way; each passes its own path.
 */
export const readByPost = <T>(
  core: Core,
  operation: string,
  action: string,
  path: string,
  json: unknown,
  schema: z.ZodType<T>,
  o: CallOptions,
  notFound?: string,
  size: 'list' | 'record' = 'record',
) =>
  core.call<T>({
    operation,
    action,
    write: false,
    method: 'POST',
    path,
    json,
    answer: { kind: 'json', schema, size },
    signal: o.signal,
    timeoutMs: o.timeoutMs,
    ...(notFound ? { notFound } : {}),
  });
