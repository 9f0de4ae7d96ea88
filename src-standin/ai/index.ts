import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AI, AI_OPS } from '../../src-shared/paths';
import { checkFileUrl, indexNameProblem } from './kb-fetch';
import { parseDocuments } from './kb-parse';
import { KnowledgeBases } from './kb';
import { LOCAL_PROVIDER, catalogue, filterModels, providersOf } from './models';
import { recognizeEntities } from './ner';
import { NlpRequestSchema, runLocal } from './nlp';
import { AiHttpError, badRequest, failure, notFound, ok, parseJsonBody, type AiResponse } from './respond';
import { DEFAULT_BINARIES, TtsRequestSchema, VoiceService, type VoiceBinaries } from './voice';

/**
 * The AI family and the voice operations of the stand-in (interface §4.1, §4.5; DESIGN.md §2).
 * The server mounts `handle` after authentication, roles and fault injection.
 *
 * Stand-in extension, not in the interface: `GET /transformersapi/1.0/indexes` lists the
 * knowledge bases with their indexing state, `GET /transformersapi/1.0/indexes/{name}` shows one
 * (see KbStatus in kb.ts). `questions` on a base whose first indexing has not finished answers
 * 404 `{status:"Not Found", message:"... is still being indexed"}`; on a base whose indexing
 * failed, 404 with the reason.
 */
export type { AiResponse } from './respond';
export type { KbStatus } from './kb';

export interface AiContext {
  dataDir?: string;
  cannedTexts(): string[];
  /** Optional: what an image the stand-in itself holds shows (by its address), for `nlp` image items. */
  describeMedia?: (url: string) => { pt: string; en: string } | null;
  /** Optional: other paths for the speech tools (tests use it to see the missing-tool answer). */
  voiceBinaries?: Partial<VoiceBinaries>;
  /** Where speech jobs make their scratch folders (the system's temporary folder by default). */
  voiceScratchDir?: string;
  /** Optional: where to note background failures (indexing). */
  log?: (line: string) => void;
}
export interface AiRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

export const DEMO_INDEX = 'demo_atendimento_data_pt';
const DEMO_RELATIVE = join('resources', 'kb', 'demo_atendimento_pt.txt');

/**
 * The demo base's file, found by walking up from this module: the same code runs from source
 * (src-standin/ai), from the build (out/main/chunks) and from a packaged app (app.asar/out/...),
 * and `resources/` sits at the root of each.
 */
function demoFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, DEMO_RELATIVE);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`The demo knowledge base file ${DEMO_RELATIVE} was not found above ${fileURLToPath(import.meta.url)}.`);
}
const MAX_JSON_BYTES = 1024 * 1024;
export const MAX_ANSWERS = 50;

const NerBody = z.object({ sentence: z.string().max(100_000, 'sentence is limited to 100000 characters') }).loose();
const ModelsBody = z.object({ provider: z.string().optional(), typeModality: z.string().optional() }).loose();
const QuestionsBody = z
  .object({
    index: z.string().min(1, 'index is required'),
    question: z.string().trim().min(1, 'question must not be empty').max(10_000),
    size: z.number().int().min(1).optional(),
  })
  .loose();
const UploadBody = z
  .object({
    url_file: z.string().min(1, 'url_file is required'),
    index_engine: z.string().min(1, 'index_engine is required'),
    separator_doc_engine: z.string().max(100).optional(),
    id_doc_engine: z.string().max(200).optional(),
  })
  .loose();

const INDEXES = `${AI}/indexes`;

type Operation = (req: AiRequest) => Promise<AiResponse> | AiResponse;

/** The AI and voice families: the knowledge bases, the voice tools, and one handler per operation. */
class AiService {
  readonly #ctx: AiContext;
  readonly #kb: KnowledgeBases;
  readonly #voice: VoiceService;
  readonly #ops: ReadonlyMap<string, Operation>;

  constructor(ctx: AiContext) {
    this.#ctx = ctx;
    this.#kb = new KnowledgeBases({
      dataDir: ctx.dataDir,
      log: ctx.log,
      seeds: [
        {
          name: DEMO_INDEX,
          source: 'resources/kb/demo_atendimento_pt.txt',
          load: async () => parseDocuments(await readFile(demoFile()), 'txt', {}),
        },
      ],
    });
    this.#voice = new VoiceService(
      { ...DEFAULT_BINARIES, ...ctx.voiceBinaries },
      ctx.voiceScratchDir ? { scratchDir: ctx.voiceScratchDir } : {},
    );
    this.#ops = new Map<string, Operation>([
      [AI_OPS.ner, (req) => ok({ entities: recognizeEntities(parseJsonBody(req.body, NerBody).sentence) })],
      [AI_OPS.modelsByProviders, (req) => this.#models(req)],
      [AI_OPS.nlp, (req) => this.#nlp(parseJsonBody(req.body, NlpRequestSchema))],
      [AI_OPS.questions, (req) => this.#questions(parseJsonBody(req.body, QuestionsBody))],
      [AI_OPS.uploadFiles, (req) => this.#upload(parseJsonBody(req.body, UploadBody))],
      [AI_OPS.stt, (req) => this.#voice.stt(req.headers['content-type'], req.body)],
      [AI_OPS.tts, (req) => this.#voice.tts(parseJsonBody(req.body, TtsRequestSchema))],
    ]);
  }

  async handle(req: AiRequest): Promise<AiResponse> {
    await this.#kb.ready;
    try {
      return await this.#route(req);
    } catch (e) {
      if (e instanceof AiHttpError) return e.response;
      this.#ctx.log?.(`AI operation ${req.path} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return failure(500, 'The AI operation failed inside the stand-in.', 'INTERNAL');
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.#kb.close(), this.#voice.close()]);
  }

  async #catalogue() {
    return catalogue(await this.#voice.availability());
  }

  async #route(req: AiRequest): Promise<AiResponse> {
    const path = req.path.split('?')[0]?.replace(/\/+$/, '') ?? '';
    if (req.method === 'GET' && (path === INDEXES || path.startsWith(`${INDEXES}/`))) return this.#indexStatus(path);
    const known = (Object.values(AI_OPS) as string[]).includes(path);
    if (!known) return notFound();
    if (req.method !== 'POST') return failure(405, `Use POST for ${path}.`, 'METHOD_NOT_ALLOWED', { allow: 'POST' });
    if (path !== AI_OPS.stt && req.body.length > MAX_JSON_BYTES)
      return failure(413, `The body is limited to ${MAX_JSON_BYTES} bytes.`, 'PAYLOAD_TOO_LARGE');
    const op = this.#ops.get(path);
    return op ? op(req) : notFound();
  }

  /** GET indexes: every knowledge base; GET indexes/<name>: that one's state. */
  #indexStatus(path: string): AiResponse {
    if (path === INDEXES) return ok({ Results: this.#kb.list() });
    const status = this.#kb.status(decodeURIComponent(path.slice(INDEXES.length + 1)));
    return status ? ok(status) : notFound();
  }

  async #models(req: AiRequest): Promise<AiResponse> {
    const body = req.body.length ? parseJsonBody(req.body, ModelsBody) : {};
    return ok({ Results: filterModels(await this.#catalogue(), body.provider, body.typeModality) });
  }

  #questions(q: z.infer<typeof QuestionsBody>): AiResponse {
    // Sizes past the cap are trimmed rather than refused: more answers would only be noise.
    const found = this.#kb.search(q.index, q.question, Math.min(q.size ?? 3, MAX_ANSWERS));
    switch (found.kind) {
      case 'ok':
        return ok({ answer: found.answer });
      case 'missing':
        return notFound(`There is no knowledge base named ${q.index}.`);
      case 'indexing':
        return notFound(`The knowledge base ${q.index} is still being indexed.`);
      case 'failed':
        return notFound(`The knowledge base ${q.index} could not be indexed: ${found.error}`);
    }
    return notFound();
  }

  async #nlp(body: z.infer<typeof NlpRequestSchema>): Promise<AiResponse> {
    const all = await this.#catalogue();
    const text = all.filter((m) => m.typeModality === 'text');
    // Model and provider are interchangeable per call (§4.1): either may name the other.
    const byModel = body.model ? text.find((m) => m.id.toLowerCase() === body.model?.toLowerCase()) : undefined;
    const provider = body.provider?.trim().toLowerCase() || byModel?.providerName || LOCAL_PROVIDER;
    const providers = providersOf(all);
    if (!providers.includes(provider)) {
      return badRequest(`Unknown provider "${body.provider}"; providers are ${providers.join(', ')}.`, 'UNKNOWN_PROVIDER');
    }
    if (body.model && (!byModel || byModel.providerName !== provider)) {
      const names = text.filter((m) => m.providerName === provider).map((m) => m.id);
      return badRequest(
        `Provider ${provider} has no text model "${body.model}"; its text models are ${names.join(', ') || 'none'}.`,
        'UNKNOWN_MODEL',
      );
    }
    if (provider !== LOCAL_PROVIDER) {
      return failure(502, `provider ${provider} is unreachable from this machine`, 'PROVIDER_UNREACHABLE');
    }
    return ok(
      runLocal(body, {
        indexes: this.#kb.readyIndexes(),
        cannedTexts: this.#ctx.cannedTexts(),
        ...(this.#ctx.describeMedia ? { describeImage: this.#ctx.describeMedia } : {}),
      }),
    );
  }

  #upload(body: z.infer<typeof UploadBody>): AiResponse {
    const nameProblem = indexNameProblem(body.index_engine);
    if (nameProblem) return badRequest(nameProblem, 'INVALID_INDEX_NAME');
    const url = checkFileUrl(body.url_file.trim());
    if (!url.ok) return badRequest(url.message, url.code);
    this.#kb.upload({
      name: body.index_engine,
      url: url.url,
      type: url.type,
      separator: body.separator_doc_engine,
      idField: body.id_doc_engine,
    });
    return ok({ message: `The file ${url.url.href} is being processed and indexed into ${body.index_engine}.` });
  }
}

export function createAiService(ctx: AiContext): { handle(req: AiRequest): Promise<AiResponse>; close(): Promise<void> } {
  const service = new AiService(ctx);
  return { handle: (req) => service.handle(req), close: () => service.close() };
}

export { recognizeEntities } from './ner';
export { LOCAL_PROVIDER };
