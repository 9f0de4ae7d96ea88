import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import type { Host } from '../../src-main/host/start-host';
import type { Standin } from '../../src-standin/index';
import { idIn, senderRole } from './records';
import { READY_MS } from './ready';

/** Saves what the user sees, for a person to look at (test-results/screenshots/NAME.png). */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, ...opts });
}

/**
 * Signs in through "Connect to a service" as a user would. The host has no keyring, so the
 * weak-protection consent is ticked (tests that check that consent do it by hand).
 */
export async function connectToService(
  page: Page,
  o: { baseUrl: string; token: string; userName?: string; locale?: 'en-US' | 'pt-BR' },
): Promise<void> {
  const pt = o.locale === 'pt-BR';
  await page.getByLabel(pt ? 'Endereço do serviço' : 'Service address').fill(o.baseUrl);
  await page.getByLabel(pt ? 'Token de acesso' : 'Access token').fill(o.token);
  if (o.userName) await page.getByLabel('Your user name (optional)').fill(o.userName);
  await page
    .getByLabel(pt ? 'Guardar o token com proteção fraca nesta máquina' : 'Keep the token with weak protection on this machine')
    .check();
  await page.getByRole('button', { name: pt ? 'Conectar' : 'Connect', exact: true }).click();
}

/**
 * In a console shown in Portuguese: connects to a service (weak protection agreed, as
 * `connectToService`), then opens a session of the attendant's by its protocol, as a user would.
 */
export async function openSessionInPortuguese(page: Page, o: { baseUrl: string; token: string; protocol: string }): Promise<void> {
  await page.getByLabel('Endereço do serviço').fill(o.baseUrl);
  await page.getByLabel('Token de acesso').fill(o.token);
  await page.getByLabel('Guardar o token com proteção fraca nesta máquina').check();
  await page.getByRole('button', { name: 'Conectar', exact: true }).click();
  await expect(page.getByRole('tablist', { name: 'Sessões' })).toBeVisible({ timeout: READY_MS });
  await page.getByRole('searchbox', { name: 'Filtrar sessões' }).fill(o.protocol);
  await page.getByRole('tab', { name: /Minhas/ }).click();
  await page.getByRole('list', { name: 'Minhas' }).getByRole('button').first().click();
}

export { READY_MS } from './ready';

/** Waits until the console shows a signed-in workspace as its user sees it: the queue's tabs. */
export async function consoleReady(page: Page): Promise<void> {
  await expect(page.getByRole('tablist', { name: /^(Sessions|Sessões)$/ })).toBeVisible({ timeout: READY_MS });
}

/**
 * Opens the host's page and the demo workspace as a new user would (as its attendant, or as the
 * operation's supervisor, who also sees the supervisor tools), then stops the customer simulator
 * so the test sets the scene itself. Returns the demo stand-in.
 */
export async function openDemo(page: Page, host: Host, o: { as?: 'agent' | 'supervisor' } = {}): Promise<Standin> {
  await page.goto(host.url);
  await page.getByRole('button', { name: o.as === 'supervisor' ? 'Open it as the supervisor' : 'Open the demo workspace' }).click();
  await consoleReady(page);
  const sb = host.app.standin!;
  await sb.simulator.stop();
  return sb;
}

export type Rec = Record<string, unknown>;

/** Reads and writes the stand-in directly, to check what the console did (or to set a scene). */
export function serviceApi(baseUrl: string, token: string) {
  const call = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Rec> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    const text = await res.text();
    return text ? (JSON.parse(text) as Rec) : {};
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown) => call('POST', path, body),
    delete: (path: string) => call('DELETE', path),
    /** One v2 list page, sorted by `sortColumn` (default id ASC). */
    list: async (
      resource: string,
      conditions: unknown[] = [],
      o: { sortColumn?: string; direction?: 'ASC' | 'DESC'; page?: number; size?: number } = {},
    ) =>
      (
        await call('POST', `/chatapi/1.0/api/v2${resource}`, {
          conditions,
          sort: true,
          sortColumn: o.sortColumn ?? 'id',
          direction: o.direction ?? 'ASC',
          page: o.page ?? 0,
          size: o.size ?? 500,
        })
      ).results as Rec[],
    /** Every record of a list, paging until a short page (bounded). */
    listAll: async (resource: string, conditions: unknown[] = []): Promise<Rec[]> => {
      const out: Rec[] = [];
      for (let page = 0; page < 200; page++) {
        const results = (
          await call('POST', `/chatapi/1.0/api/v2${resource}`, {
            conditions,
            sort: true,
            sortColumn: 'id',
            direction: 'ASC',
            page,
            size: 500,
          })
        ).results as Rec[];
        out.push(...results);
        if (results.length < 500) return out;
      }
      throw new Error(`${resource}: more than 200 pages`);
    },
  };
}

/** The demo attendant's open sessions, newest first, straight from the stand-in. */
export async function ownOpenSessions(sb: Standin, count = 1): Promise<Rec[]> {
  return serviceApi(sb.baseUrl, sb.tokens.agent).list(
    '/user-session',
    [
      { key: 'status', operator: 'EQ', value: 'OPEN' },
      { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
    ],
    { direction: 'DESC', size: count },
  );
}

/** The demo attendant's status as the service holds it (ONLINE, PAUSED...), read by a supervisor. */
export function demoAgentStatus(sb: Standin): () => Promise<unknown> {
  const api = serviceApi(sb.baseUrl, sb.tokens.supervisor);
  return async () => (await api.list('/agent')).find((a) => (a.user as Rec).userName === sb.demoAgent.userName)?.status;
}

/** The names of the pause reasons the service offers (active ones), in its order. */
export async function pauseReasonNames(sb: Standin): Promise<string[]> {
  const reasons = await serviceApi(sb.baseUrl, sb.tokens.supervisor).list('/pause-reasons');
  return reasons.filter((r) => r.active !== false).map((r) => String(r.value));
}

/** The attendant's replies in a session, oldest first, as the stand-in holds them. */
export async function repliesOn(sb: Standin, sessionId: number): Promise<string[]> {
  const messages = await serviceApi(sb.baseUrl, sb.tokens.agent).list(
    '/messages',
    [{ key: 'session.id', operator: 'EQNUM', value: String(sessionId) }],
    {
      sortColumn: 'createdAt',
    },
  );
  return messages.filter((m) => senderRole(m) === 'agent').map((m) => String(m.message));
}

/**
 * Selects a session of mine in the queue as a user would: filters by its protocol, opens Mine
 * (which holds those waiting for the customer too) and clicks its row. Returns the customer's
 * name. Does not wait for the thread: callers say what they expect to see (offline, the queue
 * may be the saved copy).
 */
export async function selectSession(page: Page, s: Rec): Promise<string> {
  await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(s.protocol));
  await page.getByRole('tab', { name: /Mine/ }).click();
  const name = String((s.user as Rec).displayName ?? (s.user as Rec).name);
  await page
    .getByRole('list', { name: 'Mine' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .click();
  return name;
}

/** A view's button in the navigation rail, by the view's name (the rail's own name follows the language). */
export const railButton = (page: Page, name: string) => page.locator('nav.rail').getByRole('button', { name, exact: true });

/** The event log and listener live in the settings, under "Developer / integration". */
export async function openEvents(page: Page): Promise<void> {
  await railButton(page, 'Settings').click();
  await page.getByRole('tab', { name: 'Developer / integration' }).click();
}

/** A workspace's button in the sidebar, by its host (its name, then its unread count when it has some). */
export const workspaceButton = (page: Page, host: string) =>
  // Its name: the short label shown (the account), then the whole name ("host · account").
  page
    .getByRole('group', { name: 'Workspaces' })
    .getByRole('button', { name: new RegExp(`(^|, )${host.replaceAll('.', '\\.')}( · [^,:]+)?(,|:|$)`) });

/** The session the stand-in seeds with media messages (its customer sends a photo, a voice note and a document). */
export async function mediaSession(sb: Standin): Promise<Rec> {
  const api = serviceApi(sb.baseUrl, sb.tokens.agent);
  const [media] = await api.list('/messages', [{ key: 'message', operator: 'LIKE', value: '%/media/%' }], { size: 1 });
  const sessionId = idIn(media!.session ?? media!.sessionId);
  const [session] = await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(sessionId) }]);
  return session!;
}

type Box = { x: number; y: number; width: number; height: number };

/** Whether two boxes on the page overlap (touching edges do not). */
export const intersects = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Whether an element shows at least `chars` characters of its text: inside every box that clips
 * it (not wrapped onto a line its parent hides), and all of it or, when it is ellipsized, a box
 * wide enough for that many characters and the ellipsis after them.
 */
export function showsAtLeast(el: Locator, chars: number): Promise<boolean> {
  return el.evaluate((node, n) => {
    const own = node.getBoundingClientRect();
    // A box that hides what overflows it (a list scrolled elsewhere is not that: the user scrolls).
    for (let up = node.parentElement; up; up = up.parentElement) {
      if (!/hidden|clip/.test(getComputedStyle(up).overflow)) continue;
      const clip = up.getBoundingClientRect();
      if (own.top + 1 >= clip.bottom || own.bottom - 1 <= clip.top || own.left + 1 >= clip.right || own.right - 1 <= clip.left)
        return false;
    }
    if (node.scrollWidth <= node.clientWidth + 1) return true;
    const text = [...node.childNodes].find((c) => c.nodeType === Node.TEXT_NODE && (c.textContent ?? '').trim());
    if (!text) return false;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, Math.min(n, (text.textContent ?? '').length));
    const probe = document.createElement('span');
    probe.textContent = '…';
    probe.style.font = getComputedStyle(node).font;
    probe.style.position = 'absolute';
    document.body.append(probe);
    const ellipsis = probe.getBoundingClientRect().width;
    probe.remove();
    return node.getBoundingClientRect().width + 0.5 >= range.getBoundingClientRect().width + ellipsis;
  }, chars);
}
