/**
 * Webhook registrations and delivery (stand-in only; the interface shows no registration).
 * Each listener has its own queue: events go out in order, a failing listener is retried with
 * exponential backoff up to a bounded number of attempts, and nothing here ever blocks the
 * request that caused the event.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { WEBHOOK_GROUPS, WEBHOOK_HEADERS, type WebhookGroup } from '../src-shared/webhook';
import { signWebhook } from '../src-shared/webhook-signature';
import type { Store } from './store';
import { backoffDelay, noJitter } from '../src-shared/error-kinds';

export const HookInputSchema = z.object({
  url: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL'),
  secret: z.string().min(1).optional(),
  groups: z.array(z.enum(WEBHOOK_GROUPS)).optional(),
});

const StoredHookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  secret: z.string().nullable(),
  groups: z.array(z.enum(WEBHOOK_GROUPS)),
});
type StoredHook = z.infer<typeof StoredHookSchema>;
const StoredHooksSchema = z.object({ nextId: z.number().int(), hooks: z.array(StoredHookSchema) });

export interface WebhookEventOut {
  id: string;
  group: WebhookGroup;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  timeoutMs: number;
}

interface Listener {
  hook: StoredHook;
  queue: WebhookEventOut[];
  running: boolean;
}

export class WebhookHub {
  readonly #listeners = new Map<number, Listener>();
  #nextId = 1;
  #closed = false;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #controllers = new Set<AbortController>();
  /** Delivery outcomes, newest last (bounded), for tests and the README's troubleshooting. */
  readonly log: Array<{ hookId: number; eventId: string; attempt: number; ok: boolean; status?: number }> = [];

  readonly #store: Store;
  readonly #retry: RetryPolicy;
  constructor(store: Store, retry: RetryPolicy) {
    this.#store = store;
    this.#retry = retry;
    const saved = StoredHooksSchema.safeParse(store.getExtra('hooks'));
    if (saved.success) {
      this.#nextId = saved.data.nextId;
      for (const hook of saved.data.hooks) this.#listeners.set(hook.id, { hook, queue: [], running: false });
    }
  }

  #persist(): void {
    this.#store.setExtra('hooks', { nextId: this.#nextId, hooks: [...this.#listeners.values()].map((l) => l.hook) });
  }

  register(input: z.infer<typeof HookInputSchema>): { id: number; url: string; groups: WebhookGroup[] } {
    const hook: StoredHook = {
      id: this.#nextId++,
      url: input.url,
      secret: input.secret ?? null,
      groups: input.groups?.length ? input.groups : [...WEBHOOK_GROUPS],
    };
    this.#listeners.set(hook.id, { hook, queue: [], running: false });
    this.#persist();
    return this.#describe(hook);
  }

  list(): Array<{ id: number; url: string; groups: WebhookGroup[] }> {
    return [...this.#listeners.values()].map((l) => this.#describe(l.hook));
  }

  remove(id: number): boolean {
    const l = this.#listeners.get(id);
    if (!l) return false;
    l.queue.length = 0;
    this.#listeners.delete(id);
    this.#persist();
    return true;
  }

  #describe(h: StoredHook): { id: number; url: string; groups: WebhookGroup[] } {
    return { id: h.id, url: h.url, groups: h.groups };
  }

  emit(group: WebhookGroup, type: string, data: Record<string, unknown>): void {
    if (this.#closed) return;
    const event: WebhookEventOut = { id: `evt_${randomUUID()}`, group, type, occurredAt: new Date().toISOString(), data };
    for (const l of this.#listeners.values()) {
      if (!l.hook.groups.includes(group)) continue;
      l.queue.push(event);
      if (!l.running) void this.#pump(l);
    }
  }

  async #pump(l: Listener): Promise<void> {
    l.running = true;
    try {
      while (!this.#closed && l.queue.length > 0 && this.#listeners.get(l.hook.id) === l) {
        const event = l.queue[0]!;
        // The body is serialised once; every attempt sends (and signs) the same bytes.
        const body = JSON.stringify(event);
        for (let attempt = 1; attempt <= this.#retry.attempts && !this.#closed; attempt++) {
          const status = await this.#deliver(l.hook, event.id, body);
          const ok = status !== null && status >= 200 && status < 300;
          this.log.push({ hookId: l.hook.id, eventId: event.id, attempt, ok, ...(status !== null ? { status } : {}) });
          if (this.log.length > 1000) this.log.splice(0, this.log.length - 1000);
          if (ok) break;
          if (attempt < this.#retry.attempts)
            await this.#sleep(backoffDelay(attempt, { baseMs: this.#retry.baseDelayMs, maxMs: Number.POSITIVE_INFINITY }, noJitter));
        }
        // Delivered, or given up after the last attempt: either way the next event may go.
        l.queue.shift();
      }
    } finally {
      l.running = false;
    }
  }

  async #deliver(hook: StoredHook, id: string, body: string): Promise<number | null> {
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), this.#retry.timeoutMs);
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        [WEBHOOK_HEADERS.id]: id,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      };
      if (hook.secret) headers[WEBHOOK_HEADERS.signature] = signWebhook(hook.secret, id, timestamp, body);
      const res = await fetch(hook.url, { method: 'POST', headers, body, signal: controller.signal });
      await res.arrayBuffer().catch(() => undefined);
      return res.status;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
      this.#controllers.delete(controller);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.#timers.delete(t);
        resolve();
      }, ms);
      this.#timers.add(t);
    });
  }

  /** Stops delivering: pending events are dropped, in-flight requests aborted. */
  close(): void {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const c of this.#controllers) c.abort();
  }
}
