import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createMediaPermissionSlot } from '../../../src-main/features/voice';
import { wavInfo } from '../../../src-main/features/voice/wav';
import { openConsole } from '../../support/console';
import { Chunker, encodeWav, Resampler, toInt16 } from '../../../src-renderer/src/features/voice/pcm';
import { speechWav, wavSamples } from '../../support/voice-audio';

/** What the renderer sends: 16 kHz mono 16-bit WAV chunks of the recording. */
function recordedChunks(file: string): string[] {
  const { rate, samples } = wavSamples(readFileSync(file));
  const r = new Resampler(rate);
  const c = new Chunker();
  const out: Int16Array[] = [];
  for (let i = 0; i < samples.length; i += 4096) {
    const block = Float32Array.from(samples.subarray(i, i + 4096), (s) => s / 0x8000);
    out.push(...c.push(toInt16(r.push(block))).map((x) => x.samples));
  }
  const rest = c.flush();
  if (rest) out.push(rest.samples);
  return out.map((s) => Buffer.from(encodeWav(s)).toString('base64'));
}

test('voice stays off until turned on; the choice grants the microphone and survives a restart', async () => {
  // The platform's grant: both runs of the console apply theirs to it, as Electron's would.
  const mediaPermission = createMediaPermissionSlot();
  const first = await openConsole(undefined, { microphone: mediaPermission });
  let second: Awaited<ReturnType<typeof openConsole>> | null = null;
  try {
    await first.call('workspace:openDemo', {});
    expect(await first.call('voice:state', {})).toEqual({ enabled: false, language: 'en-US' });
    expect(mediaPermission.allowed).toBe(false);
    const chunk = recordedChunks(speechWav('cancel my order').file)[0]!;
    const refused = await first.fail('voice:transcribe', { seq: 0, audio: chunk });
    expect(refused.message).toBe('Voice is off. Turn voice on to record and transcribe.');

    expect(await first.call('voice:setEnabled', { enabled: true })).toEqual({ enabled: true, language: 'en-US' });
    expect(mediaPermission.allowed).toBe(true);
    expect(first.events('voice:state').at(-1)).toEqual({ enabled: true, language: 'en-US' });
    await first.app.close();
    // Closing the console withdraws the grant; the next start gives it back from the setting.
    expect(mediaPermission.allowed).toBe(false);

    second = await openConsole(first.profileDir, { microphone: mediaPermission });
    expect(await second.call('voice:state', {})).toEqual({ enabled: true, language: 'en-US' });
    expect(mediaPermission.allowed).toBe(true);
    await second.call('voice:setEnabled', { enabled: false });
    expect(mediaPermission.allowed).toBe(false);
  } finally {
    await first.app.close();
    await second?.app.close();
  }
});

test('recorded chunks go through speech-to-text: the spoken words come back in timed segments', async () => {
  test.setTimeout(90_000);
  const c = await openConsole();
  try {
    await c.call('workspace:openDemo', {});
    await c.app.standin!.simulator.stop();
    await c.call('voice:setEnabled', { enabled: true });
    const chunks = recordedChunks(speechWav('I would like to cancel my order').file);
    expect(chunks).toHaveLength(1);
    const r = await c.call('voice:transcribe', { seq: 7, audio: chunks[0]! });
    expect(r.seq).toBe(7);
    expect(r.language).toBe('en-US');
    expect(r.text).toMatch(/cancel my order/);
    expect(r.segments.length).toBeGreaterThan(0);
    const words = r.segments.flatMap((s) => s.words.map((w) => w.text));
    expect(words).toEqual(expect.arrayContaining(['cancel', 'my', 'order']));
    for (const s of r.segments) {
      expect(s.end).toBeGreaterThan(s.start);
      expect(s.confidence).not.toBeNull();
      for (const w of s.words) expect(w.confidence).toBeGreaterThanOrEqual(0);
    }

    // What is not WAV never reaches the service; nor does a chunk over the bridge's cap.
    const notWav = await c.fail('voice:transcribe', { seq: 8, audio: Buffer.from('hello there, not audio').toString('base64') });
    expect(notWav.message).toBe('The recording is not WAV audio; nothing was sent.');
    const huge = await c.fail('voice:transcribe', { seq: 9, audio: 'A'.repeat(600_004) });
    expect(huge.kind).toBe('Invalid');
    expect(huge.field).toBe('audio');
  } finally {
    await c.app.close();
  }
});

test('speech failures say what failed: a language with no model, a service down, an unknown voice', async () => {
  test.setTimeout(90_000);
  const c = await openConsole();
  try {
    await c.call('workspace:openDemo', {});
    const sb = c.app.standin!;
    await sb.simulator.stop();
    await c.call('voice:setEnabled', { enabled: true });
    const chunk = recordedChunks(speechWav('thank you').file)[0]!;

    await c.call('voice:setLanguage', { language: 'pt-BR' });
    const noModel = await c.fail('voice:transcribe', { seq: 0, audio: chunk });
    expect(noModel.kind).toBe('Invalid');
    expect(noModel.message).toMatch(/^Speech-to-text failed\. .*pt-BR.*installed: en-US/);
    await c.call('voice:setLanguage', { language: 'en-US' });

    await sb.faults.set([{ match: { path: '/voicemodelapi/1.0/' }, kind: 'status', status: 503 }]);
    const down = await c.fail('voice:transcribe', { seq: 1, audio: chunk });
    expect(down.kind).toBe('Unavailable');
    expect(down.message).toMatch(/^Speech-to-text failed\. The service failed to transcribe audio: it answered with an error page \(503\)/);
    const ttsDown = await c.fail('voice:speak', { text: 'Hello' });
    expect(ttsDown.message).toMatch(
      /^Text-to-speech failed\. The service failed to synthesise speech: it answered with an error page \(503\)/,
    );
    await sb.faults.clear();

    const badVoice = await c.fail('voice:speak', { text: 'Hello', voice: 'nobody' });
    expect(badVoice.message).toMatch(/^Text-to-speech failed\..*Unknown voice "nobody"/);
  } finally {
    await c.app.close();
  }
});

test('text-to-speech answers a WAV of non-trivial length, longer for longer text', async () => {
  const c = await openConsole();
  try {
    await c.call('workspace:openDemo', {});
    await c.app.standin!.simulator.stop();
    const short = await c.call('voice:speak', { text: 'Your order has shipped.' });
    const bytes = Buffer.from(short.audio, 'base64');
    expect(bytes.length).toBe(short.bytes);
    const info = wavInfo(bytes)!;
    expect(info).not.toBeNull();
    expect(info.channels).toBe(1);
    expect(info.bitsPerSample).toBe(16);
    expect(info.seconds).toBeGreaterThan(1);
    expect(short.seconds).toBeCloseTo(info.seconds, 1);
    const long = await c.call('voice:speak', {
      text: 'Your order has shipped. It leaves the warehouse this morning and arrives tomorrow before noon.',
    });
    expect(long.seconds).toBeGreaterThan(short.seconds * 2);
    // Speech does not use the microphone: it works with voice off.
    expect((await c.call('voice:state', {})).enabled).toBe(false);
  } finally {
    await c.app.close();
  }
});

test("a session's calls come with their call log, and call transcript events are pushed and kept", async () => {
  test.setTimeout(60_000);
  const c = await openConsole();
  try {
    await c.call('workspace:openDemo', {});
    const sb = c.app.standin!;
    await sb.simulator.stop();
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sb.tokens.agent}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { results: Array<Record<string, unknown>> } };
    };
    const calls = (await post('/call', { conditions: [], sort: true, sortColumn: 'id', page: 0, size: 1 })).body.results;
    const call = calls[0]!;
    const sessionId = call.sessionId as number;
    const r = await c.call('voice:calls', { sessionId });
    expect(r.error).toBeNull();
    expect(r.calls.map((x) => x.callId)).toContain(call.callId);
    const events = r.log.filter((l) => l.callId === call.callId).map((l) => l.eventType);
    expect(events.slice(0, 2)).toEqual(['RINGING', 'ANSWERED']);
    expect(r.live).toEqual([]);

    // A customer line on a voice session: the stand-in sends a voice event, the listener takes it.
    await expect.poll(async () => (await c.call('live:status', {})).registered, { timeout: 20_000 }).toBe(true);
    const session = (
      await post('/user-session', {
        conditions: [{ key: 'id', operator: 'EQNUM', value: String(sessionId) }],
        sort: false,
        page: 0,
        size: 1,
      })
    ).body.results[0]!;
    expect(session.userConnectedResource).toBe('voice');
    const said = 'I was charged twice for the same ticket';
    const saved = await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2/messages/save`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.agent}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session: { id: sessionId }, message: said, fromUser: true }),
    });
    expect(saved.status).toBe(201);
    await expect.poll(() => c.events('voice:transcript').map((e) => e.text), { timeout: 20_000 }).toContain(said);
    const pushed = c.events('voice:transcript').find((e) => e.text === said)!;
    expect(pushed).toMatchObject({ sessionId, final: true });
    // A panel opened afterwards still shows the line.
    expect((await c.call('voice:calls', { sessionId })).live.map((l) => l.text)).toContain(said);
    // Other sessions' panels do not.
    expect((await c.call('voice:calls', { sessionId: sessionId + 1 })).live).toEqual([]);
  } finally {
    await c.app.close();
  }
});
