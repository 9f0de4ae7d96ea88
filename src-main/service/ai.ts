import { AppError } from '../../src-shared/errors';
import { AI_OPS } from '../../src-shared/paths';
import {
  isKnowledgeBaseName,
  ModelsAnswerSchema,
  NerAnswerSchema,
  NlpAnswerSchema,
  QuestionsAnswerSchema,
  SttAnswerSchema,
  UploadAnswerSchema,
  type AnswerItem,
  type ModelEntry,
  type NerAnswer,
  type NlpAnswer,
  type SttAnswer,
  type UploadAnswer,
} from '../../src-shared/schemas/index';
import type { Logger } from '../log';
import { findDocuments } from '../../src-shared/documents';
import { maskDocuments } from '../../src-shared/redact';
import type { CallOptions, Core, WriteOptions } from './core';
import { readByPost } from './read-post';

/** The AI family (§4.1, §4.5) and the voice endpoints (DESIGN.md §2). */

/** Credentials of an external model provider: separate from the bearer token, never logged. */
export interface ProviderCredential {
  access_key?: string;
  secret_key?: string;
  token?: string;
}

export interface NlpMessage {
  role: string;
  content: Array<{ type: string; text?: string; image_url?: { url: string } }>;
}

export interface NlpRequest {
  messages: NlpMessage[];
  provider: string;
  model: string;
  max_len?: number;
  temperature?: number;
  token?: ProviderCredential[];
}

export interface UploadRequest {
  url_file: string;
  index_engine: string;
  separator_doc_engine?: string;
  id_doc_engine?: string;
}

export interface SttRequest {
  file: Uint8Array;
  language: string;
  filename?: string;
  contentType?: string;
}

export interface TtsRequest {
  text: string;
  language: string;
  voice?: string;
}

/**
 * Text bound for a language model or a knowledge base leaves with CPF and CNPJ masked. Only an
 * attendant who reveals a document and sends it on purpose sets `revealDocuments`.
 */
export interface PersonalDataOptions {
  revealDocuments?: boolean;
}

export interface AiOps {
  ner(sentence: string, o?: CallOptions): Promise<NerAnswer>;
  /** Message texts are sent with CPF/CNPJ masked unless `revealDocuments`. */
  nlp(request: NlpRequest, o?: CallOptions & PersonalDataOptions): Promise<NlpAnswer>;
  modelsByProviders(request: { provider: string; typeModality?: string }, o?: CallOptions): Promise<ModelEntry[]>;
  /** Closest answers first. The question is sent with CPF/CNPJ masked unless `revealDocuments`. */
  questions(request: { index: string; question: string; size?: number }, o?: CallOptions & PersonalDataOptions): Promise<AnswerItem[]>;
  /**
   * Starts indexing a file at a public URL; the answer only says it was received. A link that
   * carries a CPF or CNPJ is refused unless `revealDocuments` (masking would break it).
   */
  uploadFiles(request: UploadRequest, o?: WriteOptions & PersonalDataOptions): Promise<UploadAnswer>;
  stt(request: SttRequest, o?: CallOptions): Promise<SttAnswer>;
  /** WAV bytes. */
  tts(request: TtsRequest, o?: CallOptions): Promise<Uint8Array>;
}

const DRIVE_HOSTS = /(^|\.)(drive\.google\.com|docs\.google\.com|dropbox\.com|onedrive\.live\.com|1drv\.ms|sharepoint\.com)$/i;

function checkUpload(r: UploadRequest): void {
  const fail = (message: string): never => {
    throw new AppError({ kind: 'Invalid', message, operation: 'ai.uploadFiles' });
  };
  let url: URL | undefined;
  try {
    url = new URL(r.url_file);
  } catch {
    fail('The file address is not a URL. Give a public http(s) link to the file.');
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) fail('The file address must be a public http(s) link.');
  if (url && DRIVE_HOSTS.test(url.hostname))
    fail('Links from file-sharing drives are not accepted. Give a direct public link to the file.');
  if (!isKnowledgeBaseName(r.index_engine)) {
    fail('The knowledge base name must look like {hostname}_{identifier}_data_pt in lower case, for example acme.com_faq_data_pt.');
  }
}

/** Whether a link names a CPF or CNPJ, percent-encoded or not (the same documents masking hides). */
function carriesDocument(text: string): boolean {
  return findDocuments(decodeURIComponentSafe(text)).length > 0;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function maskNlp(request: NlpRequest): NlpRequest {
  return {
    ...request,
    messages: request.messages.map((m) => ({
      ...m,
      content: m.content.map((c) => (typeof c.text === 'string' ? { ...c, text: maskDocuments(c.text) } : c)),
    })),
  };
}

/** Only the transport options reach the core: `revealDocuments` is decided here. */
const callOptions = (o: CallOptions & PersonalDataOptions): CallOptions => ({
  ...(o.signal ? { signal: o.signal } : {}),
  ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
});

/** The language operations: entities, the language model, its models and knowledge-base questions. */
function languageOps(core: Core, log: Logger | undefined): Pick<AiOps, 'ner' | 'nlp' | 'modelsByProviders' | 'questions'> {
  return {
    ner: (sentence, o = {}) => readByPost(core, 'ai.ner', 'recognise entities', AI_OPS.ner, { sentence }, NerAnswerSchema, o),
    nlp: (request, o = {}) => {
      for (const c of request.token ?? []) {
        for (const secret of [c.access_key, c.secret_key, c.token]) if (secret) log?.registerSecret?.(secret);
      }
      // An image's address is a link like an upload's: masking would break it, so one that names
      // a CPF or CNPJ leaves only when the attendant chose to send documents (the same consent).
      if (
        o.revealDocuments !== true &&
        request.messages.some((m) => m.content.some((c) => c.image_url && carriesDocument(c.image_url.url)))
      ) {
        throw new AppError({
          kind: 'Invalid',
          field: 'image_url',
          operation: 'ai.nlp',
          message: 'The image address contains a CPF or CNPJ, so it was not sent to the language model.',
        });
      }
      const outgoing = o.revealDocuments === true ? request : maskNlp(request);
      return readByPost(core, 'ai.nlp', 'ask the language model', AI_OPS.nlp, outgoing, NlpAnswerSchema, callOptions(o));
    },
    modelsByProviders: async (request, o = {}) =>
      (
        await readByPost(
          core,
          'ai.modelsByProviders',
          'list models',
          AI_OPS.modelsByProviders,
          { provider: request.provider, typeModality: request.typeModality ?? '' },
          ModelsAnswerSchema,
          o,
          undefined,
          'list',
        )
      ).Results,
    questions: async (request, o = {}) =>
      (
        await readByPost(
          core,
          'ai.questions',
          'search the knowledge base',
          AI_OPS.questions,
          { size: 5, ...request, question: o.revealDocuments === true ? request.question : maskDocuments(request.question) },
          QuestionsAnswerSchema,
          callOptions(o),
          `The knowledge base "${request.index}" does not exist or is still being indexed (404).`,
          'list',
        )
      ).answer,
  };
}

/** The operations that carry files: knowledge-base uploads, speech-to-text and text-to-speech. */
function fileOps(core: Core): Pick<AiOps, 'uploadFiles' | 'stt' | 'tts'> {
  return {
    uploadFiles: async (request, o = {}) => {
      checkUpload(request);
      if (o.revealDocuments !== true && carriesDocument(request.url_file)) {
        throw new AppError({
          kind: 'Invalid',
          field: 'url_file',
          operation: 'ai.uploadFiles',
          message: 'The file address contains a CPF or CNPJ. Use a link without personal documents, or confirm that you mean to send it.',
        });
      }
      return core.call({
        operation: 'ai.uploadFiles',
        action: 'upload knowledge-base files',
        write: true,
        method: 'POST',
        path: AI_OPS.uploadFiles,
        json: request,
        answer: { kind: 'json', schema: UploadAnswerSchema },
        safeToRetry: o.safeToRetry === true,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      });
    },
    stt: (request, o = {}) =>
      core.call({
        operation: 'ai.stt',
        action: 'transcribe audio',
        write: false,
        method: 'POST',
        path: AI_OPS.stt,
        multipart: {
          fields: { language: request.language },
          files: [
            {
              name: 'file',
              filename: request.filename ?? 'audio.wav',
              contentType: request.contentType ?? 'audio/wav',
              data: request.file,
            },
          ],
        },
        answer: { kind: 'json', schema: SttAnswerSchema },
        signal: o.signal,
        timeoutMs: o.timeoutMs ?? 60_000,
      }),
    tts: (request, o = {}) =>
      core.call<Uint8Array>({
        operation: 'ai.tts',
        action: 'synthesise speech',
        write: false,
        method: 'POST',
        path: AI_OPS.tts,
        json: request,
        answer: {
          kind: 'bytes',
          check: (b) =>
            b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WAVE'
              ? null
              : 'bytes that are not WAV audio',
        },
        signal: o.signal,
        timeoutMs: o.timeoutMs ?? 60_000,
      }),
  };
}

export function createAiOps(core: Core, log: Logger | undefined): AiOps {
  return { ...languageOps(core, log), ...fileOps(core) };
}
