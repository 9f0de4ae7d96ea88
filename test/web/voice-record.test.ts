import { test, expect, chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../support/chromium';
import { freshProfile, launchHost } from '../support/host';
import { speechWav } from '../support/voice-audio';
import type { Host } from '../../src-main/host/start-host';

/**
 * Voice in the console against the demo stand-in: Chromium's fake microphone plays a WAV that
 * espeak-ng spoke, the console records it in chunks, the stand-in's pocketsphinx transcribes
 * them, and the corrected transcript becomes a note on the service.
 */

const SENTENCE = 'I would like to cancel my order';

async function launch(flags: string[]): Promise<Browser> {
  return chromium.launch({ ...CHROMIUM_LAUNCH, args: [...(CHROMIUM_LAUNCH.args ?? []), ...flags] });
}

async function openVoice(page: Page, host: Host): Promise<{ sessionName: string; sessionId: number }> {
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Open the demo workspace' }).click();
  await page.getByRole('button', { name: 'Voice' }).first().click();
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
  const sb = host.app.sandbox!;
  const res = await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2/session-comment`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.tokens.agent}`, 'content-type': 'application/json' },
    body: JSON.stringify({ conditions: [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }], sort: false, page: 0, size: 500 }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Array<{ comment?: string }> }).results.map((r) => r.comment ?? '');
}

test('a spoken sentence is recorded, transcribed by the stand-in, corrected and saved as a note', async () => {
  test.setTimeout(120_000);
  const speech = speechWav(SENTENCE);
  const browser = await launch(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${speech.file}%noloop`]);
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

    await expect.poll(async () => (await serviceNotes(host, sessionId)).some((c) => c.includes(corrected)), { timeout: 20_000 }).toBe(true);
  } finally {
    await host.close();
    await browser.close();
  }
});
