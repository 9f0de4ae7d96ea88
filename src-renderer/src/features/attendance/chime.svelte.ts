/**
 * The optional sound for a customer's message while the console has focus (off until the
 * attendant turns it on in the settings; the choice is kept in this profile's storage). The tone
 * is made with Web Audio, so there is no sound file to ship or load.
 */
const KEY = 'console.sound';

function stored(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

export class Chime {
  #enabled = $state(stored());
  #context: AudioContext | null = null;

  get enabled() {
    return this.#enabled;
  }

  set(on: boolean): void {
    this.#enabled = on;
    try {
      globalThis.localStorage?.setItem(KEY, on ? 'on' : 'off');
    } catch {
      // Storage refused: the choice holds for this run.
    }
    // Turning it on plays it once, so the attendant hears what it will sound like.
    if (on) this.play();
  }

  /** Two short soft notes; nothing when the sound is off or the page cannot play audio. */
  play(): void {
    if (!this.#enabled || typeof AudioContext === 'undefined') return;
    try {
      this.#context ??= new AudioContext();
      const ctx = this.#context;
      if (ctx.state === 'suspended') void ctx.resume();
      const start = ctx.currentTime;
      for (const [i, hz] of [880, 1320].entries()) {
        const tone = ctx.createOscillator();
        const gain = ctx.createGain();
        tone.type = 'sine';
        tone.frequency.value = hz;
        const at = start + i * 0.12;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
        tone.connect(gain).connect(ctx.destination);
        tone.start(at);
        tone.stop(at + 0.2);
      }
    } catch {
      // No audio device: the toast still says it.
    }
  }
}

export const chime = new Chime();
