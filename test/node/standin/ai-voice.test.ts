import { test, expect } from '@playwright/test';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SttAnswerSchema } from '../../../src-shared/schemas/ai';
import { parsePocketsphinx } from '../../../src-standin/ai/voice';
import { AI_PATHS, aiService, call, type AiService } from './ai-helpers';
import { tempDirs } from '../../support/temp-dirs';

/** Speech through Debian's espeak-ng (TTS) and pocketsphinx (STT). */

const tempDir = tempDirs('voice-scratch-');

let svc: AiService;
test.beforeEach(() => {
  svc = aiService();
});
test.afterEach(async () => {
  await svc.close();
});

/** Reads the fmt and data chunks of a RIFF/WAVE file. */
function wavInfo(buf: Buffer) {
  expect(buf.subarray(0, 4).toString('ascii')).toBe('RIFF');
  expect(buf.subarray(8, 12).toString('ascii')).toBe('WAVE');
  let off = 12;
  let rate = 0;
  let channels = 0;
  let bits = 0;
  let dataBytes = 0;
  for (let guard = 0; guard < 32 && off + 8 <= buf.length; guard++) {
    const id = buf.subarray(off, off + 4).toString('ascii');
    const size = buf.readUInt32LE(off + 4);
    if (id === 'fmt ') {
      channels = buf.readUInt16LE(off + 10);
      rate = buf.readUInt32LE(off + 12);
      bits = buf.readUInt16LE(off + 22);
    } else if (id === 'data') {
      dataBytes = Math.min(size, buf.length - off - 8);
      break;
    }
    off += 8 + size + (size % 2);
  }
  return { rate, channels, bits, seconds: dataBytes / (rate * channels * (bits / 8)) };
}

async function tts(body: Record<string, unknown>) {
  return call(svc, AI_PATHS.tts, body);
}

function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>) {
  const boundary = `----standin${Date.now().toString(36)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function stt(audio: Buffer, language?: string, filename = 'fala.wav') {
  const form = multipart([
    { name: 'file', value: audio, filename, type: 'audio/wav' },
    ...(language ? [{ name: 'language', value: language }] : []),
  ]);
  return call(svc, AI_PATHS.stt, form.body, { headers: { 'content-type': form.contentType } });
}

test('TTS answers a WAV of non-trivial length, in Portuguese by default', async () => {
  const r = await tts({ text: 'Olá! Seu pedido foi enviado e chega amanhã.', language: 'pt-BR' });
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toBe('audio/wav');
  const info = wavInfo(r.raw);
  expect(info.channels).toBe(1);
  expect(info.bits).toBe(16);
  expect(info.seconds).toBeGreaterThan(1.5);
  const longer = await tts({ text: 'Olá! Seu pedido foi enviado e chega amanhã. Obrigado por comprar conosco, tenha um ótimo dia.' });
  expect(wavInfo(longer.raw).seconds).toBeGreaterThan(info.seconds);
});

test('STT round trip: words espeak-ng spoke come back, with timed segments', async () => {
  const spoken = await tts({ text: 'I would like to cancel my order', language: 'en-US', voice: 'klatt' });
  expect(spoken.status).toBe(200);
  const r = await stt(spoken.raw, 'en-US');
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const body = SttAnswerSchema.parse(r.json);
  expect(body.language).toBe('en-US');
  expect(body.text).toMatch(/\bcancel\b/);
  expect(body.text).toMatch(/\border\b/);
  const segments = body.segments ?? [];
  expect(segments.length).toBeGreaterThan(0);
  expect(segments.map((s) => s.text).join(' ')).toBe(body.text);
  for (const s of segments) {
    expect(typeof s.start).toBe('number');
    expect(Number(s.end)).toBeGreaterThan(Number(s.start));
    expect(s.confidence).toBeGreaterThanOrEqual(0);
    expect(s.confidence).toBeLessThanOrEqual(1);
  }
  // Segments stay inside the audio.
  expect(segments.at(-1)!.end).toBeLessThanOrEqual(wavInfo(spoken.raw).seconds + 0.1);
});

test('pocketsphinx output is parsed into segments with per-word confidence, without fillers or pronunciation marks', () => {
  const out = [
    'hello world our tickets',
    '<s> 0.000 0.150 0.999200',
    'hello 0.160 0.280 0.707767',
    'world 0.290 0.740 0.134091',
    '<sil> 0.750 0.990 0.999500',
    '[NOISE] 1.000 1.100 0.5',
    'our(3) 1.400 1.670 0.004498',
    'tickets(2) 1.680 2.140 0.020342',
    '</s> 2.770 3.070 1.000000',
    'next one',
    '<s> 4.000 4.100 1.0',
    'next 4.100 4.400 0.5',
    'one 4.400 4.800 0.7',
    '</s> 4.800 5.000 1.0',
  ].join('\n');
  expect(parsePocketsphinx(out)).toEqual([
    {
      start: 0.16,
      end: 2.14,
      text: 'hello world our tickets',
      confidence: 0.217,
      words: [
        { word: 'hello', start: 0.16, end: 0.28, confidence: 0.708 },
        { word: 'world', start: 0.29, end: 0.74, confidence: 0.134 },
        { word: 'our', start: 1.4, end: 1.67, confidence: 0.004 },
        { word: 'tickets', start: 1.68, end: 2.14, confidence: 0.02 },
      ],
    },
    {
      start: 4.1,
      end: 4.8,
      text: 'next one',
      confidence: 0.6,
      words: [
        { word: 'next', start: 4.1, end: 4.4, confidence: 0.5 },
        { word: 'one', start: 4.4, end: 4.8, confidence: 0.7 },
      ],
    },
  ]);
});

test('STT refuses what it cannot use: no file, not multipart, unreadable audio, a language with no model', async () => {
  const noFile = multipart([{ name: 'language', value: 'en-US' }]);
  const r1 = await call(svc, AI_PATHS.stt, noFile.body, { headers: { 'content-type': noFile.contentType } });
  expect(r1.status).toBe(400);
  expect(r1.json).toMatchObject({ status: 'ERROR', errorCode: 'INVALID_BODY', message: expect.stringContaining('"file"') });

  const r2 = await call(svc, AI_PATHS.stt, { file: 'x' });
  expect(r2.status).toBe(400);
  expect(r2.json).toMatchObject({ errorCode: 'INVALID_BODY', message: expect.stringContaining('multipart/form-data') });

  const r3 = await stt(Buffer.from('this is not audio at all, just text'), 'en-US');
  expect(r3.status).toBe(400);
  expect(r3.json).toMatchObject({ errorCode: 'AUDIO_UNREADABLE' });

  const spoken = await tts({ text: 'bom dia', language: 'pt-BR' });
  const r4 = await stt(spoken.raw, 'pt-BR');
  expect(r4.status).toBe(400);
  expect(r4.json).toMatchObject({ errorCode: 'LANGUAGE_NOT_INSTALLED', message: expect.stringContaining('installed: en-US') });
});

test('TTS refuses empty text, unknown languages and voices', async () => {
  expect((await tts({ text: '   ' })).json).toMatchObject({
    status: 'ERROR',
    errorCode: 'INVALID_BODY',
    message: expect.stringContaining('text'),
  });
  expect((await tts({ text: 'oi', language: 'xx-YY' })).json).toMatchObject({ errorCode: 'LANGUAGE_NOT_INSTALLED' });
  expect((await tts({ text: 'oi', voice: '../../etc/passwd' })).json).toMatchObject({ errorCode: 'UNKNOWN_VOICE' });
  // Text that looks like an option is spoken, not obeyed.
  const dash = await tts({ text: '--help', language: 'en-US' });
  expect(dash.status).toBe(200);
  expect(wavInfo(dash.raw).seconds).toBeGreaterThan(0.2);
});

test('a missing speech tool answers 503 naming the Debian package', async () => {
  const bare = aiService({ voiceBinaries: { espeak: '/nonexistent/espeak-ng', sox: '/nonexistent/sox' } });
  try {
    const t = await call(bare, AI_PATHS.tts, { text: 'oi' });
    expect(t.status).toBe(503);
    expect(t.json).toMatchObject({
      status: 'ERROR',
      errorCode: 'MISSING_BINARY',
      message: expect.stringContaining('Debian package espeak-ng'),
    });
    const form = multipart([{ name: 'file', value: Buffer.from('RIFF'), filename: 'a.wav', type: 'audio/wav' }]);
    const s = await call(bare, AI_PATHS.stt, form.body, { headers: { 'content-type': form.contentType } });
    expect(s.status).toBe(503);
    expect(s.json).toMatchObject({ errorCode: 'MISSING_BINARY', message: expect.stringContaining('Debian package sox') });
  } finally {
    await bare.close();
  }
  const noModel = aiService({ voiceBinaries: { modelDir: '/nonexistent/model' } });
  try {
    const form = multipart([{ name: 'file', value: Buffer.from('RIFF'), filename: 'a.wav', type: 'audio/wav' }]);
    const s = await call(noModel, AI_PATHS.stt, form.body, { headers: { 'content-type': form.contentType } });
    expect(s.status).toBe(503);
    expect(s.json).toMatchObject({ message: expect.stringContaining('pocketsphinx-en-us') });
  } finally {
    await noModel.close();
  }
});

test('a voice list that could not be read is read again at the next request, not kept', async () => {
  const dir = await tempDir();
  // espeak-ng as the stand-in finds it, except that its first listing of voices fails.
  const wrapper = join(dir, 'espeak-ng');
  writeFileSync(
    wrapper,
    `#!/bin/sh\ncase "$1" in --voices*) if [ ! -e "${dir}/listed" ]; then touch "${dir}/listed"; exit 3; fi;; esac\nexec espeak-ng "$@"\n`,
    { mode: 0o700 },
  );
  const flaky = aiService({ voiceBinaries: { espeak: wrapper } });
  try {
    const first = await call(flaky, AI_PATHS.tts, { text: 'oi', language: 'pt-BR' });
    expect(first.status).toBe(503);
    expect(first.json).toMatchObject({ status: 'ERROR', errorCode: 'VOICE_FAILED', message: expect.stringContaining('voices') });
    const again = await call(flaky, AI_PATHS.tts, { text: 'oi', language: 'pt-BR' });
    expect(again.status).toBe(200);
    expect(wavInfo(again.raw).seconds).toBeGreaterThan(0.1);
  } finally {
    await flaky.close();
  }
});

test('closing the stand-in during a recognition stops it and leaves no scratch folder behind', async () => {
  const scratch = await tempDir();
  const own = aiService({ voiceScratchDir: scratch });
  try {
    // A long recording keeps pocketsphinx busy for a while.
    const spoken = await call(own, AI_PATHS.tts, { text: 'I would like to cancel my order. '.repeat(12), language: 'en-US' });
    expect(spoken.status).toBe(200);
    const form = multipart([{ name: 'file', value: spoken.raw, filename: 'long.wav', type: 'audio/wav' }]);
    const recognising = call(own, AI_PATHS.stt, form.body, { headers: { 'content-type': form.contentType } }).then(
      (r) => r.status,
      () => 'failed',
    );
    await expect.poll(() => readdirSync(scratch).filter((n) => n.startsWith('standin-stt-')).length).toBe(1);
    await own.close();
    // The recognition ended (it never answers 200 once closed) and its folder went with it.
    expect(await recognising).not.toBe(200);
    expect(readdirSync(scratch)).toEqual([]);
    // A job asked after closing gets a clear refusal and makes no folder.
    const late = await call(own, AI_PATHS.tts, { text: 'Olá' });
    expect(late.status).toBe(503);
    expect(readdirSync(scratch)).toEqual([]);
  } finally {
    await own.close();
  }
});
