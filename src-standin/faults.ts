/** Fault injection rules (README: fault rules), drawn from a seeded PRNG so runs repeat. */
import { z } from 'zod';
import { createRng, type Rng } from './prng';

export const FaultRuleSchema = z.object({
  match: z.object({ method: z.string().optional(), path: z.string().optional() }).optional(),
  kind: z.enum([
    'latency',
    'status',
    'rateLimit',
    'reset',
    'dropAfterCommit',
    'malformedJson',
    'emptyMultiValueIn',
    'keepsAgent',
    'refusesMedia',
  ]),
  /**
   * keepsAgent: a session saved with another group keeps its attendant, as services that only
   * move what they are told do; 'unlessTold' clears it when the save also says lastAgent: null,
   * 'always' keeps it even then (a transfer the service does not fully apply).
   */
  keepsAgent: z.enum(['unlessTold', 'always']).optional(),
  // refusesMedia (on messages/save): the file of an attendant's message is read from its URL, then
  // refused as a provider may (a type it does not deliver): the message is marked errorConversation.
  latencyMs: z.number().min(0).max(120_000).optional(),
  status: z.number().int().min(400).max(599).optional(),
  retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
  probability: z.number().min(0).max(1).optional(),
  count: z.number().int().min(1).optional(),
});
export type FaultRule = z.infer<typeof FaultRuleSchema>;
export const FaultRulesSchema = z.array(FaultRuleSchema);

export interface FaultDecision {
  /** Total delay of the latency rules that applied. */
  latencyMs: number;
  /** The first non-latency rule that applied, if any. */
  rule: FaultRule | null;
}

export class Faults {
  #rules: Array<FaultRule & { remaining: number }> = [];
  readonly #rng: Rng;

  constructor(seed: number) {
    this.#rng = createRng(seed ^ 0x5eed);
  }

  set(rules: FaultRule[]): void {
    const parsed = FaultRulesSchema.parse(rules);
    this.#rules = parsed.map((r) => ({ ...r, remaining: r.count ?? Number.POSITIVE_INFINITY }));
  }

  clear(): void {
    this.#rules = [];
  }

  list(): FaultRule[] {
    return this.#rules.map(({ remaining, ...r }) => (Number.isFinite(remaining) ? { ...r, count: remaining } : r));
  }

  /** Latency rules add up; the first other rule that matches (and wins its draw) decides. */
  decide(method: string, path: string): FaultDecision {
    let latencyMs = 0;
    let rule: FaultRule | null = null;
    for (const r of this.#rules) {
      if (r.remaining <= 0) continue;
      if (r.match?.method && r.match.method.toUpperCase() !== method.toUpperCase()) continue;
      if (r.match?.path && !path.startsWith(r.match.path)) continue;
      if (r.kind !== 'latency' && rule) continue;
      if (this.#rng() >= (r.probability ?? 1)) continue;
      r.remaining--;
      if (r.kind === 'latency') latencyMs += r.latencyMs ?? 0;
      else rule = r;
    }
    this.#rules = this.#rules.filter((r) => r.remaining > 0);
    return { latencyMs, rule };
  }
}

/** Whether a query body holds an IN or NOT_IN condition with more than one value, at any depth. */
export function hasMultiValueIn(body: unknown): boolean {
  const walk = (cs: unknown): boolean =>
    Array.isArray(cs) &&
    cs.some((c: unknown) => {
      if (!c || typeof c !== 'object') return false;
      const o = c as Record<string, unknown>;
      const multi = (o.operator === 'IN' || o.operator === 'NOT_IN') && typeof o.value === 'string' && o.value.includes(',');
      return multi || walk(o.and) || walk(o.or) || walk(o.conditions);
    });
  return !!body && typeof body === 'object' && walk((body as Record<string, unknown>).conditions);
}
