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

    const verdicts = await page.evaluate(async () => {
      const out: Record<string, string> = {};
      // (Code evaluated by the test harness is exempt from the CSP; what the page loads is not.)
      const w = window as unknown as { injected?: boolean };
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
      await new Promise((r) => setTimeout(r, 300));
      out.inline = w.injected ? 'ran' : 'blocked';
      try {
        await fetch('https://example.com/', { mode: 'no-cors' });
        out.fetch = 'sent';
      } catch {
        out.fetch = 'blocked';
      }
      out.require = typeof (globalThis as { require?: unknown }).require;
      out.process = typeof (globalThis as { process?: unknown }).process;
      return out;
    });
    const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    expect(violations).toEqual(expect.arrayContaining(['script-src-elem inline', 'script-src-attr inline', 'script-src-elem https://example.com/evil.js', 'connect-src https://example.com/']));
    expect(verdicts).toEqual({ inline: 'blocked', fetch: 'blocked', require: 'undefined', process: 'undefined' });
  } finally {
    await host.close();
  }
});

test('with no keyring the console warns and does not save the token until the user agrees', async ({ page }) => {
  const sb = await startStandin({ port: 0 });
  const host = await launchHost(freshProfile());
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
    expect(host.app.handlers).toBeTruthy();
    await consent.check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
  } finally {
    await host.close();
    await sb.close();
  }
});
