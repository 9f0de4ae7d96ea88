import { test, expect, type Page } from '@playwright/test';
import { consoleReady, openDemo, ownOpenSessions, selectSession, shot, type Rec } from '../../support/web';
import { freshProfile, launchHost, runningStandin, usedConsoleProfile, webBridge } from '../../support/host';
import { customerSays } from '../../support/customer';
import { axeViolations } from '../../support/axe';

/**
 * Snooze: an attendant puts a session of theirs aside until a time or until the customer writes.
 * It leaves Mine (and Needs me) for Snoozed, comes back, marked, when the customer writes or its
 * time comes, and stays snoozed across a restart.
 */

const tab = (page: Page, name: 'Mine' | 'Snoozed') => page.getByRole('tab', { name: new RegExp(`^${name}\\b`) });
const list = (page: Page, name: 'Mine' | 'Snoozed') => page.getByRole('list', { name });
const rowOf = (page: Page, where: 'Mine' | 'Snoozed', customer: string) =>
  list(page, where).getByRole('button', { name: new RegExp(`^${customer}`) });
/** Shows one session's row in a tab: the filter holds its protocol (customers' names repeat). */
async function show(page: Page, where: 'Mine' | 'Snoozed', s: Rec): Promise<void> {
  await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(s.protocol));
  await tab(page, where).click();
}

/** The session ids "Needs me" lists, and how many it counts in all, as the console answers the page. */
async function needsMe(call: Awaited<ReturnType<typeof webBridge>>): Promise<{ ids: number[]; counted: number }> {
  const body = (await call('workspace:needsMe')).body as {
    result: { rows: Array<{ item: { id: number } }>; more: number; counts: Record<string, { needsMe: number }> };
  };
  const r = body.result;
  return { ids: r.rows.map((row) => row.item.id), counted: Object.values(r.counts).reduce((n, c) => n + c.needsMe, 0) };
}

/** Opens the snooze choices of the open session. */
async function openSnooze(page: Page, customer: string) {
  await page.getByRole('button', { name: 'Snooze', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Snooze ${customer}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A `datetime-local` value `ms` from now, in the page's own zone (the attendant's computer). */
const localIn = (page: Page, ms: number) =>
  page.evaluate((ahead) => {
    const d = new Date(Date.now() + ahead);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }, ms);

test('snoozed until the customer writes: out of Mine and Needs me, in Snoozed; the customer writes and it is back in Mine, marked', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const call = await webBridge(host);
    const [first, second] = await ownOpenSessions(sb, 2);
    const id = Number(first!.id);
    const customer = await selectSession(page, first!);
    await expect(page.getByRole('log', { name: /Messages with/ })).toBeVisible();
    const before = await needsMe(call);
    expect(before.ids).toContain(id);

    const dialog = await openSnooze(page, customer);
    await shot(page, 'snooze-dialog');
    expect(await axeViolations(page, 'snooze dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Until the customer writes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: /^Snoozed until the customer writes:/ })).toBeVisible();

    // Out of Mine, into Snoozed, saying when it wakes.
    await show(page, 'Mine', first!);
    await expect(rowOf(page, 'Mine', customer)).toHaveCount(0);
    await expect(tab(page, 'Snoozed')).toContainText('1');
    await show(page, 'Snoozed', first!);
    await expect(rowOf(page, 'Snoozed', customer)).toContainText('Until the customer writes');
    // Out of Needs me: not listed, one fewer counted.
    await expect.poll(async () => (await needsMe(call)).ids).not.toContain(id);
    expect((await needsMe(call)).counted).toBe(before.counted - 1);

    // The attendant moves on to another session; the customer of the snoozed one writes.
    await selectSession(page, second!);
    await customerSays(sb.baseUrl, sb.tokens.admin, id, 'Oi, consegui o comprovante. Pode seguir?');
    await show(page, 'Mine', first!);
    const back = rowOf(page, 'Mine', customer);
    await expect(back).toContainText('Back: the customer wrote');
    await expect(back).toContainText('Oi, consegui o comprovante.');
    await expect(tab(page, 'Snoozed')).toContainText('0');
    await expect.poll(async () => (await needsMe(call)).ids).toContain(id);
    await shot(page, 'snooze-woken');

    // Opened, the mark has been seen.
    await back.click();
    await expect(page.getByRole('log', { name: /Messages with/ })).toContainText('Oi, consegui o comprovante.');
    await expect(back).not.toContainText('Back: the customer wrote');
  } finally {
    await host.close();
  }
});

test('snoozed until a time: a time already past is refused with a reason; a time a few seconds ahead wakes it when it passes', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const [first, second] = await ownOpenSessions(sb, 2);
    const customer = await selectSession(page, first!);
    await expect(page.getByRole('log', { name: /Messages with/ })).toBeVisible();

    const dialog = await openSnooze(page, customer);
    const time = dialog.getByLabel('Or until a time of your choice');
    // Nothing chosen, then a time already gone: said, and nothing snoozed.
    await dialog.getByRole('button', { name: 'Snooze until then' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Choose a date and time first, or one of the quick choices.');
    await time.fill(await localIn(page, -60_000));
    await dialog.getByRole('button', { name: 'Snooze until then' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('That time has already passed: choose a time later than now.');
    await expect(tab(page, 'Snoozed')).toContainText('0');

    await time.fill(await localIn(page, 6_000));
    await dialog.getByRole('button', { name: 'Snooze until then' }).click();
    await expect(dialog).toBeHidden();
    await show(page, 'Snoozed', first!);
    await expect(rowOf(page, 'Snoozed', customer)).toContainText(/Wakes \d\d:\d\d/);

    // Elsewhere meanwhile; the time passes and it is back in Mine, marked.
    await selectSession(page, second!);
    await show(page, 'Mine', first!);
    await expect(rowOf(page, 'Mine', customer)).toContainText('Back: snooze ended', { timeout: 20_000 });
    await expect(tab(page, 'Snoozed')).toContainText('0');
  } finally {
    await host.close();
  }
});

test('a snooze survives a restart of the console on the same profile, and is woken by hand there', async ({ page }) => {
  let customer = '';
  let s: Rec = {};
  const profile = await usedConsoleProfile(page, async (p, first) => {
    const sb = await openDemo(p, first);
    s = (await ownOpenSessions(sb, 1))[0]!;
    customer = await selectSession(p, s);
    await expect(p.getByRole('log', { name: /Messages with/ })).toBeVisible();
    await (await openSnooze(p, customer)).getByRole('button', { name: 'Until tomorrow at 9:00' }).click();
    await expect(tab(p, 'Snoozed')).toContainText('1');
  });
  const second = await launchHost(profile);
  try {
    await page.goto(second.url);
    await consoleReady(page);
    // No simulated customer writes in this run (one writing in the snoozed session would wake it).
    await (await runningStandin(second)).simulator.stop();
    await show(page, 'Snoozed', s);
    const row = rowOf(page, 'Snoozed', customer);
    await expect(row).toContainText(/Wakes tomorrow 09:00/);
    // Usable by everyone, in both appearances.
    expect(await axeViolations(page, 'snoozed list, light')).toEqual([]);
    await page.locator('.shell-theme').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await axeViolations(page, 'snoozed list, dark')).toEqual([]);
    await shot(page, 'snooze-list-dark');
    await show(page, 'Mine', s);
    await expect(rowOf(page, 'Mine', customer)).toHaveCount(0);

    await show(page, 'Snoozed', s);
    await list(page, 'Snoozed')
      .getByRole('button', { name: `Wake ${customer} now` })
      .click();
    await expect(row).toHaveCount(0);
    await show(page, 'Mine', s);
    await expect(rowOf(page, 'Mine', customer)).toBeVisible();
    // By hand: the attendant knows why it is back; no mark.
    await expect(rowOf(page, 'Mine', customer)).not.toContainText('Back:');
  } finally {
    await second.close();
  }
});
