import { z } from 'zod';
import { pageEnvelope } from '../../src-shared/envelopes';
import { reqInt, reqStr } from '../../src-shared/schemas/common';
import { V2 } from '../../src-shared/paths';
import type { CallOptions, Core } from './core';

/**
 * Webhook registration (interface §6: the family's paths are `.../hook`; registration itself is
 * not shown, so this is the stand-in's reading, DESIGN.md §2 "Webhooks"): list the listeners,
 * add one with its signing secret, remove one.
 */

export const HookSchema = z.object({ id: reqInt(), url: reqStr() }).loose();
export type Hook = z.infer<typeof HookSchema>;

const HOOK_PATH = `${V2}/hook`;
const HookPage = pageEnvelope(HookSchema, 'hook');

export interface HookOps {
  hooks(o?: CallOptions): Promise<Hook[]>;
  /** Delivers events to `url`, signed with `secret` when one is given (unsigned otherwise). */
  registerHook(hook: { url: string; secret?: string; groups?: string[] }, o?: CallOptions): Promise<Hook>;
  deleteHook(id: number, o?: CallOptions): Promise<void>;
}

export function createHookOps(core: Core): HookOps {
  return {
    hooks: async (o = {}) =>
      (
        await core.call({
          operation: 'hooks.list',
          action: 'list webhook listeners',
          write: false,
          method: 'GET',
          path: HOOK_PATH,
          answer: { kind: 'json', schema: HookPage },
          signal: o.signal,
          timeoutMs: o.timeoutMs,
        })
      ).results,
    registerHook: (hook, o = {}) =>
      core.call({
        operation: 'hooks.register',
        action: 'register the webhook listener',
        write: true,
        method: 'POST',
        path: HOOK_PATH,
        json: hook,
        answer: { kind: 'json', schema: HookSchema },
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      }),
    deleteHook: async (id, o = {}) => {
      await core.call({
        operation: 'hooks.delete',
        action: 'remove a webhook listener',
        write: true,
        // Removing twice removes nothing more.
        safeToRetry: true,
        method: 'DELETE',
        path: `${HOOK_PATH}/${id}`,
        // 204, no body.
        answer: { kind: 'bytes', check: () => null },
        signal: o.signal,
        timeoutMs: o.timeoutMs,
        notFound: 'That webhook listener is no longer registered (404).',
      });
    },
  };
}
