import { z } from 'zod';

/** Event groups the service names (interface §6). */
export const WEBHOOK_GROUPS = ['messages', 'status', 'sessions', 'voice', 'bot', 'entities'] as const;
export type WebhookGroup = (typeof WEBHOOK_GROUPS)[number];

/**
 * Event envelope (DESIGN.md §2). Parsed leniently: an unknown group or type is still an event
 * (kept in the event log), and `data` is whatever the service sent.
 */
export const WebhookEventSchema = z
  .object({
    id: z.string().min(1),
    group: z.string(),
    type: z.string(),
    occurredAt: z.string(),
    data: z.unknown(),
  })
  .loose();
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/** Headers of the Standard Webhooks signing scheme. */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** Allowed clock difference between the signer and the verifier, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
