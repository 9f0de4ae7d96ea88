import { z } from 'zod';
import { num, str } from '../../../src-shared/schemas/common';
import type {
  CallLogView,
  CallView,
  LiveTranscript,
  TranscriptChunk,
  TranscriptSegment,
  VoiceState,
} from '../../../src-shared/bridge/voice';
import { LanguageSchema, MAX_CHUNK_SECONDS } from '../../../src-shared/bridge/voice';
import { AppError, isAppError, toErrorInfo, type ErrorInfo } from '../../../src-shared/errors';
import type { SttAnswer } from '../../../src-shared/schemas/index';
import { boolOf, idOf, instantOf, record, sessionIdOf, stringOf } from '../../../src-shared/concepts';
import { oneOf, eqNum } from '../../../src-shared/query-builder';
import type { WebhookEvent } from '../../../src-shared/webhook';
import type { Feature, FeatureContext } from '../context';
import type { MediaPermissionSlot } from './permission';
import { wavInfo } from './wav';
import { shownError } from '../../log';

export { createMediaPermissionSlot } from './permission';
export type { MediaPermissionSlot } from './permission';

export interface VoiceFeature extends Feature<'voice'> {
  /** Each accepted webhook event; the voice group's call transcripts are kept and pushed. */
  onEvent(e: WebhookEvent): void;
}

export interface VoiceDeps {
  /** Adds or removes the platform's audio-capture grant. */
  permission: MediaPermissionSlot;
  /** The system locale: the language speech starts in until the attendant picks one. */
  locale: string;
}

const SETTING = 'voice';
/** Live lines kept per session, and sessions kept, for panels opened after the event. */
const LIVE_PER_SESSION = 200;
const LIVE_SESSIONS = 300;
/** A chunk is at most MAX_CHUNK_SECONDS of 16 kHz mono 16-bit audio (and a little slack). */
const MAX_CHUNK_BYTES = 44 + Math.ceil(MAX_CHUNK_SECONDS * 1.1) * 16_000 * 2;

/** Per-word confidence, when a service sends it beside a segment (the interface does not say). */
const WordsSchema = z.array(z.object({ word: str(), text: str(), confidence: num(), score: num() }).loose());

function toSegment(s: NonNullable<SttAnswer['segments']>[number]): TranscriptSegment | null {
  const text = (s.text ?? '').trim();
  if (!text) return null;
  const confidence = s.confidence ?? null;
  const given = WordsSchema.safeParse((s as Record<string, unknown>).words);
  const words =
    given.success && given.data.length
      ? given.data.flatMap((w) => {
          const t = (w.word ?? w.text ?? '').trim();
          return t ? [{ text: t, confidence: w.confidence ?? w.score ?? confidence }] : [];
        })
      : text.split(/\s+/).map((t) => ({ text: t, confidence }));
  return { start: s.start ?? 0, end: s.end ?? 0, text, confidence, words };
}

/** An answer without segments still has its text: one segment without timing or confidence. */
export function toChunk(seq: number, answer: SttAnswer, fallbackLanguage: string): TranscriptChunk {
  const segments = (answer.segments ?? []).flatMap((s) => {
    const seg = toSegment(s);
    return seg ? [seg] : [];
  });
  const text = answer.text.trim();
  if (segments.length === 0 && text)
    segments.push({ start: 0, end: 0, text, confidence: null, words: text.split(/\s+/).map((t) => ({ text: t, confidence: null })) });
  return { seq, text, language: answer.language ?? fallbackLanguage, segments };
}

const obj = (v: unknown): Record<string, unknown> => record(v) ?? {};

/**
 * Language tags from the active speech-to-text models' metadata (`languages`, `language`): the
 * interface leaves metadata open, so any other shape counts as "not said" (null).
 */
export function speechLanguages(models: ReadonlyArray<{ typeModality?: unknown; active?: unknown; metadata?: unknown }>): string[] | null {
  let said = false;
  const out = new Set<string>();
  for (const m of models) {
    if (m.active === false || (typeof m.typeModality === 'string' && !/speech-to-text|stt/i.test(m.typeModality))) continue;
    const meta = obj(m.metadata);
    const given = Array.isArray(meta.languages) ? meta.languages : typeof meta.language === 'string' ? [meta.language] : null;
    if (!given) continue;
    said = true;
    for (const raw of given) {
      if (typeof raw !== 'string') continue;
      // en_us, EN-us -> en-US, the tag shape the speech calls take.
      const [lang, region] = raw.trim().replace(/_/g, '-').split('-');
      const tag = region ? `${lang!.toLowerCase()}-${region.toUpperCase()}` : lang!.toLowerCase();
      if (LanguageSchema.safeParse(tag).success) out.add(tag);
    }
  }
  return said ? [...out] : null;
}

/** Says which speech operation failed, keeping the service's own words. */
function speechError(what: 'Speech-to-text' | 'Text-to-speech', e: unknown): AppError {
  const info = toErrorInfo(e);
  if (info.kind === 'Unauthorized' || info.kind === 'Cancelled') return isAppError(e) ? e : new AppError(info, { cause: e });
  // The cause goes along: an internal one is logged with its stack where the error is shown.
  return new AppError({ ...info, message: `${what} failed. ${info.message}` }, { cause: e });
}

/** The live call transcripts lately received, per session: the most recent sessions only. */
class LiveTranscripts {
  readonly #bySession = new Map<number, LiveTranscript[]>();

  remember(line: LiveTranscript): void {
    const live = this.#bySession;
    const list = live.get(line.sessionId) ?? [];
    live.delete(line.sessionId); // re-inserted last: the map's order is least recently used first
    if (!list.some((l) => l.key === line.key)) list.push(line);
    if (list.length > LIVE_PER_SESSION) list.splice(0, list.length - LIVE_PER_SESSION);
    live.set(line.sessionId, list);
    while (live.size > LIVE_SESSIONS) {
      const oldest = live.keys().next().value;
      if (oldest === undefined) break;
      live.delete(oldest);
    }
  }

  of(sessionId: number): LiveTranscript[] {
    return [...(this.#bySession.get(sessionId) ?? [])];
  }

  clear(): void {
    this.#bySession.clear();
  }
}

/** A session's calls and their call log, read from the service; a failure is said beside what was read. */
async function readCalls(
  ctx: FeatureContext,
  sessionId: number,
): Promise<{ calls: CallView[]; log: CallLogView[]; error: ErrorInfo | null }> {
  const client = ctx.client();
  let callRows: CallView[] = [];
  let log: CallLogView[] = [];
  let error: ErrorInfo | null = null;
  try {
    const rows = await client.resource('call').pageAll(
      {
        conditions: [eqNum('sessionId', sessionId)],
        sort: true,
        sortColumn: 'startedAt',
        direction: 'DESC',
        size: 100,
      },
      { cap: 200 },
    );
    callRows = rows.map((c) => ({
      id: c.id ?? null,
      callId: c.callId ?? null,
      kind: c.kind ?? null,
      state: c.state ?? null,
      status: c.status ?? null,
      startedAt: c.startedAt ?? c.ringingAt ?? null,
      finishedAt: c.finishedAt ?? null,
      attendanceTime: c.attendanceTime ?? null,
    }));
    const ids = [...new Set(callRows.map((c) => c.callId).filter((x): x is string => !!x))];
    if (ids.length) {
      const entries = await client.resource('callLogHistory').pageAll(
        {
          conditions: [oneOf('callId', ids)],
          sort: true,
          sortColumn: 'eventDate',
          direction: 'ASC',
          size: 200,
        },
        { cap: 2_000 },
      );
      log = entries.map((h) => ({
        id: h.id ?? null,
        callId: h.callId ?? null,
        eventType: h.eventType ?? null,
        eventDate: h.eventDate ?? null,
        callerType: h.callerType ?? null,
        callerId: h.callerId ?? null,
      }));
    }
  } catch (e) {
    if (isAppError(e) && e.kind === 'Unauthorized') throw e;
    error = shownError(ctx.log, e, { op: 'voice.calls' });
  }
  return { calls: callRows, log, error };
}

/** A live transcript line from a voice event; null when the event carries none. */
function transcriptOf(ctx: FeatureContext, e: WebhookEvent): LiveTranscript | null {
  if (e.group !== 'voice') return null;
  const data = obj(e.data);
  const sessionId = sessionIdOf(data);
  const text = stringOf(data.text) ?? stringOf(data.transcript);
  if (sessionId === null || !text) return null;
  return {
    key: e.id,
    sessionId,
    callId: stringOf(data.callId),
    messageId: idOf(data.messageId),
    text,
    final: boolOf(data.final) !== false,
    at:
      (ctx.hasWorkspace() ? ctx.client().time.read(() => instantOf(e.occurredAt)) : instantOf(e.occurredAt)) ??
      new Date(ctx.clock.now()).toISOString(),
  };
}

/** Speech-to-text of one recorded chunk, in the chosen language. */
async function transcribe(ctx: FeatureContext, state: VoiceState, seq: number, audio: string) {
  if (!state.enabled) throw new AppError({ kind: 'Invalid', message: 'Voice is off. Turn voice on to record and transcribe.' });
  const bytes = Buffer.from(audio, 'base64');
  const info = wavInfo(bytes);
  if (!info) throw new AppError({ kind: 'Invalid', message: 'The recording is not WAV audio; nothing was sent.', field: 'audio' });
  if (bytes.length > MAX_CHUNK_BYTES)
    throw new AppError({ kind: 'Invalid', message: `A recorded chunk may last at most ${MAX_CHUNK_SECONDS} s.`, field: 'audio' });
  let answer: SttAnswer;
  try {
    answer = await ctx.client().stt({ file: bytes, language: state.language, filename: `chunk-${seq}.wav`, contentType: 'audio/wav' });
  } catch (e) {
    throw speechError('Speech-to-text', e);
  }
  return toChunk(seq, answer, state.language);
}

/** Text-to-speech in the chosen language: WAV audio, its size and length. */
async function speak(ctx: FeatureContext, state: VoiceState, text: string, voice: string | undefined) {
  let bytes: Uint8Array;
  try {
    bytes = await ctx.client().tts({ text, language: state.language, ...(voice ? { voice } : {}) });
  } catch (e) {
    throw speechError('Text-to-speech', e);
  }
  const info = wavInfo(bytes);
  return {
    audio: Buffer.from(bytes).toString('base64'),
    bytes: bytes.length,
    seconds: info ? Math.round(info.seconds * 100) / 100 : 0,
  };
}

/**
 * Voice on the main side: the switch that grants the microphone, speech-to-text of the chunks
 * the renderer records, text-to-speech, a session's calls and call log, and the live call
 * transcripts the webhook listener receives.
 */
export function createVoiceFeature(ctx: FeatureContext, deps: VoiceDeps): VoiceFeature {
  let state: VoiceState = ctx.settings.get(SETTING) ?? {
    enabled: false,
    language: deps.locale.toLowerCase().startsWith('pt') ? 'pt-BR' : 'en-US',
  };
  const live = new LiveTranscripts();

  const save = (next: VoiceState) => {
    state = next;
    ctx.settings.set(SETTING, state);
    deps.permission.set(state.enabled);
    ctx.events.emit('voice:state', state);
    return state;
  };

  return {
    onEvent(e) {
      const line = transcriptOf(ctx, e);
      if (!line) return;
      live.remember(line);
      ctx.events.emit('voice:transcript', line);
    },
    handlers: {
      'voice:state': async () => state,
      'voice:setEnabled': async ({ enabled }) => save({ ...state, enabled }),
      'voice:setLanguage': async ({ language }) => save({ ...state, language }),
      'voice:languages': async () => {
        const models = await ctx.client().modelsByProviders({ provider: '', typeModality: 'speech-to-text' });
        return { languages: speechLanguages(models) };
      },
      'voice:transcribe': ({ seq, audio }) => transcribe(ctx, state, seq, audio),
      'voice:speak': ({ text, voice }) => speak(ctx, state, text, voice),
      'voice:calls': async ({ sessionId }) => {
        const { calls, log, error } = await readCalls(ctx, sessionId);
        return { calls, log, live: live.of(sessionId), error };
      },
    },
    async start() {
      // The stored choice holds across restarts; the platform's grant follows it from the start.
      deps.permission.set(state.enabled);
    },
    async stop() {
      deps.permission.set(false);
      live.clear();
    },
  };
}
