import { z } from 'zod';
import { ErrorInfoSchema } from '../errors';

/**
 * Voice: the microphone switch, speech-to-text of recorded chunks, text-to-speech, a session's
 * calls and the live call transcripts from the webhook listener. Strict: we own these shapes.
 */

/**
 * Audio crosses the bridge as base64. A chunk is a 16 kHz mono 16-bit WAV of at most
 * MAX_CHUNK_SECONDS (about 320 KB, 427 K base64 characters); the cap leaves room under the web
 * host's 1 MiB body limit and refuses anything a runaway recorder could send.
 */
export const MAX_CHUNK_SECONDS = 10;
export const MAX_AUDIO_BASE64 = 600_000;
/** Text read aloud at once; espeak-ng's WAV of it stays a few MB. */
export const MAX_SPEAK_CHARS = 3000;

const id = z.number().int();
const base64 = (max: number) =>
  z
    .string()
    .min(8)
    .max(max)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64');
/** BCP 47 tags as the service takes them (en-US, pt-BR, es). */
export const LanguageSchema = z.string().regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'a language tag such as en-US or pt-BR');

export const VoiceStateSchema = z
  .object({
    /** The attendant turned voice on: the microphone may be used. */
    enabled: z.boolean(),
    /** Language of speech-to-text and text-to-speech. */
    language: LanguageSchema,
  })
  .strict();
export type VoiceState = z.infer<typeof VoiceStateSchema>;

export const SttWordSchema = z.object({ text: z.string(), confidence: z.number().nullable() }).strict();
export const TranscriptSegmentSchema = z
  .object({
    /** Seconds from the start of the chunk. */
    start: z.number(),
    end: z.number(),
    text: z.string(),
    confidence: z.number().nullable(),
    /** Per-word confidence when the service gives it; else every word carries the segment's. */
    words: z.array(SttWordSchema),
  })
  .strict();
export type TranscriptSegment = z.infer<typeof TranscriptSegmentSchema>;

export const TranscriptChunkSchema = z
  .object({ seq: id, text: z.string(), language: z.string(), segments: z.array(TranscriptSegmentSchema) })
  .strict();
export type TranscriptChunk = z.infer<typeof TranscriptChunkSchema>;

export const CallViewSchema = z
  .object({
    id: id.nullable(),
    callId: z.string().nullable(),
    kind: z.string().nullable(),
    state: z.string().nullable(),
    status: z.string().nullable(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    /** Seconds the call was attended, when the service says. */
    attendanceTime: z.number().nullable(),
  })
  .strict();
export type CallView = z.infer<typeof CallViewSchema>;

export const CallLogViewSchema = z
  .object({
    id: id.nullable(),
    callId: z.string().nullable(),
    eventType: z.string().nullable(),
    eventDate: z.string().nullable(),
    callerType: z.string().nullable(),
    callerId: z.string().nullable(),
  })
  .strict();
export type CallLogView = z.infer<typeof CallLogViewSchema>;

/** A call transcript line pushed by the service (webhook group "voice"). */
export const LiveTranscriptSchema = z
  .object({
    key: z.string(),
    sessionId: id,
    callId: z.string().nullable(),
    messageId: id.nullable(),
    text: z.string(),
    final: z.boolean(),
    at: z.string(),
  })
  .strict();
export type LiveTranscript = z.infer<typeof LiveTranscriptSchema>;

export const voiceChannels = {
  'voice:state': { input: z.object({}).strict(), output: VoiceStateSchema },
  /** Turns voice on or off; in Electron this adds or removes the audio-capture permission. */
  'voice:setEnabled': { input: z.object({ enabled: z.boolean() }).strict(), output: VoiceStateSchema },
  'voice:setLanguage': { input: z.object({ language: LanguageSchema }).strict(), output: VoiceStateSchema },
  /**
   * The languages the service's speech-to-text models say they support; null when the service
   * says nothing about languages (the console then offers its own short list).
   */
  'voice:languages': { input: z.object({}).strict(), output: z.object({ languages: z.array(LanguageSchema).nullable() }).strict() },
  /** One recorded chunk (WAV, base64) through the service's speech-to-text. */
  'voice:transcribe': {
    input: z.object({ seq: id.min(0), audio: base64(MAX_AUDIO_BASE64) }).strict(),
    output: TranscriptChunkSchema,
  },
  /** Text-to-speech: WAV bytes as base64. */
  'voice:speak': {
    input: z.object({ text: z.string().trim().min(1).max(MAX_SPEAK_CHARS), voice: z.string().max(40).optional() }).strict(),
    output: z.object({ audio: z.string(), bytes: id, seconds: z.number() }).strict(),
  },
  /** A session's calls, their call log history, and the live transcript lines seen this run. */
  'voice:calls': {
    input: z.object({ sessionId: id }).strict(),
    output: z
      .object({
        calls: z.array(CallViewSchema),
        log: z.array(CallLogViewSchema),
        live: z.array(LiveTranscriptSchema),
        /** Why the calls could not be read: worded by the page, in its language. */
        error: ErrorInfoSchema.nullable(),
      })
      .strict(),
  },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const voiceEvents = {
  'voice:state': VoiceStateSchema,
  'voice:transcript': LiveTranscriptSchema,
} as const satisfies Record<string, z.ZodType>;
