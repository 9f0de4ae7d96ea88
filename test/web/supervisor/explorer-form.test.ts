import { test, expect, type Page } from '@playwright/test';
import { connectToService, serviceApi, shot, type Rec } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { startStandin, type Standin } from '../../../src-standin/index';

// São Paulo has had no summer time since 2019: a local 09:30 is 12:30 UTC all year.
test.use({ timezoneId: 'America/Sao_Paulo' });
const SAO_PAULO_MS = -3 * 3600_000;
/** What a datetime-local input shows for an instant here: minutes, and seconds when there are any. */
const localInput = (iso: string) => new Date(Date.parse(iso) + SAO_PAULO_MS).toISOString().slice(0, 19).replace(/:00$/, '');

type Api = ReturnType<typeof serviceApi>;

/**
 * A stand-in and a console signed in with one of its tokens, on the explorer showing `resource`;
 * `api` reads the stand-in with the same token.
 */
async function inExplorer(
  page: Page,
  o: { role: 'agent' | 'supervisor'; resource: string; reading?: 'variant' },
  body: (api: Api, sb: Standin) => Promise<void>,
) {
  const sb = await startStandin({ port: 0, reading: o.reading ?? 'default' });
  const host = await launchHost(freshProfile());
  try {
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens[o.role] });
    await page.getByRole('button', { name: 'Supervisor' }).click();
    await page.getByRole('tab', { name: 'Explorer' }).click();
    await page.getByRole('combobox', { name: 'Resource' }).selectOption({ label: o.resource });
    await body(serviceApi(sb.baseUrl, sb.tokens[o.role]), sb);
  } finally {
    await host.close();
    await sb.close();
  }
}

/** Picks the option of a picker whose words start with `#id ·`, once the picker has read its list. */
async function pick(page: Page, name: string, id: number) {
  const picker = page.getByRole('group', { name: 'Record to save' }).getByRole('combobox', { name, exact: true });
  const option = picker.locator('option', { hasText: new RegExp(`^#${id} · `) });
  await expect(option).toHaveCount(1);
  await picker.selectOption(await option.textContent());
}

test('a supervisor creates a call through the form alone, picking its session, people and group and typing its times; an edit changes the stored record, types kept', async ({
  page,
}) => {
  await inExplorer(page, { role: 'supervisor', resource: 'Calls' }, async (api, sb) => {
    const [session] = await api.list('/user-session', [], { sortColumn: 'id', direction: 'DESC', size: 1 });
    const customerId = (session!.user as Rec).id as number;

    const form = page.getByRole('group', { name: 'Record to save' });
    const record = page.getByRole('region', { name: 'Record', exact: true });
    await page.getByRole('button', { name: 'New record' }).click();
    await form.getByLabel('Call ID').fill('CALL-FORM-1');
    await pick(page, 'Session', session!.id as number);
    await pick(page, 'Agent', sb.demoAgent.id);
    await pick(page, 'User', customerId);
    await pick(page, 'Group', 2);
    await form.getByLabel('Kind').fill('OUTBOUND');
    await form.getByLabel('Started at').fill('2026-03-14T09:30');
    await form.getByLabel('IVR time').fill('12');
    await form.getByLabel('Liked').check();
    await shot(page, 'supervisor-explorer-form');
    await page.getByRole('button', { name: 'Save record' }).click();
    await expect(record.getByRole('status')).toHaveText(/^Saved Calls #\d+\.$/);

    const stored = async () => {
      const calls = await api.list('/call', [{ key: 'callId', operator: 'EQ', value: 'CALL-FORM-1' }]);
      expect(calls).toHaveLength(1);
      return calls[0]!;
    };
    const created = await stored();
    expect(created).toMatchObject({
      sessionId: session!.id,
      agentId: sb.demoAgent.id,
      userId: customerId,
      groupConfId: 2,
      kind: 'OUTBOUND',
      startedAt: '2026-03-14T12:30:00.000Z',
      ivrTime: 12,
      liked: true,
    });
    // Fields left alone are not sent at all.
    expect([created.finishedAt ?? null, created.comment ?? null, created.classified ?? null]).toEqual([null, null, null]);

    // Found again with a condition, opened and edited through the form.
    const query = page.getByRole('region', { name: 'Conditions' });
    await query.getByLabel('Field').fill('Call ID');
    await query.getByLabel('Value').fill('CALL-FORM-1');
    await query.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByRole('table', { name: 'Results' }).locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await rows.first().getByRole('button').click();
    await page.getByRole('button', { name: 'Edit this record' }).click();
    await expect(form.getByLabel('Started at')).toHaveValue('2026-03-14T09:30');
    await expect(form.getByLabel('IVR time')).toHaveValue('12');
    await form.getByLabel('Finished at').fill('2026-03-14T09:42:05');
    await form.getByLabel('IVR time').fill('30');
    await form.getByLabel('Liked').uncheck();
    await pick(page, 'Group', 3);
    await page.getByRole('button', { name: 'Save record' }).click();
    await expect(record.getByRole('status')).toHaveText(`Saved Calls #${String(created.id)}.`);

    const edited = await stored();
    expect(edited).toMatchObject({
      id: created.id,
      sessionId: session!.id,
      groupConfId: 3,
      startedAt: '2026-03-14T12:30:00.000Z',
      finishedAt: '2026-03-14T12:42:05.000Z',
      ivrTime: 30,
      liked: false,
    });
    expect([typeof edited.ivrTime, typeof edited.liked, typeof edited.sessionId]).toEqual(['number', 'boolean', 'number']);
  });
});

test("the Advanced (JSON) view carries the form's edits and brings its own back; a field the form does not know shows as it is", async ({
  page,
}) => {
  await inExplorer(page, { role: 'supervisor', resource: 'Session notes' }, async (api) => {
    const [session] = await api.list('/user-session', [], { sortColumn: 'id', direction: 'DESC', size: 1 });

    const form = page.getByRole('group', { name: 'Record to save' });
    const record = page.getByRole('region', { name: 'Record', exact: true });
    const advanced = page.getByRole('button', { name: 'Advanced (JSON)' });
    const json = page.getByLabel('Record to save (JSON)');
    await pick(page, 'Session', session!.id as number);
    await form.getByLabel('Comment').fill('Cliente pediu retorno amanhã');

    // Form to JSON: the edits, typed as the interface types them.
    await advanced.click();
    await expect(advanced).toHaveAttribute('aria-pressed', 'true');
    expect(JSON.parse(await json.inputValue())).toEqual({ sessionId: session!.id, comment: 'Cliente pediu retorno amanhã' });

    // JSON to form: changed text, a date and a field the form does not know.
    await json.fill(
      JSON.stringify({ sessionId: session!.id, comment: 'Retornar às 10h', createdAt: '2026-03-14T12:00:00Z', tenantId: 't-7' }),
    );
    await advanced.click();
    await expect(form.getByLabel('Comment')).toHaveValue('Retornar às 10h');
    await expect(form.getByLabel('Created at')).toHaveValue('2026-03-14T09:00');
    await expect(form.getByRole('combobox', { name: 'Session' })).toHaveValue(String(session!.id));
    const unknown = page.getByRole('group', { name: 'Fields the console does not know' });
    await expect(unknown.getByLabel('tenantId')).toHaveValue('t-7');

    // Not JSON: the view stays, saying why.
    await advanced.click();
    await json.fill('{"comment": ');
    await advanced.click();
    await expect(record.getByRole('alert')).toContainText('This is not valid JSON');
    await expect(json).toBeVisible();
    await json.fill(
      JSON.stringify({ sessionId: session!.id, comment: 'Retornar às 10h', createdAt: '2026-03-14T12:00:00Z', tenantId: 't-7' }),
    );
    await advanced.click();

    // The stand-in refuses fields it does not know: emptied in the form, the field leaves the record.
    await unknown.getByLabel('tenantId').fill('');
    await unknown.getByLabel('tenantId').press('Tab');
    await expect(unknown).toHaveCount(0);
    await page.getByRole('button', { name: 'Save record' }).click();
    await expect(record.getByRole('status')).toHaveText(/^Saved Session notes #\d+\.$/);
    const notes = await api.list('/session-comment', [{ key: 'comment', operator: 'EQ', value: 'Retornar às 10h' }]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ sessionId: session!.id, createdAt: '2026-03-14T12:00:00.000Z', createdBy: 'juliana.martins' });
  });
});

test('the condition builder filters sessions by a date typed in a date input and a group picked by name', async ({ page }) => {
  await inExplorer(page, { role: 'supervisor', resource: 'Sessions' }, async (api) => {
    const newest = await api.list('/user-session', [], { sortColumn: 'createdAt', direction: 'DESC', size: 40 });
    // A minute that about forty sessions came after.
    const since = new Date(Math.floor(Date.parse(newest.at(-1)!.createdAt as string) / 60_000) * 60_000).toISOString();
    const conditions = [
      { key: 'createdAt', operator: 'AFTER', value: since },
      { key: 'groupConf.id', operator: 'EQNUM', value: '2', logic: 'AND' },
    ];
    const expected = (await api.list('/user-session', conditions)).map((s) => String(s.id));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThanOrEqual(20);

    const query = page.getByRole('region', { name: 'Conditions' });
    await expect(page.locator('#sup-fields option[value="Created at"]')).toHaveCount(1);
    await query.getByLabel('Field').fill('Created at');
    await query.getByRole('combobox', { name: 'Operator' }).selectOption({ label: 'is after' });
    const date = query.getByLabel('Value');
    await expect(date).toHaveAttribute('type', 'datetime-local');
    await date.fill(localInput(since));
    await expect(date).toHaveValue(localInput(since));
    await query.getByRole('button', { name: 'Add condition' }).click();
    await query.getByLabel('Field').nth(1).fill('Group');
    // An id compares as a number; its Value is a picker of the groups by name.
    await expect(query.getByRole('combobox', { name: 'Operator' }).nth(1)).toHaveValue('EQNUM');
    await query.getByRole('combobox', { name: 'Value' }).selectOption({ label: '#2 · Financeiro' });
    await shot(page, 'supervisor-explorer-date-condition');
    await query.getByRole('button', { name: 'Search' }).click();

    const results = page.getByRole('table', { name: 'Results' });
    await results.getByRole('button', { name: 'Sort by ID' }).click();
    await expect(results).toHaveAttribute('aria-busy', 'false');
    await expect(results.locator('tbody tr td:first-child')).toHaveText(expected);
  });
});

test('a record in another reading of the interface opens in the form as it is: odd fields as JSON, unknown ones kept, and saves', async ({
  page,
}) => {
  await inExplorer(page, { role: 'supervisor', resource: 'Messages', reading: 'variant' }, async (api) => {
    const [first] = await api.list('/messages', [], { size: 1 });
    // This reading sends the author as a user object, the session as a bare id, ids as digits, dates with an offset, extras.
    expect(first).toMatchObject({
      fromUser: { id: expect.stringMatching(/^\d+$/) },
      session: expect.stringMatching(/^\d+$/),
      tenantId: expect.anything(),
    });
    await page.getByRole('region', { name: 'Conditions' }).getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('table', { name: 'Results' });
    await results.getByRole('button', { name: 'Sort by ID' }).click();
    await expect(results.locator('tbody tr td:first-child').first()).toHaveText(String(first!.id));
    await results.locator('tbody tr').first().getByRole('button').click();
    await page.getByRole('button', { name: 'Edit this record' }).click();

    const form = page.getByRole('group', { name: 'Record to save' });
    const fromUser = form.getByLabel('From the customer');
    await expect(fromUser).toHaveAttribute('type', 'text');
    // As the console reads it: the user's id a number.
    expect(JSON.parse(await fromUser.inputValue())).toEqual({ ...(first!.fromUser as Rec), id: Number((first!.fromUser as Rec).id) });
    await expect(form.getByRole('combobox', { name: 'Session' })).toHaveValue(String(first!.session));
    await expect(form.getByLabel('Created at')).toHaveValue(localInput(first!.createdAt as string));
    await expect(page.getByRole('group', { name: 'Fields the console does not know' }).getByLabel('tenantId')).toHaveValue(
      String(first!.tenantId),
    );

    await form.getByLabel('Message', { exact: true }).fill('Olá, corrigido pelo supervisor');
    await page.getByRole('button', { name: 'Save record' }).click();
    await expect(page.getByRole('region', { name: 'Record', exact: true }).getByRole('status')).toHaveText(
      `Saved Messages #${String(first!.id)}.`,
    );
    const [saved] = await api.list('/messages', [{ key: 'id', operator: 'EQNUM', value: String(first!.id) }]);
    expect(saved).toMatchObject({
      message: 'Olá, corrigido pelo supervisor',
      session: first!.session,
      fromUser: { id: (first!.fromUser as Rec).id },
      createdAt: first!.createdAt,
    });
  });
});
