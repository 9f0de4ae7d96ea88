import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { z } from 'zod';
import { AiHttpError, badRequest, failure, type AiResponse } from './respond';
import { errorText } from '../../src-shared/error-text';

/**
 * Speech for the stand-in through Debian's tools, run without a shell and with time limits:
 * speech-to-text with pocketsphinx (sox first converts any input to 16 kHz mono 16-bit WAV),
 * text-to-speech with espeak-ng. A missing tool answers 503 naming the Debian package.
 */

export interface VoiceBinaries {
  pocketsphinx: string;
  sox: string;
  espeak: string;
  modelDir: string;
}

export const DEFAULT_BINARIES: VoiceBinaries = {
  pocketsphinx: 'pocketsphinx_continuous',
  sox: 'sox',
  espeak: 'espeak-ng',
  modelDir: '/usr/share/pocketsphinx/model',
};

const PACKAGE_OF: Record<keyof Omit<VoiceBinaries, 'modelDir'>, string> = { pocketsphinx: 'pocketsphinx', sox: 'sox', espeak: 'espeak-ng' };

export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
export const MAX_TTS_CHARS = 5000;
const RUN_TIMEOUT_MS = 60_000;
const MAX_PARALLEL = 2; // the machine has two cores

const missingAnswer = (tool: keyof typeof PACKAGE_OF, path: string, purpose: string): AiResponse =>
  failure(
    503,
    `${purpose} is unavailable: ${path} was not found. Install the Debian package ${PACKAGE_OF[tool]} (apt-get install ${PACKAGE_OF[tool]}).`,
    'MISSING_BINARY',
  );

/** Finds an executable as the OS would (absolute path, or along PATH). */
export async function findExecutable(name: string): Promise<string | null> {
  const candidates = name.includes('/')
    ? [name]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((d) => join(d, name));
  for (const c of candidates) {
    try {
      await access(c, constants.X_OK);
      return c;
    } catch {
      // keep looking
    }
  }
  return null;
}

interface RunResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs a tool to its end; `signal` stops it (the promise then rejects). */
function run(file: string, args: string[], opts: { input?: string; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { shell: false, stdio: ['pipe', 'pipe', 'pipe'], ...(opts.signal ? { signal: opts.signal } : {}) });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? RUN_TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => {
      outBytes += d.length;
      if (outBytes <= 64 * 1024 * 1024) out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 16_384) err += d.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL')
        reject(new Error(`${file} took longer than ${(opts.timeoutMs ?? RUN_TIMEOUT_MS) / 1000} s and was stopped`));
      else resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
    child.stdin.on('error', () => {}); // the tool may exit before reading all input
    child.stdin.end(opts.input ?? '');
  });
}

/** At most MAX_PARALLEL voice jobs at once; the rest wait their turn. */
class Gate {
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  async use<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active >= MAX_PARALLEL) await new Promise<void>((r) => this.#waiting.push(r));
    this.#active++;
    try {
      return await fn();
    } finally {
      this.#active--;
      this.#waiting.shift()?.();
    }
  }
}

// ---- language models ----------------------------------------------------------------

interface SttModel {
  language: string;
  hmm: string;
  lm: string;
  dict: string;
}

const langKey = (s: string): string => s.trim().toLowerCase().replace(/_/g, '-');
/** "en-us" -> "en-US" for answers. */
const langLabel = (k: string): string => k.replace(/-([a-z]{2})$/, (_m, r: string) => `-${r.toUpperCase()}`);

/** Debian's layout: model/<lang>/<lang>/ (acoustic), <lang>.lm.bin, cmudict-<lang>.dict. */
async function sttModels(modelDir: string): Promise<SttModel[]> {
  let entries: string[];
  try {
    entries = await readdir(modelDir);
  } catch {
    return [];
  }
  const out: SttModel[] = [];
  for (const lang of entries.sort()) {
    const m = {
      language: lang,
      hmm: join(modelDir, lang, lang),
      lm: join(modelDir, lang, `${lang}.lm.bin`),
      dict: join(modelDir, lang, `cmudict-${lang}.dict`),
    };
    try {
      await Promise.all([access(m.hmm), access(m.lm), access(m.dict)]);
      out.push(m);
    } catch {
      // not a complete model
    }
  }
  return out;
}

function pickModel(models: SttModel[], requested: string | undefined): SttModel | null {
  if (!requested) return models[0] ?? null;
  const k = langKey(requested);
  return models.find((m) => m.language === k) ?? models.find((m) => m.language.split('-')[0] === k.split('-')[0]) ?? null;
}

// ---- speech-to-text -------------------------------------------------------------------

/** `words` is a stand-in addition: pocketsphinx gives a posterior per word, and the console marks weak ones. */
export interface Segment {
  start: number;
  end: number;
  text: string;
  confidence: number;
  words: Array<{ word: string; start: number; end: number; confidence: number }>;
}
export interface SttAnswer {
  text: string;
  language: string;
  segments: Segment[];
}

/**
 * pocketsphinx with `-time yes` prints, per utterance, the hypothesis and then one line per
 * word: "word start end posterior", framed by <s> and </s>. Fillers (<sil>, [NOISE]) are left
 * out and alternative pronunciations ("tickets(2)") lose their marker.
 */
const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function parsePocketsphinx(stdout: string): Segment[] {
  const segments: Segment[] = [];
  let words: Array<{ w: string; start: number; end: number; p: number }> = [];
  const flush = () => {
    if (words.length) {
      const first = words[0];
      const last = words[words.length - 1];
      if (first && last) {
        segments.push({
          start: first.start,
          end: last.end,
          text: words.map((x) => x.w).join(' '),
          confidence: round3(words.reduce((a, x) => a + x.p, 0) / words.length),
          words: words.map((x) => ({ word: x.w, start: x.start, end: x.end, confidence: round3(x.p) })),
        });
      }
    }
    words = [];
  };
  for (const line of stdout.split('\n')) {
    const m = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?(?:e-?\d+)?)$/.exec(line.trim());
    if (!m) continue;
    const token = m[1] ?? '';
    if (token === '<s>') flush();
    else if (token === '</s>') flush();
    else if (token.startsWith('<') || token.startsWith('[') || token.startsWith('++')) continue;
    else words.push({ w: token.replace(/\(\d+\)$/, ''), start: Number(m[2]), end: Number(m[3]), p: Math.min(1, Number(m[4])) });
  }
  flush();
  return segments;
}

const AUDIO_EXT: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/aiff': 'aiff',
  'audio/x-aiff': 'aiff',
};

function audioExtension(file: File): string {
  const fromName = /\.([a-z0-9]{2,5})$/i.exec(file.name)?.[1]?.toLowerCase();
  if (fromName && ['wav', 'flac', 'ogg', 'mp3', 'aiff', 'aif', 'au', 'raw'].includes(fromName)) return fromName;
  return AUDIO_EXT[file.type.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'wav';
}

// ---- text-to-speech ---------------------------------------------------------------------

export const TtsRequestSchema = z
  .object({
    text: z.string().trim().min(1, 'text must not be empty').max(MAX_TTS_CHARS, `text is limited to ${MAX_TTS_CHARS} characters`),
    language: z.string().max(20).optional(),
    voice: z.string().max(40).optional(),
  })
  .loose();
export type TtsRequest = z.infer<typeof TtsRequestSchema>;

/** espeak-ng --voices prints "Pty Language Age/Gender VoiceName File Other": the language column. */
function parseVoiceList(out: string): string[] {
  return out
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/)[1] ?? '')
    .filter(Boolean)
    .map((x) => x.toLowerCase());
}

/** Variant names from "espeak-ng --voices=variant" (their file column is "!v/<name>"). */
function parseVariantList(out: string): string[] {
  return out
    .split('\n')
    .slice(1)
    .map((l) => /!v\/(\S+)/.exec(l)?.[1] ?? '')
    .filter(Boolean);
}

// ---- the service --------------------------------------------------------------------------

export class VoiceService {
  readonly #gate = new Gate();
  #voices: Promise<{ languages: string[]; variants: string[] }> | null = null;
  /** Aborted by `close`: stops the tools still running. */
  readonly #closing = new AbortController();
  /** Jobs under way, each removing its scratch folder as it ends. */
  readonly #jobs = new Set<Promise<AiResponse>>();

  readonly #bin: VoiceBinaries;
  readonly #scratchDir: string;
  /** `scratchDir`: where each job's scratch folder is made (the system's temporary folder by default). */
  constructor(bin: VoiceBinaries = DEFAULT_BINARIES, o: { scratchDir?: string } = {}) {
    this.#bin = bin;
    this.#scratchDir = o.scratchDir ?? tmpdir();
  }

  /**
   * A job in a scratch folder of its own, removed when the job ends, however it ends: closing the
   * service stops its tools and waits for that, so no folder outlives the stand-in.
   */
  #job(prefix: string, work: (dir: string, signal: AbortSignal) => Promise<AiResponse>): Promise<AiResponse> {
    const signal = this.#closing.signal;
    const job = this.#gate.use(async () => {
      if (signal.aborted) return failure(503, 'The speech service is stopping.', 'VOICE_FAILED');
      const dir = await mkdtemp(join(this.#scratchDir, prefix));
      try {
        return await work(dir, signal);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
    this.#jobs.add(job);
    const done = () => void this.#jobs.delete(job);
    job.then(done, done);
    return job;
  }

  /** Stops the jobs under way and waits until each has removed its scratch folder. */
  async close(): Promise<void> {
    this.#closing.abort();
    await Promise.allSettled([...this.#jobs]);
  }

  async availability(): Promise<{ sttLanguages: string[]; sttReady: boolean; ttsReady: boolean }> {
    const [ps, sox, es, models] = await Promise.all([
      findExecutable(this.#bin.pocketsphinx),
      findExecutable(this.#bin.sox),
      findExecutable(this.#bin.espeak),
      sttModels(this.#bin.modelDir),
    ]);
    return { sttLanguages: models.map((m) => langLabel(m.language)), sttReady: !!(ps && sox && models.length), ttsReady: !!es };
  }

  async #need(tool: keyof typeof PACKAGE_OF, purpose: string): Promise<string> {
    const path = await findExecutable(this.#bin[tool]);
    if (!path) throw new AiHttpError(missingAnswer(tool, this.#bin[tool], purpose));
    return path;
  }

  async stt(contentType: string | undefined, body: Buffer): Promise<AiResponse> {
    if (body.length > MAX_AUDIO_BYTES) return failure(413, `Audio is limited to ${MAX_AUDIO_BYTES / 1024 / 1024} MB.`, 'PAYLOAD_TOO_LARGE');
    if (!contentType || !/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
      return badRequest('Send multipart/form-data with a "file" part (audio) and an optional "language" part.');
    }
    let form: FormData;
    try {
      // undici's Response parses multipart bodies; the size was capped above.
      form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
    } catch {
      return badRequest('The multipart body could not be read.');
    }
    const file = form.get('file');
    if (!(file instanceof File) || file.size === 0) return badRequest('The "file" part with the audio is missing or empty.');
    const langPart = form.get('language');
    const requested = typeof langPart === 'string' && langPart.trim() ? langPart.trim() : undefined;

    const purpose = 'Speech-to-text';
    const sphinx = await this.#need('pocketsphinx', purpose);
    const sox = await this.#need('sox', purpose);
    const models = await sttModels(this.#bin.modelDir);
    if (models.length === 0) {
      return failure(
        503,
        `${purpose} is unavailable: no acoustic model in ${this.#bin.modelDir}. Install the Debian package pocketsphinx-en-us.`,
        'MISSING_BINARY',
      );
    }
    const model = pickModel(models, requested);
    if (!model) {
      return badRequest(
        `No speech-to-text model for "${requested}" on this machine (installed: ${models.map((m) => langLabel(m.language)).join(', ')}).`,
        'LANGUAGE_NOT_INSTALLED',
      );
    }

    return this.#job('standin-stt-', async (dir, signal) => {
      const input = join(dir, `input.${audioExtension(file)}`);
      const wav = join(dir, 'speech16k.wav');
      await writeFile(input, Buffer.from(await file.arrayBuffer()));
      const conv = await run(sox, [input, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', wav], { signal });
      if (conv.code !== 0) {
        const why = conv.stderr.split('\n').find((l) => l.trim()) ?? `sox exited with ${conv.code}`;
        return badRequest(`The audio could not be read: ${why.replace(/^sox (FAIL|WARN) \w+: /, '')}`, 'AUDIO_UNREADABLE');
      }
      const rec = await run(
        sphinx,
        ['-infile', wav, '-time', 'yes', '-logfn', '/dev/null', '-hmm', model.hmm, '-lm', model.lm, '-dict', model.dict],
        { signal },
      );
      if (rec.code !== 0) return failure(500, `Speech recognition failed (pocketsphinx exited with ${rec.code}).`, 'VOICE_FAILED');
      const segments = parsePocketsphinx(rec.stdout.toString('utf8'));
      const answer: SttAnswer = { text: segments.map((s) => s.text).join(' '), language: langLabel(model.language), segments };
      return { status: 200, body: answer };
    });
  }

  /**
   * The installed voices, read once. A read that failed (espeak-ng exited with an error, ran out of
   * time or was stopped by `close`) is not kept: the next request reads again.
   */
  async #voiceList(espeak: string): Promise<{ languages: string[]; variants: string[] }> {
    if (!this.#voices) {
      const signal = this.#closing.signal;
      const reading = (async () => {
        const [l, v] = await Promise.all([
          run(espeak, ['--voices'], { timeoutMs: 10_000, signal }),
          run(espeak, ['--voices=variant'], { timeoutMs: 10_000, signal }),
        ]);
        if (l.code !== 0 || v.code !== 0) throw new Error(`espeak-ng could not list its voices (exit ${l.code || v.code}).`);
        return { languages: parseVoiceList(l.stdout.toString('utf8')), variants: parseVariantList(v.stdout.toString('utf8')) };
      })();
      this.#voices = reading;
      reading.catch(() => {
        if (this.#voices === reading) this.#voices = null;
      });
    }
    return this.#voices;
  }

  async tts(req: TtsRequest): Promise<AiResponse> {
    const espeak = await this.#need('espeak', 'Text-to-speech');
    let voices: { languages: string[]; variants: string[] };
    try {
      voices = await this.#voiceList(espeak);
    } catch (e) {
      return failure(503, `Text-to-speech cannot list its voices now: ${errorText(e)}`, 'VOICE_FAILED');
    }
    const { languages, variants } = voices;
    const lang = langKey(req.language ?? 'pt-BR');
    const voiceLang = languages.includes(lang) ? lang : languages.includes(lang.split('-')[0] ?? '') ? lang.split('-')[0] : null;
    if (!voiceLang) return badRequest(`No text-to-speech voice for "${req.language}" (try pt-BR, en-US, es).`, 'LANGUAGE_NOT_INSTALLED');
    let voice = voiceLang;
    if (req.voice) {
      const v = req.voice.trim().toLowerCase();
      // Variant files keep their case on disk ("Alex"), callers may not.
      const variant = /^[a-z0-9_-]{1,32}$/.test(v) ? variants.find((x) => x.toLowerCase() === v) : undefined;
      if (!variant) {
        return badRequest(
          `Unknown voice "${req.voice}"; voices are espeak-ng variants such as ${variants.slice(0, 6).join(', ')}.`,
          'UNKNOWN_VOICE',
        );
      }
      voice = `${voiceLang}+${variant}`;
    }
    return this.#job('standin-tts-', async (dir, signal) => {
      const out = join(dir, 'speech.wav');
      // The text goes through stdin so it can never be read as an option.
      const r = await run(espeak, ['-v', voice, '-w', out, '--stdin'], { input: req.text, signal });
      if (r.code !== 0) return failure(500, `Speech synthesis failed (espeak-ng exited with ${r.code}).`, 'VOICE_FAILED');
      const wav = await readFile(out);
      return { status: 200, headers: { 'content-type': 'audio/wav' }, body: wav };
    });
  }
}
