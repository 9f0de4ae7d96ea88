import { crc32, deflateSync } from 'node:zlib';

/**
 * Media the stand-in serves for its seeded media messages (interface §2.9 message `contentType`,
 * `caption`; where the bytes live is not shown: here the message's `message` is their path on
 * the service, `/chatapi/1.0/api/v2/media/{name}`, read with the bearer token like the rest).
 * Made in code, so the repository holds no binary files: a picture, a voice note, a document.
 */

export const MEDIA_PATH = '/chatapi/1.0/api/v2/media/';

export interface MediaFile {
  name: string;
  contentType: string;
  /** The message's `contentType`. */
  kind: string;
  caption: string;
  /** What the picture shows, as the stand-in's AI describes it (images only). */
  description?: { pt: string; en: string };
  bytes: () => Buffer;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of a parcel on a shelf, drawn in flat colours (what a customer photographs). */
export function parcelPng(width = 320, height = 200): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const box = x > 90 && x < 230 && y > 50 && y < 170;
      const tape = box && x > 150 && x < 170;
      const shelf = y >= 170 && y < 180;
      const [r, g, b] = tape ? [222, 196, 120] : box ? [176, 124, 72] : shelf ? [90, 90, 100] : [214, 228, 240 - Math.floor(y / 4)];
      row[1 + x * 3] = r;
      row[2 + x * 3] = g;
      row[3 + x * 3] = b;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A short WAV voice note (two tones, 8 kHz mono 16-bit). */
export function voiceNoteWav(seconds = 1.2, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const f = i < samples / 2 ? 440 : 660;
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * f * i) / rate) * 8000), i * 2);
  }
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

/** A one-page PDF receipt. */
export function receiptPdf(): Buffer {
  const text = 'BT /F1 14 Tf 40 100 Td (Nota fiscal 000123 - PED-482913 - R$ 189,90) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The seeded media, by name. */
export const MEDIA: readonly MediaFile[] = [
  {
    name: 'foto-da-caixa.png',
    contentType: 'image/png',
    kind: 'image',
    caption: 'A caixa chegou amassada',
    description: {
      pt: 'Uma caixa de papelão marrom, fechada com fita adesiva clara, sobre uma prateleira cinza, contra um fundo azul-claro.',
      en: 'A brown cardboard box sealed with light tape, on a grey shelf, against a light blue background.',
    },
    bytes: () => parcelPng(),
  },
  {
    name: 'audio-do-cliente.wav',
    contentType: 'audio/wav',
    kind: 'audio',
    caption: 'Ouve o meu áudio, por favor',
    bytes: () => voiceNoteWav(),
  },
  { name: 'nota-fiscal.pdf', contentType: 'application/pdf', kind: 'document', caption: 'Segue a nota fiscal', bytes: () => receiptPdf() },
];

const cache = new Map<string, Buffer>();

/**
 * What an image the stand-in holds shows, for its AI (`nlp` with an `image_url` item): the
 * address must be one of its own media paths (on whatever host it was reached); null otherwise.
 */
export function mediaDescription(url: string): { pt: string; en: string } | null {
  let path: string;
  try {
    path = new URL(url, 'http://standin.invalid').pathname;
  } catch {
    return null;
  }
  if (!path.startsWith(MEDIA_PATH)) return null;
  const name = decodeURIComponent(path.slice(MEDIA_PATH.length));
  return MEDIA.find((m) => m.name === name)?.description ?? null;
}

/** The bytes and type of a seeded media file, or null for a name the stand-in does not have. */
export function mediaFile(name: string): { contentType: string; body: Buffer } | null {
  const file = MEDIA.find((m) => m.name === name);
  if (!file) return null;
  let body = cache.get(name);
  if (!body) {
    body = file.bytes();
    cache.set(name, body);
  }
  return { contentType: file.contentType, body };
}
