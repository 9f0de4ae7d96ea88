/**
 * Mounts the AI and voice operations built in `src-sandbox/ai/`. That module is written by
 * another engineer and may not exist yet, so it is imported lazily (and retried on the next
 * request while it is absent); its exports are checked at run time before use.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EntityRecognizer } from './model';

export interface AiContext {
  dataDir?: string;
  cannedTexts(): string[];
}
export interface AiRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: Buffer;
}
export interface AiResponse {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string | object;
}
export interface AiService {
  handle(req: AiRequest): Promise<AiResponse>;
  close(): Promise<void>;
}

const hasFn = <K extends string>(v: unknown, k: K): v is Record<K, (...args: never[]) => unknown> =>
  typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>)[k] === 'function';

/** Imports a sibling module only when its source (or built) file is there. */
async function importIfPresent(relative: string): Promise<unknown> {
  const candidates = ['.ts', '.js'].map((ext) => new URL(`${relative}${ext}`, import.meta.url));
  const found = candidates.find((u) => u.protocol === 'file:' && existsSync(fileURLToPath(u)));
  if (!found) return null;
  // Extensionless specifier: resolved by tsx / the test runner like any other import here.
  const spec: string = relative;
  return (await import(/* @vite-ignore */ spec)) as unknown;
}

export class AiMount {
  private service: AiService | null = null;
  private loading: Promise<AiService | null> | null = null;
  private recognizer: EntityRecognizer | null = null;
  private closed = false;

  constructor(private readonly ctx: AiContext) {}

  async get(): Promise<AiService | null> {
    if (this.service || this.closed) return this.service;
    this.loading ??= (async () => {
      try {
        const mod = await importIfPresent('./ai/index');
        if (!hasFn(mod, 'createAiService')) return null;
        const svc = (mod.createAiService as unknown as (ctx: AiContext) => unknown)(this.ctx);
        if (!hasFn(svc, 'handle') || !hasFn(svc, 'close')) return null;
        this.service = svc as unknown as AiService;
        return this.service;
      } catch {
        return null;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  /** `recognizeEntities(text)` from `ai/ner.ts`, once that file exists. */
  readonly ner = async (): Promise<EntityRecognizer | null> => {
    if (this.recognizer || this.closed) return this.recognizer;
    try {
      const mod = await importIfPresent('./ai/ner');
      if (hasFn(mod, 'recognizeEntities')) this.recognizer = mod.recognizeEntities as unknown as EntityRecognizer;
    } catch {
      // Not there yet, or broken: entities events are skipped until it loads.
    }
    return this.recognizer;
  };

  async close(): Promise<void> {
    this.closed = true;
    await this.service?.close();
  }
}
