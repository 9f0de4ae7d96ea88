import workletUrl from './capture-worklet.ts?worker&url';
import { Chunker, Resampler, TARGET_RATE, toInt16, type Chunk } from './pcm';
import { errorText } from '../../../../src-shared/error-text';

export type RecorderFailureReason = 'no-microphone' | 'denied' | 'busy' | 'unsupported' | 'failed';

/** Why the microphone could not be used, in a form the state manager turns into words. */
export class RecorderFailure extends Error {
  constructor(
    readonly reason: RecorderFailureReason,
    detail: string,
  ) {
    super(detail);
  }
}

export interface RecorderSink {
  chunk(chunk: Chunk): void;
  /** Input level 0..1, a few times a second, for the meter. */
  level(rms: number): void;
}

function failureOf(e: unknown): RecorderFailure {
  const name = e instanceof DOMException || e instanceof Error ? e.name : '';
  const detail = errorText(e);
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError')
    return new RecorderFailure('no-microphone', detail);
  if (name === 'NotAllowedError' || name === 'PermissionDeniedError' || name === 'SecurityError')
    return new RecorderFailure('denied', detail);
  if (name === 'NotReadableError' || name === 'TrackStartError') return new RecorderFailure('busy', detail);
  return new RecorderFailure('failed', detail);
}

/**
 * The microphone, recorded through an AudioWorklet (off the main thread, unlike the deprecated
 * ScriptProcessorNode) into 16 kHz mono 16-bit chunks cut at pauses. Asks for the microphone
 * only when start() is called, that is after the attendant turned voice on and pressed Record.
 */
export class MicRecorder {
  #stream: MediaStream | null = null;
  #context: AudioContext | null = null;
  #node: AudioWorkletNode | null = null;
  #chunker: Chunker | null = null;

  readonly #sink: RecorderSink;

  constructor(sink: RecorderSink) {
    this.#sink = sink;
  }

  get active(): boolean {
    return this.#stream !== null;
  }

  async start(): Promise<void> {
    if (this.#stream) return;
    if (!navigator.mediaDevices?.getUserMedia) throw new RecorderFailure('unsupported', 'navigator.mediaDevices is not available');
    let stream: MediaStream;
    try {
      // Raw audio: recognisers do better without the call-oriented processing.
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
        video: false,
      });
    } catch (e) {
      throw failureOf(e);
    }
    if (stream.getAudioTracks().length === 0) {
      for (const t of stream.getTracks()) t.stop();
      throw new RecorderFailure('no-microphone', 'the stream has no audio track');
    }
    try {
      let context: AudioContext;
      try {
        // The browser's resampler is better than ours; ours is the fallback when it refuses 16 kHz.
        context = new AudioContext({ sampleRate: TARGET_RATE });
      } catch {
        context = new AudioContext();
      }
      this.#context = context;
      await context.audioWorklet.addModule(workletUrl);
      const source = context.createMediaStreamSource(stream);
      const node = new AudioWorkletNode(context, 'voice-capture', {
        numberOfInputs: 1,
        numberOfOutputs: 1,
        channelCount: 1,
        channelCountMode: 'explicit',
      });
      const resampler = new Resampler(context.sampleRate, TARGET_RATE);
      const chunker = new Chunker();
      node.port.onmessage = (e: MessageEvent<Float32Array>) => {
        const pcm = toInt16(resampler.push(e.data));
        let sum = 0;
        for (const v of e.data) sum += v * v;
        this.#sink.level(Math.sqrt(sum / Math.max(1, e.data.length)));
        for (const c of chunker.push(pcm)) this.#sink.chunk(c);
      };
      // A muted path to the output keeps the graph pulled in every browser.
      const mute = context.createGain();
      mute.gain.value = 0;
      source.connect(node).connect(mute).connect(context.destination);
      await context.resume();
      this.#stream = stream;
      this.#node = node;
      this.#chunker = chunker;
    } catch (e) {
      for (const t of stream.getTracks()) t.stop();
      await this.#context?.close().catch(() => undefined);
      this.#context = null;
      throw e instanceof RecorderFailure ? e : new RecorderFailure('failed', errorText(e));
    }
  }

  /** Stops the microphone; the audio after the last pause comes back as the final chunk. */
  async stop(): Promise<Chunk | null> {
    const chunker = this.#chunker;
    if (this.#node) this.#node.port.onmessage = null;
    this.#node?.disconnect();
    for (const t of this.#stream?.getTracks() ?? []) t.stop();
    await this.#context?.close().catch(() => undefined);
    this.#stream = null;
    this.#node = null;
    this.#context = null;
    this.#chunker = null;
    return chunker?.flush() ?? null;
  }
}
