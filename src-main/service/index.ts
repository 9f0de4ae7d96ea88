import type { ResourceKey } from '../../src-shared/paths';
import { RESOURCE_KEYS } from '../../src-shared/paths';
import { createAiOps, type AiOps } from './ai';
import { Core, type CoreOptions } from './core';
import { createHookOps, type HookOps } from './hooks';
import { createMediaOps, type MediaOps } from './media';
import { createOmnichannelOps, type OmnichannelOps } from './omnichannel';
import { createResourceClient, type ResourceClient } from './resources';
import type { ServiceTime } from './service-time';
import { createTicketOps, type TicketOps } from './ticket';

export type { ResourceClient } from './resources';
export type { NlpMessage, ProviderCredential } from './ai';

/** The client's options are its core's (documented there). */
export type ServiceClientOptions = CoreOptions;

export interface ServiceClient extends OmnichannelOps, AiOps, TicketOps, HookOps, MediaOps {
  readonly baseUrl: string;
  /** How the service writes date-times: read what it sent (a webhook's record) through `time.read`. */
  readonly time: ServiceTime;
  /** List, page through and save any of the 27 resources of §4.4. */
  resource<K extends ResourceKey>(key: K): ResourceClient<K>;
  /** Closes the keep-alive connections; later calls fail as Cancelled. */
  close(): Promise<void>;
}

export function createServiceClient(o: ServiceClientOptions): ServiceClient {
  const core = new Core(o);
  const resources = new Map<ResourceKey, ResourceClient<ResourceKey>>();
  for (const key of RESOURCE_KEYS) resources.set(key, createResourceClient(core, key));
  return {
    baseUrl: o.baseUrl,
    time: core.time,
    resource: <K extends ResourceKey>(key: K) => {
      const r = resources.get(key);
      if (!r) throw new TypeError(`Unknown resource "${String(key)}".`);
      return r as unknown as ResourceClient<K>;
    },
    close: () => core.close(),
    ...createOmnichannelOps(core),
    ...createAiOps(core, o.log),
    ...createTicketOps(core),
    ...createHookOps(core),
    ...createMediaOps(core, o.baseUrl),
  };
}
