import { i18n } from '../../lib/i18n.svelte';
import { onChange } from '../../lib/effects.svelte';
import type { QueueItem } from '../../../../src-shared/bridge/attendance';
import { bucketOf } from '../../../../src-shared/queue';
import type { CallLogView, CallView, LiveTranscript, TranscriptSegment, VoiceState } from '../../../../src-shared/bridge/voice';
import { LOW_CONFIDENCE } from '../../../../src-shared/voice';
import { BridgeError, failure, type Worded, worded, wordingOf } from '../../lib/bridge';
import type { Followed, Scope } from '../../lib/scope.svelte';
import { base64ToBytes, bytesToBase64, encodeWav, type Chunk } from './pcm';
import { MicRecorder, RecorderFailure } from './recorder';
import { tt } from './strings';
import { ReadRetry } from '../../lib/read-retry.svelte';

/** A transcribed segment, placed in the recording (seconds from its start). */
export interface HeardSegment extends TranscriptSegment {
  key: string;
  seq: number;
  at: number;
}

interface SessionWork {
  heard: HeardSegment[];
  transcript: string;
}

export const isLow = (confidence: number | null): boolean => confidence !== null && confidence < LOW_CONFIDENCE;

function recorderText(e: RecorderFailure): string {
  switch (e.reason) {
    case 'no-microphone':
      return tt('err.noMic');
    case 'denied':
      return tt('err.denied');
    case 'busy':
      return tt('err.busy');
    case 'unsupported':
      return tt('err.unsupported');
    default:
      return tt('err.failed', { detail: e.message });
  }
}

/**
 * A speech call's failure in the interface language: what happened, said by its kind, with the
 * service's own words kept only where they say what to change (a refused request).
 */
function speechMessage(e: unknown, what: 'stt' | 'tts'): Worded {
  if (!(e instanceof BridgeError)) return failure(e);
  return () => speechText(e, what);
}

function speechText(e: BridgeError, what: 'stt' | 'tts'): string {
  const op = tt(what === 'stt' ? 'err.op.stt' : 'err.op.tts');
  const detail = e.info.message.replace(/^(Speech-to-text|Text-to-speech) failed\.\s*/, '');
  switch (e.info.kind) {
    case 'Unavailable':
    case 'Timeout':
    case 'OutcomeUnknown':
      return tt('err.speechDown', { op });
    case 'RateLimited':
      return tt('err.speechBusy', { op });
    case 'Forbidden':
      return tt('err.speechForbidden', { op });
    case 'BadResponse':
      return tt('err.speechGarbled', { op });
    case 'Invalid':
    case 'NotFound':
      return tt('err.speechRefused', { op, detail });
    default:
      return failure(e)();
  }
}

/**
 * Keeps the voice store on the session a component shows, from that component's script: the
 * store opens it whenever the component's session is not the one it holds.
 */
export function followSession(voice: VoiceStore, sessionId: () => number): void {
  onChange(
    () => (voice.sessionId === sessionId() ? null : sessionId()),
    (id) => {
      if (id !== null) void voice.open(id);
    },
  );
}

/**
 * Voice for the console: the microphone switch, recording a session's voice note into a
 * transcript the attendant corrects and saves as a note, reading text aloud, and a session's
 * calls with their live transcript. One microphone, so one recording at a time.
 */
export class VoiceStore {
  readonly #scope: Scope;
  /** The voice settings as pushed (on, language); an answer to a change is taken unless a later push came first. */
  readonly #state: Followed<VoiceState>;
  constructor(scope: Scope) {
    this.#scope = scope;
    this.#state = scope.follow('voice:state', (s) => {
      this.#enabled = s.enabled;
      this.#language = s.language;
    });
  }

  #enabled = $state(false);
  #language = $state('en-US');
  /** What the speech service says it understands; null while unknown (then the console's list). */
  #offered = $state<string[] | null>(null);
  #loaded = $state(false);

  #sessionId = $state<number | null>(null);
  #recording = $state(false);
  #starting = $state(false);
  #level = $state(0);
  #inFlight = $state(0);
  #heard = $state.raw<HeardSegment[]>([]);
  transcript = $state('');
  #failed = $state.raw<Array<{ seq: number; audio: string; at: number }>>([]);
  #error = $state.raw<Worded | null>(null);
  #notice = $state.raw<Worded | null>(null);
  #saving = $state(false);

  #speech = $state<{ url: string; bytes: number; seconds: number; owner: string } | null>(null);
  /** Which read-aloud control asked (each shows its own player). */
  #speaking = $state<string | null>(null);
  #speechError = $state.raw<{ owner: string; message: Worded } | null>(null);

  /** The attendant's own open sessions, voice calls first (from the queue snapshot). */
  #sessions = $state.raw<QueueItem[]>([]);
  #sessionsLoading = $state(false);
  #sessionsError = $state.raw<Worded | null>(null);

  #calls = $state.raw<CallView[]>([]);
  #callLog = $state.raw<CallLogView[]>([]);
  #live = $state.raw<LiveTranscript[]>([]);
  #callsError = $state.raw<Worded | null>(null);
  #callsLoading = $state(false);

  get enabled() {
    return this.#enabled;
  }
  get language() {
    return this.#language;
  }
  get offered() {
    return this.#offered;
  }
  get loaded() {
    return this.#loaded;
  }
  get sessionId() {
    return this.#sessionId;
  }
  get recording() {
    return this.#recording;
  }
  get starting() {
    return this.#starting;
  }
  get level() {
    return this.#level;
  }
  get inFlight() {
    return this.#inFlight;
  }
  get heard() {
    return this.#heard;
  }
  get failed() {
    return this.#failed;
  }
  get error() {
    return worded(this.#error);
  }
  get notice() {
    return worded(this.#notice);
  }
  get saving() {
    return this.#saving;
  }
  get speech() {
    return this.#speech;
  }
  get speaking() {
    return this.#speaking;
  }
  get speechError() {
    const e = this.#speechError;
    return e && { owner: e.owner, message: e.message() };
  }
  get sessions() {
    return this.#sessions;
  }
  get sessionsLoading() {
    return this.#sessionsLoading;
  }
  get sessionsError() {
    return worded(this.#sessionsError);
  }
  /** When the sessions that could not be read are asked again by itself (ms since epoch), or null. */
  get sessionsRetryAt() {
    return this.#sessionsRetry.at;
  }
  /** When the calls that could not be read are asked again by itself (ms since epoch), or null. */
  get callsRetryAt() {
    return this.#callsRetry.at;
  }
  readonly #sessionsRetry = new ReadRetry();
  readonly #callsRetry = new ReadRetry();
  get calls() {
    return this.#calls;
  }
  get callLog() {
    return this.#callLog;
  }
  get live() {
    return this.#live;
  }
  get callsError() {
    return worded(this.#callsError);
  }
  get callsLoading() {
    return this.#callsLoading;
  }

  #work = new Map<number, SessionWork>();
  #recorder: MicRecorder | null = null;
  #seq = 0;
  /** Which session the chunks now in flight belong to (the attendant may switch meanwhile). */
  #recordingFor: number | null = null;
  #unsubscribe: Array<() => void> = [];
  #gen = 0;

  get canSave(): boolean {
    return this.#sessionId !== null && this.transcript.trim().length > 0 && !this.#saving;
  }

  async init(): Promise<void> {
    if (this.#unsubscribe.length === 0) {
      this.#unsubscribe.push(
        this.#scope.on('voice:transcript', (line) => {
          if (line.sessionId !== this.#sessionId || this.#live.some((l) => l.key === line.key)) return;
          this.#live = [...this.#live, line].slice(-200);
        }),
      );
    }
    try {
      await this.#state.read(() => this.#scope.invoke('voice:state', {}));
      this.#loaded = true;
    } catch (e) {
      this.#error = failure(e);
    }
    await this.loadLanguages();
  }

  /**
   * Offers only the languages the speech service supports; when the current one is not among
   * them, switches to the interface language (or its base language), else the first offered.
   */
  async loadLanguages(): Promise<void> {
    try {
      this.#offered = (await this.#scope.invoke('voice:languages', {})).languages;
    } catch {
      this.#offered = null; // the service did not answer: recording reports its own errors
    }
    const offered = this.#offered;
    if (!offered?.length || offered.includes(this.#language)) return;
    const base = (tag: string) => tag.split('-')[0];
    const pick = offered.find((l) => l === i18n.locale) ?? offered.find((l) => base(l) === base(i18n.locale)) ?? offered[0]!;
    await this.setLanguage(pick);
  }

  async loadSessions(): Promise<void> {
    this.#sessionsLoading = true;
    this.#sessionsRetry.stop();
    try {
      const snap = await this.#scope.invoke('attendance:queue', {});
      this.#sessionsError = null;
      this.#sessionsRetry.reset();
      this.#sessions = snap.items
        .filter((s) => {
          const b = bucketOf(s, snap.me);
          return b === 'mine' || b === 'pending';
        })
        .sort((a, b) => Number(b.channel === 'voice') - Number(a.channel === 'voice') || a.customerName.localeCompare(b.customerName));
    } catch (e) {
      // The sessions shown stay; the list is read again by itself.
      this.#sessionsError = failure(e);
      this.#sessionsRetry.failedCall(e, () => void this.loadSessions());
    } finally {
      this.#sessionsLoading = false;
    }
  }

  async setEnabled(enabled: boolean): Promise<void> {
    this.#error = null;
    if (!enabled && this.#recording) await this.stop();
    try {
      await this.#state.read(() => this.#scope.invoke('voice:setEnabled', { enabled }));
    } catch (e) {
      this.#error = failure(e);
    }
  }

  async setLanguage(language: string): Promise<void> {
    try {
      await this.#state.read(() => this.#scope.invoke('voice:setLanguage', { language }));
    } catch (e) {
      this.#error = failure(e);
    }
  }

  /** Shows a session: its transcript in progress, its calls. */
  async open(sessionId: number | null): Promise<void> {
    if (sessionId === this.#sessionId) return;
    // The last chunk's words land in the session that was recorded before it is put aside.
    if (this.#recording) await this.stop();
    this.#keep();
    const gen = ++this.#gen;
    this.#sessionId = sessionId;
    const w = sessionId === null ? undefined : this.#work.get(sessionId);
    this.#heard = w?.heard ?? [];
    this.transcript = w?.transcript ?? '';
    this.#failed = [];
    this.#error = null;
    this.#notice = null;
    this.#clearCalls();
    if (sessionId !== null && gen === this.#gen) await this.loadCalls();
  }

  /** Forgets the shown session's calls, their log and the live call lines. */
  #clearCalls(): void {
    this.#calls = [];
    this.#callLog = [];
    this.#live = [];
    this.#callsError = null;
    this.#callsRetry.reset();
  }

  async loadCalls(): Promise<void> {
    const sessionId = this.#sessionId;
    if (sessionId === null) return;
    const gen = this.#gen;
    this.#callsLoading = true;
    this.#callsRetry.stop();
    const again = () => void (gen === this.#gen && this.loadCalls());
    try {
      const r = await this.#scope.invoke('voice:calls', { sessionId });
      if (gen !== this.#gen) return;
      // Calls that could not be read keep what was shown of them.
      if (!r.error || r.calls.length) this.#calls = r.calls;
      if (!r.error || r.log.length) this.#callLog = r.log;
      // Lines pushed while the list was loading are kept.
      const keys = new Set(r.live.map((l) => l.key));
      this.#live = [...r.live, ...this.#live.filter((l) => !keys.has(l.key))];
      this.#callsError = r.error && wordingOf(r.error);
      if (r.error) this.#callsRetry.failed(r.error, again);
      else this.#callsRetry.reset();
    } catch (e) {
      if (gen !== this.#gen) return;
      this.#callsError = failure(e);
      this.#callsRetry.failedCall(e, again);
    } finally {
      if (gen === this.#gen) this.#callsLoading = false;
    }
  }

  async toggleRecording(): Promise<void> {
    if (this.#recording) await this.stop();
    else await this.record();
  }

  async record(): Promise<void> {
    if (this.#recording || this.#starting || this.#sessionId === null) return;
    this.#error = null;
    this.#notice = null;
    if (!this.#enabled) {
      this.#error = () => tt('err.off');
      return;
    }
    this.#starting = true;
    const recorder = new MicRecorder({
      chunk: (c) => void this.#send(c),
      level: (rms) => {
        this.#level = Math.min(1, rms * 4);
      },
    });
    try {
      await recorder.start();
      this.#recorder = recorder;
      this.#recordingFor = this.#sessionId;
      this.#recording = true;
    } catch (e) {
      this.#error = e instanceof RecorderFailure ? () => recorderText(e) : failure(e);
    } finally {
      this.#starting = false;
    }
  }

  async stop(): Promise<void> {
    const recorder = this.#recorder;
    this.#recorder = null;
    this.#recording = false;
    this.#level = 0;
    const last = await recorder?.stop();
    if (last) await this.#send(last);
  }

  async retry(): Promise<void> {
    const list = this.#failed;
    this.#failed = [];
    this.#error = null;
    await Promise.all(list.map((f) => this.#transcribe(f.seq, f.audio, f.at, this.#sessionId)));
  }

  async #send(chunk: Chunk): Promise<void> {
    const audio = bytesToBase64(encodeWav(chunk.samples));
    await this.#transcribe(this.#seq++, audio, chunk.offset, this.#recordingFor ?? this.#sessionId);
  }

  async #transcribe(seq: number, audio: string, at: number, sessionId: number | null): Promise<void> {
    if (sessionId === null) return;
    this.#inFlight++;
    try {
      const r = await this.#scope.invoke('voice:transcribe', { seq, audio });
      const segments: HeardSegment[] = r.segments.map((s, i) => ({ ...s, key: `${seq}:${i}`, seq, at: at + s.start }));
      if (sessionId === this.#sessionId) {
        this.#heard = [...this.#heard, ...segments].sort((a, b) => a.seq - b.seq || a.at - b.at);
        if (r.text) this.transcript = `${this.transcript.trimEnd()} ${r.text}`.trim();
      } else {
        const w = this.#work.get(sessionId) ?? { heard: [], transcript: '' };
        w.heard = [...w.heard, ...segments];
        if (r.text) w.transcript = `${w.transcript.trimEnd()} ${r.text}`.trim();
        this.#work.set(sessionId, w);
      }
    } catch (e) {
      if (sessionId === this.#sessionId) {
        this.#error = speechMessage(e, 'stt');
        this.#failed = [...this.#failed, { seq, audio, at }];
      }
    } finally {
      this.#inFlight--;
    }
  }

  /** The corrected transcript becomes a note through the outbox (kept even when offline). */
  async save(): Promise<void> {
    const sessionId = this.#sessionId;
    const text = this.transcript.trim();
    if (sessionId === null || !text) return;
    this.#saving = true;
    this.#error = null;
    try {
      await this.#scope.invoke('notes:add', { sessionId, text });
      this.transcript = '';
      this.#heard = [];
      this.#work.delete(sessionId);
      this.#notice = () => tt('v.saved');
    } catch (e) {
      this.#error = failure(e);
    } finally {
      this.#saving = false;
    }
  }

  discard(): void {
    this.transcript = '';
    this.#heard = [];
    this.#failed = [];
    this.#notice = null;
    if (this.#sessionId !== null) this.#work.delete(this.#sessionId);
  }

  /** Reads text aloud with the service's text-to-speech. */
  async speak(text: string, owner = 'panel'): Promise<void> {
    const clean = text.trim();
    if (!clean || this.#speaking) return;
    this.#speaking = owner;
    this.#speechError = null;
    try {
      const r = await this.#scope.invoke('voice:speak', { text: clean.slice(0, 3000) });
      const blob = new Blob([base64ToBytes(r.audio) as Uint8Array<ArrayBuffer>], { type: 'audio/wav' });
      if (this.#speech) URL.revokeObjectURL(this.#speech.url);
      this.#speech = { url: URL.createObjectURL(blob), bytes: r.bytes, seconds: r.seconds, owner };
    } catch (e) {
      this.#speechError = { owner, message: speechMessage(e, 'tts') };
    } finally {
      this.#speaking = null;
    }
  }

  #keep(): void {
    if (this.#sessionId === null) return;
    if (this.transcript.trim() || this.#heard.length) this.#work.set(this.#sessionId, { heard: this.#heard, transcript: this.transcript });
    else this.#work.delete(this.#sessionId);
  }

  /**
   * The workspace closed (signed out, or now seen as someone else): the microphone is let go,
   * the speech made is freed, and nothing of what was heard stays.
   */
  /** Nothing shown is read again by itself (the view left). */
  stopRetries(): void {
    this.#sessionsRetry.stop();
    this.#callsRetry.stop();
  }

  dispose(): void {
    this.#gen++;
    this.stopRetries();
    void this.#recorder?.stop();
    this.#recorder = null;
    if (this.#speech) URL.revokeObjectURL(this.#speech.url);
    this.#speech = null;
    this.#work.clear();
  }
}
