/**
 * Recording arithmetic, free of the DOM so it runs (and is tested) in plain Node: microphone
 * blocks at the capture rate -> 16 kHz mono float -> 16-bit PCM -> chunks cut at pauses -> WAV.
 *
 * Why WAV and not MediaRecorder: MediaRecorder gives webm/opus, which a speech-to-text service
 * would first have to decode; 16 kHz mono 16-bit PCM is what recognisers consume directly, it is
 * small enough (32 KB a second) and a chunk is a complete file that can be sent on its own.
 */

export const TARGET_RATE = 16_000;

/**
 * Streaming downsampler: each output sample is the mean of the input samples it covers (a box
 * low-pass, enough against aliasing for speech), with the fractional position carried across
 * blocks so block boundaries leave no clicks.
 */
export class Resampler {
  readonly #step: number;
  #acc = 0;
  #count = 0;
  /** Input samples still owed to the current output sample. */
  #need: number;

  constructor(
    readonly fromRate: number,
    readonly toRate = TARGET_RATE,
  ) {
    if (!(fromRate > 0) || !(toRate > 0)) throw new RangeError('sample rates must be positive');
    if (toRate > fromRate) throw new RangeError('only downsampling is supported');
    this.#step = fromRate / toRate;
    this.#need = this.#step;
  }

  push(block: Float32Array): Float32Array {
    if (this.#step === 1) return block.slice();
    const out = new Float32Array(Math.ceil(block.length / this.#step) + 1);
    let n = 0;
    for (let i = 0; i < block.length; i++) {
      const v = block[i] ?? 0;
      if (this.#need >= 1) {
        this.#acc += v;
        this.#count += 1;
        this.#need -= 1;
      } else {
        // This input sample straddles two outputs: split its weight.
        this.#acc += v * this.#need;
        this.#count += this.#need;
        out[n++] = this.#count > 0 ? this.#acc / this.#count : 0;
        const rest = 1 - this.#need;
        this.#acc = v * rest;
        this.#count = rest;
        this.#need = this.#step - rest;
      }
      if (this.#need <= 1e-9) {
        out[n++] = this.#count > 0 ? this.#acc / this.#count : 0;
        this.#acc = 0;
        this.#count = 0;
        this.#need = this.#step;
      }
    }
    return out.subarray(0, n);
  }
}

export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    out[i] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
  }
  return out;
}

/** A canonical 44-byte-header PCM WAV (mono, 16-bit). */
export function encodeWav(samples: Int16Array, rate = TARGET_RATE): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const v = new DataView(bytes.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) bytes[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true); // fmt chunk size
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true); // byte rate
  v.setUint16(32, 2, true); // block align
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) v.setInt16(44 + i * 2, samples[i] ?? 0, true);
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // String.fromCharCode on slices: a whole chunk at once would overflow the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function base64ToBytes(b64: string): Uint8Array {
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export interface Chunk {
  /** Seconds from the start of the recording to the chunk's first sample. */
  offset: number;
  samples: Int16Array;
}

export interface ChunkerOptions {
  rate?: number;
  /** A chunk is cut at a pause once it holds this much audio. */
  minSeconds?: number;
  /** ...and cut regardless (at its quietest moment) at this length. */
  maxSeconds?: number;
  /** A pause this long ends an utterance. */
  pauseSeconds?: number;
  /** Audio kept before speech starts, so its onset is not clipped. */
  prerollSeconds?: number;
}

const FRAME_SECONDS = 0.02;

/**
 * Cuts the 16 kHz stream into chunks at pauses, by frame energy against a tracked noise floor,
 * so that each chunk holds whole words and silence is never sent to the service.
 */
export class Chunker {
  readonly #rate: number;
  readonly #frame: number;
  readonly #min: number;
  readonly #max: number;
  readonly #pause: number;
  readonly #preroll: number;
  #buf = new Int16Array(0);
  #len = 0;
  /** Samples already emitted or dropped: the offset of buf[0]. */
  #consumed = 0;
  /** Energy of each complete frame in buf. */
  #energies: number[] = [];
  #speechFrames = 0;
  #silentRun = 0;
  #noiseFloor = 0.003;

  constructor(o: ChunkerOptions = {}) {
    this.#rate = o.rate ?? TARGET_RATE;
    this.#frame = Math.round(this.#rate * FRAME_SECONDS);
    this.#min = Math.round((o.minSeconds ?? 0.8) * this.#rate);
    this.#max = Math.round((o.maxSeconds ?? 8) * this.#rate);
    this.#pause = Math.round((o.pauseSeconds ?? 0.35) / FRAME_SECONDS);
    this.#preroll = Math.round((o.prerollSeconds ?? 0.3) / FRAME_SECONDS);
  }

  /** Whether speech has been heard in the audio not yet emitted. */
  get speaking(): boolean {
    return this.#speechFrames >= 3;
  }

  /** Feeds samples; returns the chunks completed by them. */
  push(samples: Int16Array): Chunk[] {
    this.#append(samples);
    const out: Chunk[] = [];
    for (let guard = 0; guard < 1000; guard++) {
      const framesDone = this.#energies.length;
      const framesNow = Math.floor(this.#len / this.#frame);
      if (framesDone >= framesNow) break;
      const start = framesDone * this.#frame;
      let sum = 0;
      for (let i = start; i < start + this.#frame; i++) {
        const s = (this.#buf[i] ?? 0) / 0x8000;
        sum += s * s;
      }
      const rms = Math.sqrt(sum / this.#frame);
      this.#energies.push(rms);
      const threshold = Math.max(0.008, this.#noiseFloor * 3);
      if (rms > threshold) {
        this.#speechFrames++;
        this.#silentRun = 0;
      } else {
        this.#silentRun++;
        // The floor follows quiet frames quickly and loud ones not at all.
        this.#noiseFloor = this.#noiseFloor * 0.95 + rms * 0.05;
      }
      const framesLen = this.#energies.length * this.#frame;
      if (this.speaking && this.#silentRun >= this.#pause && framesLen >= this.#min) {
        out.push(this.#cut(this.#energies.length - Math.floor(this.#pause / 2)));
      } else if (!this.speaking && this.#energies.length > this.#preroll * 2) {
        // Nothing said yet: keep only the pre-roll.
        this.#drop(this.#energies.length - this.#preroll);
      } else if (framesLen >= this.#max) {
        out.push(this.#cut(this.#quietestFrame()));
      }
    }
    return out;
  }

  /** The rest, when it holds speech (at the end of a recording). */
  flush(): Chunk | null {
    const chunk = this.speaking && this.#len > 0 ? { offset: this.#consumed / this.#rate, samples: this.#buf.slice(0, this.#len) } : null;
    this.#consumed += this.#len;
    this.#len = 0;
    this.#energies = [];
    this.#speechFrames = 0;
    this.#silentRun = 0;
    return chunk;
  }

  #quietestFrame(): number {
    // In the last quarter of the chunk, so a forced cut still leaves most of it whole.
    const from = Math.floor(this.#energies.length * 0.75);
    let best = this.#energies.length;
    let low = Infinity;
    for (let f = from; f < this.#energies.length; f++) {
      const e = this.#energies[f] ?? 0;
      if (e < low) {
        low = e;
        best = f;
      }
    }
    return Math.max(1, best);
  }

  #cut(frames: number): Chunk {
    const n = Math.min(this.#len, frames * this.#frame);
    const chunk = { offset: this.#consumed / this.#rate, samples: this.#buf.slice(0, n) };
    this.#drop(frames);
    this.#speechFrames = 0;
    // Frames kept after the cut are re-measured: they may start the next utterance.
    for (const e of this.#energies) if (e > Math.max(0.008, this.#noiseFloor * 3)) this.#speechFrames++;
    return chunk;
  }

  #drop(frames: number): void {
    const n = Math.min(this.#len, frames * this.#frame);
    this.#buf.copyWithin(0, n, this.#len);
    this.#len -= n;
    this.#consumed += n;
    this.#energies = this.#energies.slice(frames);
    if (frames > 0 && !this.speaking) this.#speechFrames = 0;
  }

  #append(samples: Int16Array): void {
    if (this.#len + samples.length > this.#buf.length) {
      const next = new Int16Array(Math.max(this.#buf.length * 2, this.#len + samples.length, this.#rate));
      next.set(this.#buf.subarray(0, this.#len));
      this.#buf = next;
    }
    this.#buf.set(samples, this.#len);
    this.#len += samples.length;
  }
}
