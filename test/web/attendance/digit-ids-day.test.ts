import { test, expect } from '@playwright/test';
import { idIn, nameOf, senderRole } from '../../support/records';
import { startStandin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, railButton, READY_MS, serviceApi, shot, type Rec } from '../../support/web';

/**
 * A supervisor who attends too works a day against a server written from the same interface by
 * others: the stand-in's variant reading, which writes every integer as a string of digits (as
 * protobuf's JSON mapping writes int64), dates with an offset, the channel in
 * `userConnectedInstance`, user references as objects. The queue, a thread with its customer's
 * line as the row's preview, a reply, a note, accepting, a transfer, pausing with a reason, the
 * classification and close, a ticket, the groups view and the explorer all read it.
 */

test.use({ viewport: { width: 1366, height: 768 } });

test("the attendant's day against a service that writes ids as strings of digits", async ({ page }) => {
  test.setTimeout(300_000);
  const sb = await startStandin({ port: 0, sessions: 80, reading: 'variant' });
  const host = await launchHost(freshProfile());
  try {
    const api = serviceApi(sb.baseUrl, sb.tokens.supervisor);
    const [probe] = await api.list('/user-session', [], { size: 1 });
    // What this server sends: ids as digits.
    expect(probe!.id).toMatch(/^\d+$/);
    const sessionNow = async (id: number) => (await api.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(id) }]))[0]!;

    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.supervisor });
    await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();

    // The queue: every session listed, none left out, waiting rows show their customer's line.
    const waiting = page.getByRole('list', { name: 'Waiting' });
    await expect(waiting.getByRole('button', { name: /^Accept session of / }).first()).toBeVisible();
    await expect(page.getByText(/could not be read/)).toHaveCount(0);
    const waitingNow = await api.list(
      '/user-session',
      [
        { key: 'status', operator: 'EQ', value: 'OPEN' },
        { key: 'agent', operator: 'IS_NULL', logic: 'AND' },
      ],
      { sortColumn: 'createdAt' },
    );
    const opening = (
      await api.list('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(waitingNow[0]!.id) }], { sortColumn: 'createdAt' })
    ).find((m) => senderRole(m) === 'customer')!;
    const firstRow = waiting.locator('.session-item').filter({ hasText: nameOf(waitingNow[0]!.user)! });
    // Previews are read in the background after the queue: one generous limit.
    await expect(firstRow.locator('.preview')).toContainText(String(opening.message).slice(0, 20), { timeout: READY_MS });
    // Every waiting row shows a customer's line, not the group and channel it shows without one.
    await expect(waiting.locator('.preview').filter({ hasText: ' · ' })).toHaveCount(0);
    // The channel, from whichever connection field names it (this server: the instance).
    await expect(firstRow.getByRole('button').first()).toHaveAccessibleName(
      new RegExp(`, ${channelWords[String(waitingNow[0]!.userConnectedInstance)]}`),
    );
    await shot(page, 'digit-ids-queue');

    // Accepting the longest-waiting customer: theirs now, in Mine, the thread open.
    const accept = waiting.getByRole('button', { name: /^Accept session of / }).first();
    const customer = (await accept.getAttribute('aria-label'))!.replace('Accept session of ', '');
    await accept.click();
    await expect(page.getByRole('tab', { name: /Mine/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: customer }).first()).toBeVisible();
    const acceptedId = idIn(
      (
        await api.list('/user-session', [{ key: 'lastAgent', operator: 'EQ', value: 'juliana.martins' }], {
          sortColumn: 'attendedAt',
          direction: 'DESC',
          size: 1,
        })
      )[0]!.id,
    )!;
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(log.getByRole('article').first()).toBeVisible();

    // A reply, and a note.
    const reply = 'Bom dia! Já estou vendo o seu caso.';
    const box = page.getByRole('textbox', { name: /Reply to/ });
    await box.fill(reply);
    await box.press('Enter');
    await expect(log.getByText('Sent')).toBeVisible();
    await expect
      .poll(async () =>
        (await api.list('/messages', [{ key: 'session.id', operator: 'EQNUM', value: String(acceptedId) }])).some(
          (m) => m.message === reply && senderRole(m) === 'agent',
        ),
      )
      .toBe(true);
    await page.getByRole('tab', { name: /Notes/ }).click();
    const notes = page.getByRole('region', { name: 'Notes' });
    await notes.getByRole('textbox', { name: 'New note' }).fill('Cliente pediu retorno por e-mail.');
    await notes.getByRole('button', { name: 'Add note' }).click();
    await expect
      .poll(async () =>
        (await api.list('/session-comment', [{ key: 'sessionId', operator: 'EQNUM', value: String(acceptedId) }])).map((c) =>
          String(c.comment),
        ),
      )
      .toContainEqual(expect.stringContaining('Cliente pediu retorno por e-mail.'));

    // Pausing with a reason the service lists (their ids are digits too), and back.
    const status = page.getByRole('group', { name: 'Your status' });
    const reasons = (await api.list('/pause-reasons')).filter((r) => r.active !== false);
    const pick = status.getByRole('combobox', { name: 'Pause reason' });
    await expect(pick.getByRole('option')).toHaveCount(reasons.length + 1);
    await pick.selectOption({ label: (await pick.getByRole('option').nth(1).textContent())!.trim() });
    await status.getByRole('button', { name: 'Pause', exact: true }).click();
    const myAgent = async () => (await api.list('/agent')).find((a) => (a.user as Rec).userName === 'juliana.martins')!;
    await expect.poll(async () => (await myAgent()).status).toBe('PAUSED');
    await status.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(async () => (await myAgent()).status).toBe('ONLINE');

    // Another waiting customer, accepted and transferred to another group.
    await page.getByRole('tab', { name: /Waiting/ }).click();
    await waiting
      .getByRole('button', { name: /^Accept session of / })
      .first()
      .click();
    await expect(page.getByRole('tab', { name: /Mine/ })).toHaveAttribute('aria-selected', 'true');
    const secondId = idIn(
      (
        await api.list('/user-session', [{ key: 'lastAgent', operator: 'EQ', value: 'juliana.martins' }], {
          sortColumn: 'attendedAt',
          direction: 'DESC',
          size: 1,
        })
      )[0]!.id,
    )!;
    expect(secondId).not.toBe(acceptedId);
    const groupBefore = idIn((await sessionNow(secondId)).groupConf);
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const transfer = page.getByRole('dialog', { name: 'Transfer the session' });
    const groupPick = transfer.getByRole('combobox', { name: 'Choose a group' });
    await expect(groupPick.getByRole('option').nth(2)).toBeAttached();
    const groups = (await groupPick.getByRole('option').allTextContents()).map((t) => t.trim()).filter((t) => t !== '—');
    const current = ((await sessionNow(secondId)).groupConf as Rec).name;
    await groupPick.selectOption({ label: groups.find((g) => g !== current)! });
    await transfer.getByRole('button', { name: 'Transfer', exact: true }).click();
    await expect(transfer).toBeHidden();
    await expect.poll(async () => idIn((await sessionNow(secondId)).groupConf)).not.toBe(groupBefore);

    // Classify and close the first one; the record names the agent record, the node and the path.
    await page.getByRole('tab', { name: /Mine/ }).click();
    await page
      .getByRole('list', { name: 'Mine' })
      .getByRole('button', { name: new RegExp(`^${customer}`) })
      .first()
      .click();
    await page.getByRole('button', { name: 'Classify and close' }).click();
    const dialog = page.getByRole('dialog', { name: 'Classify and close' });
    await expect(dialog.getByRole('tree', { name: 'Classification' })).toBeVisible();
    const search = dialog.getByRole('searchbox', { name: 'Search the classification' });
    const leaf = dialog.getByRole('treeitem').nth(2);
    await search.fill((await leaf.innerText()).replace(/^•\s*/, '').trim().slice(0, 6));
    await search.press('ArrowDown');
    await search.press('ArrowUp');
    await search.press('Enter');
    await expect(dialog.getByRole('status')).toContainText('Chosen:');
    await dialog.getByRole('button', { name: 'Close the session' }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await sessionNow(acceptedId)).status).toBe('CLOSED');
    const [record] = await api.list('/classification-service', [{ key: 'sessionId', operator: 'EQNUM', value: String(acceptedId) }]);
    expect(idIn(record!.agentId)).toBe(idIn((await myAgent()).id));
    const node = record!.classificationTreeSession as Rec;
    expect(idIn(node)).toEqual(expect.any(Number));
    // The readable path from the tree's root to the node chosen.
    expect(String(record!.displayName)).toMatch(new RegExp(`^.+ > .*${String(node.value)}$`));

    // A ticket: its number, title and session, not "#null".
    await railButton(page, 'Supervisor').click();
    await page.getByRole('button', { name: 'Look up a ticket' }).click();
    const lookup = page.getByRole('dialog', { name: 'Ticket lookup' });
    const ticket = (await (
      await fetch(`${sb.baseUrl}/ticketapi/1.0/api/v1/tickets/4711`, { headers: { authorization: `Bearer ${sb.tokens.supervisor}` } })
    ).json()) as {
      data: Rec;
    };
    await lookup.getByLabel('Ticket number or key').fill('4711');
    await lookup.getByLabel('Ticket number or key').press('Enter');
    await expect(lookup.getByRole('heading', { name: String(ticket.data.title) })).toBeVisible();
    await expect(lookup).toContainText('4711');
    await expect(lookup).not.toContainText('#null');
    await page.keyboard.press('Escape');

    // The groups view: every group with its waiting sessions, nothing left out.
    await page.getByRole('tab', { name: 'Groups' }).click();
    await expect(page.locator('.sup-group').first()).toBeVisible();
    await expect(page.getByText('No open sessions in any group.')).toHaveCount(0);
    await expect(page.getByText(/could not be read/)).toHaveCount(0);
    // Every session waiting for an attendant is counted in its group, ids as digits or not.
    const unheld = await api.list('/user-session', [
      { key: 'status', operator: 'NEQ', value: 'CLOSED' },
      { key: 'agent', operator: 'IS_NULL', logic: 'AND' },
    ]);
    const waitingFacts = page.locator('.sup-group .sup-facts > div').filter({ has: page.locator('dt', { hasText: /^Waiting$/ }) });
    await expect
      .poll(async () => (await waitingFacts.locator('dd').allTextContents()).reduce((a, n) => a + Number(n), 0))
      .toBe(unheld.length);
    expect(unheld.length).toBeGreaterThan(0);

    // The explorer: the id column holds the ids.
    await page.getByRole('tab', { name: 'Explorer' }).click();
    await page.getByRole('region', { name: 'Conditions' }).getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('table', { name: 'Results' });
    await results.getByRole('button', { name: 'Sort by ID' }).click();
    await expect(results).toHaveAttribute('aria-busy', 'false');
    await expect(results.locator('tbody tr td:first-child').first()).toHaveText(/^\d+$/);
    await expect(page.getByText(/could not be read/)).toHaveCount(0);
    await shot(page, 'digit-ids-explorer');
  } finally {
    await host.close();
    await sb.close();
  }
});

/** How the queue names each channel the stand-in uses. */
const channelWords: Record<string, string> = {
  chatApp: 'Chat app',
  email: 'E-mail',
  sms: 'SMS',
  messenger: 'Messenger',
  social: 'Social',
  voice: 'Voice',
};
