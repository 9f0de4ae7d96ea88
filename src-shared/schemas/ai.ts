import { z } from 'zod';
import { int, list, num, reqBool, reqNum, str, readObject } from './common';

/**
 * AI family answers (§2.5, §4.1, DESIGN.md §2). A list the answer is made of (entities,
 * Results, answer) is required: a missing list is a broken answer, not an empty one.
 */

/** Model entry: every field required (metadata and depreciatedDate may be null). */
export const ModelEntrySchema = readObject({
  id: z.string(),
  name: z.string(),
  typeModality: z.string(),
  flgFunction: reqBool(),
  providerName: z.string(),
  metadata: z.unknown().optional(),
  depreciatedDate: z.unknown().optional(),
  active: reqBool(),
});

export const ModelsAnswerSchema = readObject({ Results: z.array(ModelEntrySchema) });

/** Answer item of the semantic search: text and score required, closest first. */
export const AnswerItemSchema = readObject({ text: z.string(), score: reqNum() });
export const QuestionsAnswerSchema = readObject({ answer: z.array(AnswerItemSchema) });

export const NerEntitySchema = readObject({ text: z.string(), label: z.string(), start: int(), end: int(), score: num() });
export const NerAnswerSchema = readObject({ entities: z.array(NerEntitySchema) });

export const NlpAnswerSchema = readObject({ message: str(), tool_calls: z.unknown().optional(), used_tokens: num() });

/** Knowledge-base upload: `{message}` saying indexing has started. */
export const UploadAnswerSchema = readObject({ message: str() });

export const SttSegmentSchema = readObject({ start: num(), end: num(), text: str(), confidence: num() });
export const SttAnswerSchema = readObject({ text: z.string(), language: str(), segments: list(SttSegmentSchema) });

export type ModelEntry = z.infer<typeof ModelEntrySchema>;
export type AnswerItem = z.infer<typeof AnswerItemSchema>;
export type NerAnswer = z.infer<typeof NerAnswerSchema>;
export type NlpAnswer = z.infer<typeof NlpAnswerSchema>;
export type UploadAnswer = z.infer<typeof UploadAnswerSchema>;
export type SttAnswer = z.infer<typeof SttAnswerSchema>;

export { isKnowledgeBaseName } from '../kb-name';
