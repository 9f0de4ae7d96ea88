/** What the console needs to know of a RIFF/WAVE file: its format and its length. */
export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  dataBytes: number;
  seconds: number;
}

/** Walks the RIFF chunks (bounded); null when the bytes are not a PCM WAV we can measure. */
export function wavInfo(bytes: Uint8Array): WavInfo | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let off = 12;
  let fmt: { channels: number; rate: number; bits: number } | null = null;
  for (let guard = 0; guard < 64 && off + 8 <= bytes.length; guard++) {
    const id = tag(off);
    const size = view.getUint32(off + 4, true);
    if (id === 'fmt ' && off + 24 <= bytes.length) {
      fmt = { channels: view.getUint16(off + 10, true), rate: view.getUint32(off + 12, true), bits: view.getUint16(off + 22, true) };
    } else if (id === 'data') {
      if (!fmt || fmt.rate === 0 || fmt.channels === 0 || fmt.bits === 0) return null;
      // espeak-ng writes to a pipe-like file and may leave the size at its maximum: trust the bytes.
      const dataBytes = Math.min(size, bytes.length - off - 8);
      return {
        sampleRate: fmt.rate,
        channels: fmt.channels,
        bitsPerSample: fmt.bits,
        dataBytes,
        seconds: dataBytes / (fmt.rate * fmt.channels * (fmt.bits / 8)),
      };
    }
    off += 8 + size + (size % 2);
  }
  return null;
}
