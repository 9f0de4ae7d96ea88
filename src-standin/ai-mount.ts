/**
 * Mounts the AI and voice operations built in `src-standin/ai/` (another engineer's module,
 * imported statically now that it exists, so the compiler checks the agreed contract).
 * The service is created on first use: a stand-in that never sees an AI call never starts it.
 */
import { createAiService, recognizeEntities, type AiContext, type AiRequest, type AiResponse } from './ai/index';
import type { EntityRecognizer } from './model';

export type { AiContext, AiRequest, AiResponse };

export interface AiService {
  handle(req: AiRequest): Promise<AiResponse>;
  close(): Promise<void>;
}

export class AiMount {
  #service: AiService | null = null;
  #closed = false;

  readonly #ctx: AiContext;
  constructor(ctx: AiContext) {
    this.#ctx = ctx;
  }

  /** The AI service, or null once closed (the caller answers 503 "AI service not loaded"). */
  async get(): Promise<AiService | null> {
    if (this.#closed) return null;
    this.#service ??= createAiService(this.#ctx);
    return this.#service;
  }

  /** `recognizeEntities(text)` from `ai/ner.ts`, for the entities.recognized events. */
  readonly ner = async (): Promise<EntityRecognizer | null> => recognizeEntities;

  async close(): Promise<void> {
    this.#closed = true;
    await this.#service?.close();
  }
}
