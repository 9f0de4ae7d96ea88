import { test, expect, type Locator } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady, ownOpenSessions, railButton, selectSession, serviceApi } from '../../support/web';

/**
 * A service that writes São Paulo wall time with no offset (the stand-in's local-time reading),
 * a page in Kolkata (+05:30, `timezoneId`), and the console's host in whatever zone the run has
 * (the project runs it under TZ=America/Sao_Paulo and TZ=UTC too): three zones. The page shows
 * every time in its own zone, as the instant the service means. Expected clocks are worked out
 * here: São Paulo is UTC-03:00 all year (since 2019), Kolkata UTC+05:30.
 */

const PAGE_ZONE = 'Asia/Kolkata';
test.use({ timezoneId: PAGE_ZONE, viewport: { width: 1366, height: 768 } });

const HOUR = 3600_000;
/** What the service writes for an instant: São Paulo's wall time, no offset. */
const saoPauloWall = (ms: number) => new Date(ms - 3 * HOUR).toISOString().slice(0, -1);
/** The clock the page shows for an instant (en-US, as the console's locale here). */
const clock = (ms: number) => new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', timeZone: PAGE_ZONE }).format(ms);
/** The start of the page's day (Kolkata, +05:30) that holds `ms`. */
const kolkataMidnight = (ms: number) => Math.floor((ms + 5.5 * HOUR) / (24 * HOUR)) * 24 * HOUR - 5.5 * HOUR;

/** The day separator nearest above `row` in the thread. */
async function dayAbove(log: Locator, row: Locator): Promise<string | null> {
  const top = (await row.boundingBox())!.y;
  let best: { y: number; name: string } | null = null;
  for (const sep of await log.getByRole('separator').all()) {
    const box = await sep.boundingBox();
    const name = await sep.getAttribute('aria-label');
    if (box && name && box.y < top && (!best || box.y > best.y)) best = { y: box.y, name };
  }
  return best?.name ?? null;
}

test('times from a service writing local wall time show as the real ones in the page’s zone', async ({ page }) => {
  test.setTimeout(150_000);
  const sb = await startStandin({ port: 0, sessions: 40, reading: 'local-time', zone: 'America/Sao_Paulo' });
  const host = await launchHost(freshProfile());
  try {
    const api = serviceApi(sb.baseUrl, sb.tokens.agent);
    const session = (await ownOpenSessions(sb))[0]!;
    // The customer wrote a few seconds ago (within the page's today, even just after its midnight).
    const now = Date.now();
    const customerAt = Math.max(Math.floor((now - 5_000) / 1000) * 1000, kolkataMidnight(now) + 1000);
    const line = `Cheguei agora, pode me ajudar? ${now}`;
    await api.post('/chatapi/1.0/api/v2/messages/save', {
      session: { id: session.id },
      message: line,
      fromUser: true,
      createdAt: saoPauloWall(customerAt),
    });

    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    await selectSession(page, session);
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(log.getByText(line)).toBeVisible({ timeout: 30_000 });

    // A reply just sent shows under Today with the clock of the moment it was sent.
    const reply = `Claro, estou aqui ${now}`;
    const box = page.getByRole('textbox', { name: /Reply to/ });
    await box.fill(reply);
    const before = Date.now();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = log.getByRole('article').filter({ hasText: reply });
    await expect(sent.getByText('Sent')).toBeVisible();
    const after = Date.now();
    await expect(sent.locator('time')).toHaveText(new RegExp(`^(${clock(before)}|${clock(after)})$`));
    expect(await dayAbove(log, sent)).toBe('Today');
    // The zone learned from that reply moved every time read before: the thread is read again,
    // and the customer's line (read as UTC before) now says its real time, without a reload.
    const customerRow = log.getByRole('article').filter({ hasText: line });
    await expect(customerRow.locator('time')).toHaveText(clock(customerAt));
    expect(await dayAbove(log, customerRow)).toBe('Today');

    // Read again (the zone it learned is kept): the customer's line and the reply both say their
    // own real times, under Today.
    await page.reload();
    await consoleReady(page);
    await selectSession(page, session);
    await expect(customerRow.locator('time')).toHaveText(clock(customerAt));
    expect(await dayAbove(log, customerRow)).toBe('Today');
    await expect(sent.locator('time')).toHaveText(new RegExp(`^(${clock(before)}|${clock(after)})$`));
    expect(await dayAbove(log, sent)).toBe('Today');
    // The composer takes free text: the customer wrote within the 24 hours, by the service's clock.
    await expect(page.getByRole('textbox', { name: /Reply to/ })).toBeEnabled();

    // The settings say what was learned; a zone no one can read is refused with what to write.
    await railButton(page, 'Settings').click();
    const zone = page.getByRole('group', { name: "Service's time zone" });
    await expect(zone.getByText('Read in: -03:00')).toBeVisible();
    await zone.getByRole('textbox', { name: "Service's time zone" }).fill('Brasília');
    await zone.getByRole('button', { name: 'Save the zone' }).click();
    await expect(zone.getByRole('alert')).toContainText('"Brasília" is not a time zone');
    await zone.getByRole('textbox', { name: "Service's time zone" }).fill('America/Sao_Paulo');
    await zone.getByRole('button', { name: 'Save the zone' }).click();
    await expect(zone.getByRole('status')).toHaveText('Zone saved.');
    await expect(zone.getByText('Read in: America/Sao_Paulo')).toBeVisible();
  } finally {
    await host.close();
    await sb.close();
  }
});
