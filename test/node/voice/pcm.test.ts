import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { base64ToBytes, bytesToBase64, Chunker, encodeWav, Resampler, toInt16 } from '../../../src-renderer/src/features/voice/pcm';
import { wavInfo } from '../../../src-main/features/voice/wav';
import { createMediaPermissionSlot, mediaPermissionKey } from '../../../src-main/features/voice/permission';
import { speechWav, wavSamples } from '../../support/voice-audio';

/** The recorder's arithmetic: resampling, PCM, WAV, and cutting chunks at pauses. */

const tone = (rate: number, seconds: number, hz: number, amp = 0.5) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / rate));
const silence = (rate: number, seconds: number) => new Float32Array(Math.round(rate * seconds));

/** Zero crossings per second: twice the frequency of a pure tone. */
function frequency(samples: Float32Array, rate: number): number {
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  return crossings / 2 / (samples.length / rate);
}

test('48 kHz and 44.1 kHz become 16 kHz in any block size, keeping pitch and length', () => {
  for (const rate of [48_000, 44_100, 22_050]) {
    const input = tone(rate, 2, 440);
    const r = new Resampler(rate);
    const parts: Float32Array[] = [];
    // Odd block sizes: the fractional position must carry across blocks.
    for (let i = 0, n = 0; i < input.length; i += 97 + (n++ % 300)) parts.push(r.push(input.subarray(i, i + 97 + (n % 300))));
    const out = Float32Array.from(parts.flatMap((p) => [...p]));
    expect(Math.abs(out.length - 32_000)).toBeLessThanOrEqual(2);
    expect(Math.abs(frequency(out, 16_000) - 440)).toBeLessThan(3);
    // A box filter lowers a 440 Hz tone's amplitude by well under a tenth.
    expect(Math.max(...out)).toBeGreaterThan(0.45);
  }
  expect(new Resampler(16_000).push(tone(16_000, 0.1, 300)).length).toBe(1600);
  expect(() => new Resampler(8_000)).toThrow(RangeError);
});

test('PCM and WAV: clipped to 16 bits, a canonical header the main side measures, base64 both ways', () => {
  expect([...toInt16(Float32Array.from([0, 1, -1, 2, -2, 0.5]))]).toEqual([0, 32767, -32768, 32767, -32768, 16384]);
  const pcm = toInt16(tone(16_000, 1.5, 200));
  const wav = encodeWav(pcm);
  expect(wav.length).toBe(44 + pcm.length * 2);
  expect(wavInfo(wav)).toEqual({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, dataBytes: pcm.length * 2, seconds: 1.5 });
  expect(wavSamples(wav).samples).toEqual(pcm);
  const b64 = bytesToBase64(wav);
  expect(b64).toBe(Buffer.from(wav).toString('base64'));
  expect(base64ToBytes(b64)).toEqual(wav);
  expect(wavInfo(new TextEncoder().encode('RIFF....WAVEnope'))).toBeNull();
});

function feed(chunker: Chunker, samples: Float32Array, block = 640) {
  const pcm = toInt16(samples);
  const out = [];
  for (let i = 0; i < pcm.length; i += block) out.push(...chunker.push(pcm.subarray(i, i + block)));
  return out;
}

test('chunks are cut at pauses, silence is never sent, and a long monologue is cut at its quietest moment', () => {
  const rate = 16_000;
  // Two "utterances" with a pause between, surrounded by silence.
  const signal = Float32Array.from([
    ...silence(rate, 2),
    ...tone(rate, 1.2, 300),
    ...silence(rate, 0.8),
    ...tone(rate, 1.5, 500),
    ...silence(rate, 2),
  ]);
  const c = new Chunker();
  const chunks = feed(c, signal);
  expect(c.flush()).toBeNull();
  expect(chunks).toHaveLength(2);
  // Each holds its utterance, a short pre-roll (0.3-0.6 s) and part of the pause: not the long silences.
  expect(chunks[0]!.offset).toBeGreaterThanOrEqual(1.4);
  expect(chunks[0]!.offset).toBeLessThan(2);
  expect(chunks[0]!.samples.length / rate).toBeGreaterThan(1.2);
  expect(chunks[0]!.samples.length / rate).toBeLessThan(2.4);
  expect(chunks[1]!.offset).toBeGreaterThan(3.2);
  expect(chunks[1]!.offset).toBeLessThan(4);
  expect(chunks[1]!.samples.length / rate).toBeGreaterThan(1.5);
  expect(chunks[1]!.samples.length / rate).toBeLessThan(2.6);

  // Only silence: nothing.
  const quiet = new Chunker();
  expect(feed(quiet, silence(rate, 10))).toHaveLength(0);
  expect(quiet.flush()).toBeNull();

  // 20 s without a pause: cut at most every 8 s, at a dip, and the end comes with flush().
  const speech = tone(rate, 20, 250);
  for (let k = 1; k < 20; k++) speech.fill(0.001, k * rate, k * rate + 160); // 10 ms dips each second
  const long = new Chunker();
  const parts = feed(long, speech);
  const last = long.flush();
  expect(last).not.toBeNull();
  const all = [...parts, last!];
  for (const p of all) expect(p.samples.length / rate).toBeLessThanOrEqual(8);
  expect(all.reduce((n, p) => n + p.samples.length, 0)).toBe(20 * rate);
  for (let i = 1; i < all.length; i++) expect(all[i]!.offset).toBeCloseTo(all[i - 1]!.offset + all[i - 1]!.samples.length / rate, 5);
});

test('espeak-ng speech at 22.05 kHz comes out as one 16 kHz chunk holding the whole sentence', () => {
  const spoken = speechWav('I would like to cancel my order', { before: 1, after: 1.5 });
  const { rate, samples } = wavSamples(readFileSync(spoken.file));
  const floats = Float32Array.from(samples, (s) => s / 0x8000);
  const r = new Resampler(rate);
  const c = new Chunker();
  const chunks = [];
  for (let i = 0; i < floats.length; i += 2048) chunks.push(...c.push(toInt16(r.push(floats.subarray(i, i + 2048)))));
  const rest = c.flush();
  if (rest) chunks.push(rest);
  expect(chunks).toHaveLength(1);
  const seconds = chunks[0]!.samples.length / 16_000;
  expect(seconds).toBeGreaterThan(spoken.seconds - 2.5 - 0.2);
  expect(seconds).toBeLessThan(spoken.seconds - 1);
});

test('the Electron grant: audio alone is "media", anything with the camera is never granted', () => {
  expect(mediaPermissionKey('media', { mediaTypes: ['audio'] })).toBe('media');
  expect(mediaPermissionKey('media', { mediaType: 'audio' })).toBe('media');
  expect(mediaPermissionKey('media', { mediaTypes: ['audio', 'video'] })).toBe('media:video');
  expect(mediaPermissionKey('media', { mediaTypes: ['video'] })).toBe('media:video');
  expect(mediaPermissionKey('media', { mediaType: 'unknown' })).toBe('media:video');
  expect(mediaPermissionKey('media', {})).toBe('media:video');
  expect(mediaPermissionKey('media', null)).toBe('media:video');
  expect(mediaPermissionKey('notifications', { mediaTypes: ['audio'] })).toBe('notifications');

  const slot = createMediaPermissionSlot();
  slot.set(true);
  const granted = new Set<string>();
  const unbind = slot.bind((on) => (on ? granted.add('media') : granted.delete('media')));
  expect(granted.has('media')).toBe(true); // the choice made before binding applies at once
  slot.set(false);
  expect(granted.has('media')).toBe(false);
  unbind();
  slot.set(true);
  expect(granted.has('media')).toBe(false);
});
