import { test, expect, chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../../support/chromium';
import { freshProfile, launchHost } from '../../support/host';
import { speechWav } from '../../support/voice-audio';
import type { Host } from '../../../src-main/host/start-host';

/**
 * Voice in the console against the demo stand-in: Chromium's fake microphone plays a WAV that
 * espeak-ng spoke, the console records it in chunks, the stand-in's pocketsphinx transcribes
 * them, and the corrected transcript becomes a note on the service.
 */

const SENTENCE = 'I would like to cancel my order';

// An action that cannot happen fails with its reason instead of waiting for the test's end.

async function launch(flags: string[]): Promise<Browser> {
  return chromium.launch({ ...CHROMIUM_LAUNCH, args: [...(CHROMIUM_LAUNCH.args ?? []), ...flags] });
}

async function openVoice(page: Page, host: Host): Promise<{ sessionName: string; sessionId: number }> {
  await page.goto(host.url);
  const demo = page.getByRole('button', { name: 'Open the demo workspace' });
  const rail = page.getByRole('navigation', { name: 'Views' });
  // A second page on the same console finds the demo workspace already open.
  await expect(demo.or(rail)).toBeVisible();
  if (await demo.isVisible()) await demo.click();
  await rail.getByRole('button', { name: 'Voice' }).click();
  const list = page.getByRole('list', { name: 'My sessions' });
  const first = list.getByRole('button').first();
  await expect(first).toBeVisible();
  const label = (await first.locator('.name').textContent()) ?? '';
  const meta = (await first.locator('.meta').textContent()) ?? '';
  await first.click();
  const id = Number(/#(\d+)/.exec(meta)?.[1]);
  expect(id).toBeGreaterThan(0);
  return { sessionName: label, sessionId: id };
}

async function serviceNotes(host: Host, sessionId: number): Promise<string[]> {
  const sb = host.app.standin!;
  const res = await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2/session-comment`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.tokens.agent}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      conditions: [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }],
      sort: false,
      page: 0,
      size: 500,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Array<{ comment?: string }> }).results.map((r) => r.comment ?? '');
}

test('a spoken sentence is recorded, transcribed by the stand-in, corrected and saved as a note', async () => {
  const speech = speechWav(SENTENCE);
  const browser = await launch([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${speech.file}%noloop`,
  ]);
  const host = await launchHost(freshProfile());
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const { sessionName, sessionId } = await openVoice(page, host);
    const panel = page.getByRole('region', { name: `Voice for ${sessionName}` });
    await expect(panel).toBeVisible();

    // The microphone is not offered until voice is on.
    const record = panel.getByRole('button', { name: 'Record' });
    await expect(record).toBeDisabled();
    const toggle = panel.getByRole('switch', { name: 'Voice' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await record.click();
    await expect(panel.getByRole('button', { name: 'Stop recording' })).toBeVisible();

    // The pause after the sentence sends it: the words come back while still recording.
    const heard = panel.getByRole('list', { name: 'What the service heard' });
    await expect(heard).toContainText('cancel', { timeout: 45_000 });
    await expect(heard).toContainText('order');
    await page.screenshot({ path: 'test-results/screenshots/voice-transcript.png' });
    await panel.getByRole('button', { name: 'Stop recording' }).click();

    const transcript = panel.getByRole('textbox', { name: 'Transcript' });
    await expect(transcript).toHaveValue(/cancel.*order/);
    const corrected = `${(await transcript.inputValue()).trim()} 4711, customer asked by phone`;
    await transcript.fill(corrected);
    await panel.getByRole('button', { name: 'Save as note' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'Saved as a note' })).toBeVisible();
    await expect(transcript).toHaveValue('');

    await expect.poll(async () => (await serviceNotes(host, sessionId)).some((c) => c.includes(corrected))).toBe(true);
  } finally {
    await host.close();
    await browser.close();
  }
});

test('a session shows its calls with their call log, and call transcript lines as the service sends them', async () => {
  const browser = await launch([]);
  const host = await launchHost(freshProfile());
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const { sessionId } = await openVoice(page, host);
    const sb = host.app.standin!;
    await sb.simulator.stop();
    const calls = (await (
      await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2/call`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sb.tokens.agent}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          conditions: [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }],
          sort: false,
          page: 0,
          size: 50,
        }),
      })
    ).json()) as { results: Array<{ callId: string }> };
    // The demo's first session of the attendant's, voice first, is a phone call.
    expect(calls.results.length).toBeGreaterThan(0);
    const callId = calls.results[0]!.callId;

    const callList = page.getByRole('list', { name: 'Calls' });
    await expect(callList).toContainText(callId);
    const log = page.getByRole('list', { name: `Call log ${callId}` });
    await expect(log).toContainText('Ringing');
    await expect(log).toContainText('Answered');

    // A customer line on a voice session reaches the console as a call transcript event.
    const said = 'Hello, my card was charged twice this month';
    await expect.poll(async () => (await host.app.handlers['live:status']({})).registered).toBe(true);
    const res = await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2/messages/save`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.tokens.agent}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session: { id: sessionId }, message: said, fromUser: true }),
    });
    expect(res.status).toBe(201);
    await expect(page.getByRole('list', { name: 'Live call transcript' })).toContainText(said);
    await page.screenshot({ path: 'test-results/screenshots/voice-calls.png' });
  } finally {
    await host.close();
    await browser.close();
  }
});

test('text is read aloud: the speech the service synthesised comes back as audio the console plays', async () => {
  const browser = await launch(['--autoplay-policy=no-user-gesture-required']);
  const host = await launchHost(freshProfile());
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openVoice(page, host);
    const box = page.getByRole('region', { name: 'Text to read aloud' });
    await box.getByRole('textbox', { name: 'Text to read aloud' }).fill('Your order left our warehouse this morning and arrives tomorrow.');
    await box.getByRole('button', { name: 'Read aloud' }).click();
    const audio = box.locator('audio');
    await expect(audio).toHaveCount(1);
    await expect(box.getByRole('status')).toContainText(/\d+\.\d s of speech/);
    // The browser decoded it: a WAV of several seconds, and it plays.
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => (Number.isFinite(a.duration) ? a.duration : 0))).toBeGreaterThan(2);
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0);
    await page.screenshot({ path: 'test-results/screenshots/voice-read-aloud.png' });
  } finally {
    await host.close();
    await browser.close();
  }
});

test('clear errors: no microphone, microphone refused, and a failing speech service that recovers', async () => {
  const speech = speechWav(SENTENCE);
  const host = await launchHost(freshProfile());
  const browsers: Browser[] = [];
  try {
    await test.step('no microphone', async () => {
      const bare = await launch(['--use-fake-ui-for-media-stream']);
      browsers.push(bare);
      const noMic = await bare.newPage({ viewport: { width: 1280, height: 800 } });
      await noMic.addInitScript(() => {
        navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
      });
      await openVoice(noMic, host);
      await noMic.getByRole('switch', { name: 'Voice' }).click();
      await noMic.getByRole('button', { name: 'Record' }).click();
      await expect(noMic.getByRole('alert')).toHaveText('No microphone was found. Connect one and try again.');
      await noMic.close();
    });

    await test.step('permission refused', async () => {
      const refusing = await launch(['--use-fake-device-for-media-stream']);
      browsers.push(refusing);
      const context = await refusing.newContext({ viewport: { width: 1280, height: 800 }, permissions: [] });
      const denied = await context.newPage();
      await openVoice(denied, host);
      await expect(denied.getByRole('switch', { name: 'Voice' })).toHaveAttribute('aria-checked', 'true');
      await denied.getByRole('button', { name: 'Record' }).click();
      await expect(denied.getByRole('alert')).toContainText('Microphone access was refused');
      await context.close();
    });

    // The service's speech-to-text fails, then comes back: the chunk is kept and sent again.
    await test.step('speech-to-text fails, then recovers', async () => {
      const faking = await launch([
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${speech.file}%noloop`,
      ]);
      browsers.push(faking);
      const page = await faking.newPage({ viewport: { width: 1280, height: 800 } });
      await openVoice(page, host);
      await host.app.standin!.faults.set([{ match: { path: '/voicemodelapi/1.0/stt' }, kind: 'status', status: 503 }]);
      await page.getByRole('button', { name: 'Record' }).click();
      const alert = page.getByRole('alert');
      await expect(alert).toContainText('Transcription failed: the speech service did not answer.', { timeout: 45_000 });
      await page.getByRole('button', { name: 'Stop recording' }).click();
      await host.app.standin!.faults.clear();
      await alert.getByRole('button', { name: /Retry 1 chunk/ }).click();
      await expect(page.getByRole('list', { name: 'What the service heard' })).toContainText('cancel', { timeout: 45_000 });
      await expect(page.getByRole('alert')).toHaveCount(0);
    });
  } finally {
    await host.close();
    for (const b of browsers) await b.close();
  }
});
