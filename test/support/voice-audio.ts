import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWav } from '../../src-renderer/src/features/voice/pcm';
import { wavInfo } from '../../src-main/features/voice/wav';

/** 16-bit mono samples of a PCM WAV (what espeak-ng writes). */
export function wavSamples(bytes: Uint8Array): { rate: number; samples: Int16Array } {
  const info = wavInfo(bytes);
  if (!info || info.channels !== 1 || info.bitsPerSample !== 16) throw new Error('expected a 16-bit mono WAV');
  const start = findData(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, info.dataBytes);
  const samples = new Int16Array(Math.floor(info.dataBytes / 2));
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
  return { rate: info.sampleRate, samples };
}

function findData(bytes: Uint8Array): number {
  for (let i = 12; i + 8 <= bytes.length; i++) {
    if (bytes[i] === 0x64 && bytes[i + 1] === 0x61 && bytes[i + 2] === 0x74 && bytes[i + 3] === 0x61) return i + 8;
  }
  throw new Error('no data chunk');
}

/**
 * Speech that espeak-ng spoke, as a WAV file with silence around it (so a recording that starts
 * a moment late still hears the first word, and the pause after it ends the utterance).
 */
export function speechWav(text: string, o: { voice?: string; before?: number; after?: number } = {}): { file: string; seconds: number } {
  const dir = mkdtempSync(join(tmpdir(), 'voice-audio-'));
  const raw = join(dir, 'spoken.wav');
  execFileSync('espeak-ng', ['-v', o.voice ?? 'en-us+klatt', '-w', raw, '--stdin'], { input: text, timeout: 30_000 });
  const { rate, samples } = wavSamples(readFileSync(raw));
  const before = Math.round((o.before ?? 0.8) * rate);
  const after = Math.round((o.after ?? 1.5) * rate);
  const padded = new Int16Array(before + samples.length + after);
  padded.set(samples, before);
  const file = join(dir, 'speech.wav');
  writeFileSync(file, encodeWav(padded, rate));
  return { file, seconds: padded.length / rate };
}
