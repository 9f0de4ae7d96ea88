import { test, expect, type Page } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RENDERER_DIR, freshProfile, launchHost } from '../../support/host';
import { startStandin } from '../../../src-standin/index';
import { loadStaticFiles } from '../../../src-main/host/static-files';
import { consoleReady } from '../../support/web';

/**
 * What the browser enforces on the console page: the CSP blocks eval and injected scripts and
 * any network but our own origin; and the weak-storage state is said before a token is saved.
 */

/** Records every CSP violation the page reports, as "directive blocked-uri". */
const recordViolations = (page: Page) =>
  page.addInitScript(() => {
    const list: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = list;
    document.addEventListener('securitypolicyviolation', (e) => list.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
const violations = (page: Page) => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

/**
 * Tries what an injected page would: an inline script, an inline handler, a foreign script, a
 * plugin and a foreign fetch. Returns whether the fetch went out.
 */
const attack = (page: Page) =>
  page.evaluate(async () => {
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
    const o = document.createElement('object');
    o.data = '/favicon.ico';
    document.body.append(o);
    try {
      await fetch('https://example.com/', { mode: 'no-cors' });
      return 'sent';
    } catch {
      return 'blocked';
    }
  });

/**
 * The built renderer files on a plain loopback server that sends no CSP header (as any file
 * server would), plus a page with no policy at all that frames a given address.
 */
async function plainServer(frameUrl: string) {
  const files = loadStaticFiles(RENDERER_DIR);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/frame.html') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><iframe title="console" src="${frameUrl}"></iframe>`);
      return;
    }
    const f = files.get(path === '/' ? '/index.html' : path);
    if (!f) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': f.type }).end(f.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // The browser keeps its connections alive: close them too, or close waits for them.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

test('the page runs under a CSP that blocks injected scripts and foreign connections', async ({ page }) => {
  const host = await launchHost(freshProfile());
  await recordViolations(page);
  try {
    const response = await page.goto(host.url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    await expect(page.getByRole('heading', { name: 'Welcome to the agent console' })).toBeVisible();

    const fetched = await attack(page);
    // Each attempt is reported as it is refused: wait for them all, then nothing may have run.
    const origin = new URL(host.url).origin;
    await expect
      .poll(() => violations(page))
      .toEqual(
        expect.arrayContaining([
          'script-src-elem inline',
          'script-src-attr inline',
          'script-src-elem https://example.com/evil.js',
          'connect-src https://example.com/',
          `object-src ${origin}/favicon.ico`,
        ]),
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

test('the built page carries its own policy: without any header it still refuses injected scripts, plugins and foreign connections', async ({
  page,
}) => {
  const plain = await plainServer('about:blank');
  await recordViolations(page);
  try {
    const response = await page.goto(plain.url);
    expect(response?.headers()['content-security-policy']).toBeUndefined();
    const fetched = await attack(page);
    expect(fetched).toBe('blocked');
    await expect
      .poll(() => violations(page))
      .toEqual(
        expect.arrayContaining([
          'script-src-elem inline',
          'script-src-attr inline',
          'script-src-elem https://example.com/evil.js',
          'connect-src https://example.com/',
          `object-src ${plain.url}/favicon.ico`,
        ]),
      );
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected ?? false)).toBe(false);
  } finally {
    await plain.close();
  }
});

test('the console refuses to be framed by another page', async ({ page }) => {
  const host = await launchHost(freshProfile());
  const plain = await plainServer(host.url);
  try {
    await page.goto(`${plain.url}/frame.html`);
    // The framed document never loads: Chromium shows its error page in the frame instead.
    const frame = () => page.frames().find((f) => f !== page.mainFrame());
    await expect.poll(() => frame()?.url()).toMatch(/^chrome-error:/);
    await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Welcome to the agent console' })).toHaveCount(0);
  } finally {
    await plain.close();
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
    await consoleReady(page);
    // Agreed: now it is kept, and a restart goes straight to the queue.
    await host.close();
    host = await launchHost(profile);
    await page.goto(host.url);
    await consoleReady(page);
  } finally {
    await host.close();
    await sb.close();
  }
});
