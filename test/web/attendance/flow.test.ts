import { test, expect } from '@playwright/test';
import { openDemo, serviceApi, type Rec, shot } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';

/** A v2 call straight to the stand-in, to set a scene or check what the console did. */
const api = (baseUrl: string, token: string, path: string, body: unknown) =>
  serviceApi(baseUrl, token).post(`/chatapi/1.0/api/v2${path}`, body);

const messagesOf = async (baseUrl: string, token: string, sessionId: number) =>
  (
    await api(baseUrl, token, '/messages', {
      conditions: [{ key: 'session.id', operator: 'EQNUM', value: String(sessionId) }],
      sort: true,
      sortColumn: 'createdAt',
      direction: 'ASC',
      page: 0,
      size: 500,
    })
  ).results as Rec[];

test.use({ viewport: { width: 1366, height: 768 } });

test('an attendant accepts a waiting session, replies with help from the composer, sees the customer answer live, classifies and closes', async ({
  page,
}) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    await expect(page.getByRole('status', { name: 'Live' })).toBeVisible();

    // A customer arrives (the simulator opens a session); the queue shows it without a reload.
    await sb.simulator.step();
    const newest = (
      (
        await api(sb.baseUrl, sb.tokens.agent, '/user-session', {
          conditions: [
            { key: 'status', operator: 'EQ', value: 'OPEN' },
            { key: 'agent', operator: 'IS_NULL', logic: 'AND' },
          ],
          sort: true,
          sortColumn: 'id',
          direction: 'DESC',
          page: 0,
          size: 1,
        })
      ).results as Rec[]
    )[0]!;
    const sessionId = newest.id as number;
    const customer = String((newest.user as Rec).displayName ?? (newest.user as Rec).name);
    const opening = (await messagesOf(sb.baseUrl, sb.tokens.agent, sessionId))[0]!.message as string;

    const waitingList = page.getByRole('list', { name: 'Waiting' });
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(newest.protocol));
    await expect(waitingList.getByRole('button', { name: new RegExp(`^${customer}`) })).toHaveCount(1);
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
    await shot(page, 'attendance-queue');
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(newest.protocol));
    await waitingList.getByRole('button', { name: `Accept session of ${customer}` }).click();

    // It is now the attendant's: the thread shows the customer's opening message.
    await expect(page.getByRole('tab', { name: /Mine/ })).toHaveAttribute('aria-selected', 'true');
    const log = page.getByRole('log', { name: /Messages with/ });
    await expect(log).toContainText(opening.slice(0, 30));

    // A canned reply expanded from /code.
    const box = page.getByRole('textbox', { name: /Reply to/ });
    await box.click();
    await box.pressSequentially('/sauda');
    await expect(page.getByRole('listbox', { name: 'Canned replies' })).toBeVisible();
    await shot(page, 'attendance-composer-canned');
    await box.press('Tab');
    await expect(box).toHaveValue(/Meu nome é Ana/);
    await box.press('Enter');
    await expect(log.getByText('Sent')).toBeVisible();
    await expect
      .poll(async () =>
        (await messagesOf(sb.baseUrl, sb.tokens.agent, sessionId)).some(
          (m) => m.fromUser === false && String(m.message).includes('Meu nome é Ana'),
        ),
      )
      .toBe(true);

    // A reply suggestion.
    const help = page.getByRole('region', { name: 'Composer help' });
    await help.getByRole('tab', { name: 'Suggestions' }).click();
    const use = help.getByRole('button', { name: /^Use: / }).first();
    const suggestion = (await use.getAttribute('aria-label'))!.replace(/^Use: /, '');
    await use.click();
    await expect(box).toHaveValue(suggestion);
    await shot(page, 'attendance-composer-help');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect
      .poll(async () => (await messagesOf(sb.baseUrl, sb.tokens.agent, sessionId)).some((m) => m.message === suggestion))
      .toBe(true);

    // A knowledge-base answer inserted into the reply.
    await help.getByRole('tab', { name: 'Knowledge base' }).click();
    await help.getByRole('searchbox', { name: 'Ask the knowledge base' }).fill('qual o prazo de entrega?');
    await help.getByRole('button', { name: 'Search' }).click();
    const insert = help.getByRole('button', { name: /^Insert: / }).first();
    await expect(insert).toBeVisible();
    await insert.click();
    await expect(box).not.toHaveValue('');
    const kbText = await box.inputValue();
    // The answer only: the FAQ's "P: question R:" labels never reach the customer.
    expect(kbText).toContain('prazo de entrega');
    expect(kbText).not.toMatch(/(^|\s)[PR]:/);
    await box.press('Enter');
    await expect
      .poll(async () => (await messagesOf(sb.baseUrl, sb.tokens.agent, sessionId)).some((m) => m.message === kbText.trim()))
      .toBe(true);

    // The customer answers (the simulator replies to sessions waiting for the customer): it
    // appears in the thread without a reload.
    const before = (await messagesOf(sb.baseUrl, sb.tokens.agent, sessionId)).length;
    let answer: string | null = null;
    for (let i = 0; i < 40 && !answer; i++) {
      await sb.simulator.step();
      const all = await messagesOf(sb.baseUrl, sb.tokens.agent, sessionId);
      const fresh = all.slice(before).find((m) => m.fromUser === true);
      if (fresh) answer = String(fresh.message);
    }
    expect(answer).not.toBeNull();
    await expect(log).toContainText(answer!.slice(0, 30));
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('');
    await shot(page, 'attendance-thread');

    // Classify (searchable, keyboard) and close, with the AI summary kept as a note.
    await page.getByRole('button', { name: 'Classify and close' }).click();
    const dialog = page.getByRole('dialog', { name: 'Classify and close' });
    const search = dialog.getByRole('searchbox', { name: 'Search the classification' });
    await expect(dialog.getByRole('tree', { name: 'Classification' })).toBeVisible();
    await shot(page, 'attendance-classification');
    const firstLeaf = dialog
      .getByRole('treeitem')
      .filter({ hasNot: page.locator('xx') })
      .nth(2);
    const leafLabel = (await firstLeaf.innerText()).replace(/^•\s*/, '').trim();
    await search.fill(leafLabel.slice(0, 6));
    await search.press('ArrowDown');
    await search.press('ArrowUp');
    await search.press('Enter');
    await expect(dialog.getByRole('status')).toContainText('Chosen:');
    await dialog.getByRole('button', { name: 'Write an AI summary' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Attendance summary' })).not.toHaveValue('');
    // Not a note unless the attendant says so.
    const keep = dialog.getByRole('checkbox', { name: 'Add the summary as a note' });
    await expect(keep).not.toBeChecked();
    await keep.check();
    await shot(page, 'attendance-classification-chosen');
    await dialog.getByRole('button', { name: 'Close the session' }).click();
    await expect(dialog).toBeHidden();

    await expect
      .poll(
        async () =>
          (
            (
              await api(sb.baseUrl, sb.tokens.agent, '/user-session', {
                conditions: [{ key: 'id', operator: 'EQNUM', value: String(sessionId) }],
                sort: false,
                page: 0,
                size: 1,
              })
            ).results as Rec[]
          )[0]!.status,
      )
      .toBe('CLOSED');
    const services = (
      await api(sb.baseUrl, sb.tokens.agent, '/classification-service', {
        conditions: [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }],
        sort: false,
        page: 0,
        size: 10,
      })
    ).results as Rec[];
    expect(services).toHaveLength(1);
    // Written as its field names read: the node chosen, and the readable path ending in it.
    const path = String(services[0]!.displayName).split(' > ');
    expect(path.length).toBeGreaterThan(1);
    expect((services[0]!.classificationTreeSession as Rec).value).toBe(path[path.length - 1]);
    await expect
      .poll(
        async () =>
          (
            (
              await api(sb.baseUrl, sb.tokens.agent, '/session-comment', {
                conditions: [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }],
                sort: false,
                page: 0,
                size: 10,
              })
            ).results as Rec[]
          ).length,
      )
      .toBe(1);
    await expect(page.getByRole('list', { name: 'Mine' }).getByRole('button', { name: new RegExp(`^${customer}`) })).toHaveCount(0);
  } finally {
    await host.close();
  }
});
