import { test, expect } from '@playwright/test';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connectToService, consoleReady } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test('the token never crosses the bridge, nor reaches the DOM, storage, the log or the profile in clear', async ({ page }) => {
  const sb = await startStandin({ port: 0 });
  const token = sb.tokens.supervisor;
  const profile = freshProfile();
  const host = await launchHost(profile);
  const pushed: string[] = [];
  host.app.events.subscribe((name, payload) => pushed.push(`${name} ${JSON.stringify(payload)}`));
  const requests: { url: string; body: string }[] = [];
  const responses: string[] = [];
  page.on('request', (r) => requests.push({ url: r.url(), body: r.postData() ?? '' }));
  page.on('response', async (r) => {
    if (r.url().includes('/bridge/')) responses.push(await r.text().catch(() => ''));
  });
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token, userName: sb.demoAgent.userName });
    await consoleReady(page);
    await expect(page.getByRole('tab', { name: /Waiting/ })).toBeVisible();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();

    // The user typed it once: only that one call carries it, renderer to main.
    const carrying = requests.filter((r) => r.body.includes(token) || r.url.includes(token));
    expect(carrying.map((r) => new URL(r.url).pathname)).toEqual(['/bridge/workspace%3Aconnect']);
    expect(responses.length).toBeGreaterThan(2);
    for (const body of responses) expect(body).not.toContain(token);
    expect(pushed.length).toBeGreaterThan(0);
    for (const event of pushed) expect(event).not.toContain(token);

    expect(await page.content()).not.toContain(token);
    const stored = await page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }),
    );
    expect(stored).not.toContain(token);
  } finally {
    await host.close();
    await sb.close();
  }
  const files = filesUnder(profile);
  expect(files.some((f) => f.endsWith('console.log'))).toBe(true);
  for (const f of files) expect(readFileSync(f).toString('latin1'), f).not.toContain(token);
});
