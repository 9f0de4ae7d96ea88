import { test, expect } from '@playwright/test';
import { freshProfile, launchHost } from '../support/host';
import { startStandin } from '../../src-standin/index';

/**
 * What the browser enforces on the console page: the CSP blocks eval and injected scripts and
 * any network but our own origin; and the weak-storage state is said before a token is saved.
 */

test('the page runs under a CSP that blocks injected scripts and foreign connections', async ({ page }) => {
  const host = await launchHost(freshProfile());
  // Every CSP violation the page reports, as "directive blocked-uri".
  await page.addInitScript(() => {
    const list: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = list;
    document.addEventListener('securitypolicyviolation', (e) => list.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  try {
    const response = await page.goto(host.url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    await expect(page.getByRole('heading', { name: 'Welcome to the agent console' })).toBeVisible();

    const fetched = await page.evaluate(async () => {
      // (Code evaluated by the test harness is exempt from the CSP; what the page loads is not.)
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.body.append(s);
      const img = document.createElement('img');
      img.setAttribute('src', 'x');
      img.setAttribute('onerror', 'window.injected = true');
      document.body.append(img);
      const external = document.createElement('script');
      external.src = 'https://example.com/evil.js';
      document.body.append(external);
      try {
        await fetch('https://example.com/', { mode: 'no-cors' });
        return 'sent';
      } catch {
        return 'blocked';
      }
    });
    // Each attempt is reported as it is refused: wait for all four, then nothing may have run.
    await expect.poll(() => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
      expect.arrayContaining(['script-src-elem inline', 'script-src-attr inline', 'script-src-elem https://example.com/evil.js', 'connect-src https://example.com/']),
    );
    const verdicts = await page.evaluate(() => ({
      inline: (window as unknown as { injected?: boolean }).injected ? 'ran' : 'blocked',
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
    }));
    expect({ ...verdicts, fetch: fetched }).toEqual({ inline: 'blocked', fetch: 'blocked', require: 'undefined', process: 'undefined' });
  } finally {
    await host.close();
  }
});

test('with no keyring the console warns and does not save the token until the user agrees', async ({ page }) => {
  const sb = await startStandin({ port: 0 });
  const profile = freshProfile();
  let host = await launchHost(profile);
  try {
    await page.goto(host.url);
    await page.getByLabel('Service address').fill(sb.baseUrl);
    await page.getByLabel('Access token').fill(sb.tokens.agent);
    const consent = page.getByLabel('Keep the token with weak protection on this machine');
    await expect(consent).toBeVisible();
    await expect(consent).not.toBeChecked();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('weak protection');
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toHaveCount(0);
    // Nothing was kept: a restart on the same profile asks again instead of opening the queue.
    await host.close();
    host = await launchHost(profile);
    await page.goto(host.url);
    await expect(page.getByRole('heading', { name: 'Welcome to the agent console' })).toBeVisible();
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toHaveCount(0);
    await page.getByLabel('Service address').fill(sb.baseUrl);
    await page.getByLabel('Access token').fill(sb.tokens.agent);
    await consent.check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
    // Agreed: now it is kept, and a restart goes straight to the queue.
    await host.close();
    host = await launchHost(profile);
    await page.goto(host.url);
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
  } finally {
    await host.close();
    await sb.close();
  }
});
