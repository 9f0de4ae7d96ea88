import { z } from 'zod';
import { int, list, num, reqBool, reqNum, str } from './common';

/**
 * AI family answers (§2.5, §4.1, DESIGN.md §2). A list the answer is made of (entities,
 * Results, answer) is required: a missing list is a broken answer, not an empty one.
 */

/** Model entry: every field required (metadata and depreciatedDate may be null). */
export const ModelEntrySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    typeModality: z.string(),
    flgFunction: reqBool(),
    providerName: z.string(),
    metadata: z.unknown().optional(),
    depreciatedDate: z.unknown().optional(),
    active: reqBool(),
  })
  .loose();

export const ModelsAnswerSchema = z.object({ Results: z.array(ModelEntrySchema) }).loose();

/** Answer item of the semantic search: text and score required, closest first. */
export const AnswerItemSchema = z.object({ text: z.string(), score: reqNum() }).loose();
export const QuestionsAnswerSchema = z.object({ answer: z.array(AnswerItemSchema) }).loose();

export const NerEntitySchema = z.object({ text: z.string(), label: z.string(), start: int(), end: int(), score: num() }).loose();
export const NerAnswerSchema = z.object({ entities: z.array(NerEntitySchema) }).loose();

export const NlpAnswerSchema = z.object({ message: str(), tool_calls: z.unknown().optional(), used_tokens: num() }).loose();

/** Knowledge-base upload: `{message}` saying indexing has started. */
export const UploadAnswerSchema = z.object({ message: str() }).loose();

export const SttSegmentSchema = z.object({ start: num(), end: num(), text: str(), confidence: num() }).loose();
export const SttAnswerSchema = z.object({ text: z.string(), language: str(), segments: list(SttSegmentSchema) }).loose();

export type ModelEntry = z.infer<typeof ModelEntrySchema>;
export type AnswerItem = z.infer<typeof AnswerItemSchema>;
export type NerAnswer = z.infer<typeof NerAnswerSchema>;
export type NlpAnswer = z.infer<typeof NlpAnswerSchema>;
export type UploadAnswer = z.infer<typeof UploadAnswerSchema>;
export type SttAnswer = z.infer<typeof SttAnswerSchema>;

export { isKnowledgeBaseName } from '../kb-name';
