/**
 * Runs on the audio rendering thread: copies the microphone's first channel out in blocks of
 * about 40 ms, so the main thread receives few messages and does the arithmetic (pcm.ts).
 */

// The AudioWorklet global scope is not in the DOM library this project compiles against.
declare const registerProcessor: (name: string, ctor: new () => { process(inputs: Float32Array[][]): boolean }) => void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

export {};

const BLOCK = 2048;

class CaptureProcessor extends AudioWorkletProcessor {
  #buf = new Float32Array(BLOCK);
  #len = 0;

  process(inputs: Float32Array[][]): boolean {
    const channels = inputs[0];
    const first = channels?.[0];
    if (!channels || !first) return true;
    for (let i = 0; i < first.length; i++) {
      // Stereo microphones are folded to mono.
      let v = 0;
      for (const ch of channels) v += ch[i] ?? 0;
      this.#buf[this.#len++] = v / channels.length;
      if (this.#len === BLOCK) {
        this.port.postMessage(this.#buf, [this.#buf.buffer]);
        this.#buf = new Float32Array(BLOCK);
        this.#len = 0;
      }
    }
    return true;
  }
}

registerProcessor('voice-capture', CaptureProcessor);
