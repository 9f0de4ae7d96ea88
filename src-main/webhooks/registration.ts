/**
 * Webhook registration at the service. The interface names the webhook family but not how a
 * receiver registers (§6); this follows the stand-in's reading (`src-standin/README.md`,
 * "Webhooks"): `POST {base}/chatapi/1.0/api/v2/hook {url, secret?, groups?}` answers
 * `{id, url, groups}`, `GET .../hook` lists them, `DELETE .../hook/{id}` removes one.
 */
import { z } from 'zod';
import { AppError } from '../../src-shared/errors';
import { V2 } from '../../src-shared/paths';
import { errorFromStatus } from '../service/errors';

const HookSchema = z.object({ id: z.number().int(), url: z.string() }).loose();
const HookListSchema = z.object({ results: z.array(z.unknown()) }).loose();
export type Hook = z.infer<typeof HookSchema>;

export interface HookRegistry {
  /** The hooks the service lists (one odd record is skipped, not fatal). */
  list(): Promise<Hook[]>;
  create(hook: { url: string; secret?: string | undefined; groups?: readonly string[] | undefined }): Promise<Hook>;
  remove(id: number): Promise<void>;
}

const ACTIONS = { GET: 'list the webhooks', POST: 'register the webhook', DELETE: 'remove the webhook' } as const;

export function hookRegistry(baseUrl: string, token: string, timeoutMs = 5_000): HookRegistry {
  const call = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> => {
    const operation = `hook.${method.toLowerCase()}`;
    let res: Response;
    try {
      res = await fetch(`${baseUrl.replace(/\/+$/, '')}${V2}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const timeout = e instanceof Error && e.name === 'TimeoutError';
      throw new AppError(
        { kind: timeout ? 'Timeout' : 'Unavailable', operation, message: `The service could not be reached to ${ACTIONS[method]}.` },
        { cause: e },
      );
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!res.ok) {
      const headers = { retryAfter: res.headers.get('retry-after') ?? undefined };
      throw errorFromStatus({ operation, action: ACTIONS[method], write: method !== 'GET' }, { status: res.status, headers, body: bytes });
    }
    if (bytes.length === 0) return null;
    try {
      return JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new AppError({ kind: 'BadResponse', operation, message: `The service's answer to ${ACTIONS[method]} is not JSON.` });
    }
  };
  return {
    async list() {
      const page = HookListSchema.safeParse(await call('GET', '/hook'));
      if (!page.success) return [];
      return page.data.results.flatMap((r) => {
        const hook = HookSchema.safeParse(r);
        return hook.success ? [hook.data] : [];
      });
    },
    async create({ url, secret, groups }) {
      const made = HookSchema.safeParse(await call('POST', '/hook', { url, ...(secret ? { secret } : {}), ...(groups ? { groups } : {}) }));
      if (!made.success)
        throw new AppError({
          kind: 'BadResponse',
          operation: 'hook.post',
          message: 'The service registered the webhook but did not answer its id.',
        });
      return made.data;
    },
    async remove(id) {
      await call('DELETE', `/hook/${id}`);
    },
  };
}
