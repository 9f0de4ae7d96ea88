import type { ServiceClient } from '../../service';
import type { WebhookListener } from '../../webhooks';
import type { FeatureContext } from '../context';

/** A registration call: the listener is live once registered, so a slow service is not waited on long. */
const HOOK_CALL = { timeoutMs: 5_000 };

/**
 * The demo workspace's registration of the listener with its stand-in (a service elsewhere is
 * told by its administrator). It keeps the client that made it: that client removes it, even
 * once the session has ended.
 */
export class DemoHook {
  readonly #ctx: FeatureContext;
  #hook: { id: number; client: ServiceClient } | null = null;

  constructor(ctx: FeatureContext) {
    this.#ctx = ctx;
  }

  get registered(): boolean {
    return this.#hook !== null;
  }

  /** The demo's service learns where to deliver: `url` (the tunnel's address) or the listener's own. */
  async register(l: WebhookListener, url: string | null, signingSecret: string | undefined): Promise<void> {
    if (!this.#ctx.isDemo()) return;
    const client = this.#ctx.client();
    // Hooks of an earlier run of this console (the demo workspace keeps its data) are dead ends.
    for (const h of await client.hooks(HOOK_CALL)) {
      const ours = (h.url.startsWith('http://127.0.0.1:') && h.url.includes('/hooks/')) || h.url.endsWith(l.path);
      if (ours) await client.deleteHook(h.id, HOOK_CALL).catch(() => undefined);
    }
    // Signing off: the stand-in sends unsigned events, as a service without a secret would.
    const made = await client.registerHook({ url: url ?? l.url, ...(signingSecret ? { secret: signingSecret } : {}) }, HOOK_CALL);
    this.#hook = { id: made.id, client };
  }

  async unregister(): Promise<void> {
    if (!this.#hook) return;
    const { id, client } = this.#hook;
    this.#hook = null;
    await client.deleteHook(id, HOOK_CALL).catch(() => undefined);
  }
}
