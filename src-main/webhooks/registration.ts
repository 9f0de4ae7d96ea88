/**
 * Webhook registration at the service, for the team relay's commands. The interface names the
 * webhook family but not how a receiver registers (§6); the service client's hook calls follow the
 * stand-in's reading (`src-standin/README.md`, "Webhooks"), and this reads through them, so the
 * relay's registration gets the same answer limits, error words and schema as the console's.
 */
import { askedWaitMs } from '../../src-shared/error-kinds';
import { createServiceClient, type ServiceClient } from '../service';
import type { Hook } from '../service/hooks';
import { systemClock } from '../clock';

export type { Hook } from '../service/hooks';

export interface HookRegistry {
  /** The hooks the service lists (one odd record is skipped, not fatal). */
  list(): Promise<Hook[]>;
  create(hook: { url: string; secret?: string | undefined; groups?: readonly string[] | undefined }): Promise<Hook>;
  remove(id: number): Promise<void>;
}

export interface RegistryOptions {
  timeoutMs?: number;
  /**
   * Told to wait (Retry-After on a 429 or 5xx, capped at 5 minutes by the one rule): called with
   * the time the service asked us to wait until, then the call waits that long and is sent again
   * (at most TOLD_TO_WAIT_TRIES times in all).
   */
  onWait?: (until: Date) => void;
  /** How the wait is waited (a test's clock); a timer by default. */
  wait?: (ms: number) => Promise<void>;
}

const TOLD_TO_WAIT_TRIES = 3;

export function hookRegistry(baseUrl: string, token: string, o: RegistryOptions = {}): HookRegistry {
  const timeoutMs = o.timeoutMs ?? 5_000;
  const wait = o.wait ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  /** One client per command: nothing stays open once it answered. */
  const withClient = async <T>(use: (client: ServiceClient) => Promise<T>): Promise<T> => {
    for (let tries = 1; ; tries++) {
      const client = createServiceClient({ baseUrl, getToken: async () => token, timeoutMs });
      try {
        return await use(client);
      } catch (e) {
        // Never sooner than the service asked; a call it did not ask to wait for is not repeated here.
        const asked = askedWaitMs(e);
        if (asked === null || tries >= TOLD_TO_WAIT_TRIES) throw e;
        o.onWait?.(new Date(systemClock.now() + asked));
        await wait(asked);
      } finally {
        await client.close();
      }
    }
  };
  return {
    list: () => withClient((c) => c.hooks()),
    create: ({ url, secret, groups }) =>
      withClient((c) => c.registerHook({ url, ...(secret ? { secret } : {}), ...(groups ? { groups: [...groups] } : {}) })),
    remove: (id) => withClient((c) => c.deleteHook(id)),
  };
}
