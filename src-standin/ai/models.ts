/**
 * The model catalogue of models_by_providers (interface §2.5). The `local` provider is what the
 * stand-in really runs; the third-party entries exist so the console can show and pick them,
 * and nlp answers them with a clear 502 because this machine cannot reach them.
 */
export interface ModelEntry {
  id: string;
  name: string;
  typeModality: string;
  flgFunction: boolean;
  providerName: string;
  metadata: Record<string, unknown> | null;
  depreciatedDate: string | null;
  active: boolean;
}

export const LOCAL_PROVIDER = 'local';
export const LOCAL_TEXT_MODEL = 'local-extractive';

const ALIASES: Record<string, string> = {
  stt: 'speech-to-text',
  speech_to_text: 'speech-to-text',
  asr: 'speech-to-text',
  tts: 'text-to-speech',
  text_to_speech: 'text-to-speech',
  llm: 'text',
  chat: 'text',
  'text-generation': 'text',
};

export const normaliseModality = (m: string): string => {
  const k = m.trim().toLowerCase();
  return ALIASES[k] ?? k;
};

const thirdParty = (providerName: string, id: string, typeModality: string, flgFunction: boolean): ModelEntry => ({
  id,
  name: id,
  typeModality,
  flgFunction,
  providerName,
  metadata: { thirdParty: true, reachable: false, note: 'Listed for choice; the stand-in cannot reach this provider.' },
  depreciatedDate: null,
  active: true,
});

export interface VoiceAvailability {
  sttLanguages: string[];
  sttReady: boolean;
  ttsReady: boolean;
}

export function catalogue(voice: VoiceAvailability): ModelEntry[] {
  return [
    {
      id: LOCAL_TEXT_MODEL,
      name: 'Local extractive assistant (pt-BR, en)',
      typeModality: 'text',
      flgFunction: false,
      providerName: LOCAL_PROVIDER,
      metadata: {
        local: true,
        languages: ['pt-BR', 'en'],
        tasks: ['summary', 'reply-draft'],
        tokenUnit: 'word',
        note: 'Extractive: it picks sentences from the conversation and answers from the knowledge bases and the canned texts, on the conversation’s topic. It describes only the images the stand-in itself holds.',
      },
      depreciatedDate: null,
      active: true,
    },
    {
      id: 'pocketsphinx',
      name: 'PocketSphinx speech recognition',
      typeModality: 'speech-to-text',
      flgFunction: false,
      providerName: LOCAL_PROVIDER,
      metadata: { local: true, languages: voice.sttLanguages, input: 'audio/wav (16 kHz mono after conversion)' },
      depreciatedDate: null,
      active: voice.sttReady,
    },
    {
      id: 'espeak-ng',
      name: 'eSpeak NG speech synthesis',
      typeModality: 'text-to-speech',
      flgFunction: false,
      providerName: LOCAL_PROVIDER,
      metadata: { local: true, languages: ['pt-BR', 'en-US', 'es', 'pt'], output: 'audio/wav' },
      depreciatedDate: null,
      active: voice.ttsReady,
    },
    thirdParty('openai', 'gpt-4o', 'text', true),
    thirdParty('openai', 'gpt-4o-mini', 'text', true),
    thirdParty('openai', 'whisper-1', 'speech-to-text', false),
    thirdParty('openai', 'tts-1', 'text-to-speech', false),
    thirdParty('anthropic', 'claude-sonnet-4', 'text', true),
    thirdParty('anthropic', 'claude-haiku-3-5', 'text', true),
  ];
}

export const providersOf = (models: ModelEntry[]): string[] => [...new Set(models.map((m) => m.providerName))];

/** Filter of models_by_providers: empty provider or modality means "all". */
export function filterModels(models: ModelEntry[], provider?: string, typeModality?: string): ModelEntry[] {
  const p = provider?.trim().toLowerCase() ?? '';
  const m = typeModality ? normaliseModality(typeModality) : '';
  return models.filter((x) => (!p || x.providerName === p) && (!m || x.typeModality === m));
}
