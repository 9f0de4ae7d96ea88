/**
 * Webhook registration at the service, for the team relay's commands. The interface names the
 * webhook family but not how a receiver registers (§6); the service client's hook calls follow the
 * stand-in's reading (`src-standin/README.md`, "Webhooks"), and this reads through them, so the
 * relay's registration gets the same answer limits, error words and schema as the console's.
 */
import { createServiceClient, type ServiceClient } from '../service';
import type { Hook } from '../service/hooks';

export type { Hook } from '../service/hooks';

export interface HookRegistry {
  /** The hooks the service lists (one odd record is skipped, not fatal). */
  list(): Promise<Hook[]>;
  create(hook: { url: string; secret?: string | undefined; groups?: readonly string[] | undefined }): Promise<Hook>;
  remove(id: number): Promise<void>;
}

export function hookRegistry(baseUrl: string, token: string, timeoutMs = 5_000): HookRegistry {
  /** One client per command: nothing stays open once it answered. */
  const withClient = async <T>(use: (client: ServiceClient) => Promise<T>): Promise<T> => {
    const client = createServiceClient({ baseUrl, getToken: async () => token, timeoutMs });
    try {
      return await use(client);
    } finally {
      await client.close();
    }
  };
  return {
    list: () => withClient((c) => c.hooks()),
    create: ({ url, secret, groups }) =>
      withClient((c) => c.registerHook({ url, ...(secret ? { secret } : {}), ...(groups ? { groups: [...groups] } : {}) })),
    remove: (id) => withClient((c) => c.deleteHook(id)),
  };
}
