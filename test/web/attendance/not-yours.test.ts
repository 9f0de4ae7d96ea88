import { test, expect, type Page } from '@playwright/test';
import { nameOf } from '../../support/records';
import { freshProfile, launchHost } from '../../support/host';
import { openDemo, ownOpenSessions, selectSession, serviceApi, type Rec } from '../../support/web';

/**
 * On a colleague's session the reply is closed, and it looks closed: a greyed box that says why
 * instead of inviting a reply, and help whose Use and Insert buttons are closed too.
 */
test.use({ viewport: { width: 1280, height: 800 } });

const background = (page: Page, name: RegExp) => page.getByRole('textbox', { name }).evaluate((el) => getComputedStyle(el).backgroundColor);

test("on a colleague's session the reply box and help's Use and Insert buttons are closed and look it", async ({ page }) => {
  test.setTimeout(120_000);
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const [mine] = await ownOpenSessions(sb, 1);
    const theirs = (
      await serviceApi(sb.baseUrl, sb.tokens.admin).list('/user-session', [
        { key: 'status', operator: 'EQ', value: 'OPEN' },
        { key: 'agent', operator: 'NOT_NULL', logic: 'AND' },
        { key: 'lastAgent', operator: 'NEQ', value: sb.demoAgent.userName, logic: 'AND' },
        { key: 'onlyBot', operator: 'IS_FALSE', logic: 'AND' },
      ])
    ).find((s: Rec) => nameOf(s.user));
    expect(theirs, "a colleague's open session").toBeTruthy();

    // One's own session first: the reply box as it looks when open.
    await selectSession(page, mine!);
    const reply = /^Reply to /;
    await expect(page.getByRole('textbox', { name: reply })).toBeEnabled();
    await expect(page.getByRole('textbox', { name: reply })).toHaveAttribute('placeholder', /Type a reply/);
    const openLook = await background(page, reply);
    const help = page.getByRole('region', { name: 'Composer help' });
    await page.getByRole('tab', { name: 'Help' }).click();
    await help.getByRole('tab', { name: 'Canned replies' }).click();
    await expect(help.getByRole('button', { name: /^Insert: / }).first()).toBeEnabled();

    // The colleague's session, from Others.
    const name = nameOf(theirs!.user)!;
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(theirs!.protocol));
    await page.getByRole('tab', { name: /Others/ }).click();
    await page
      .getByRole('list', { name: 'Others' })
      .getByRole('button', { name: new RegExp(`^${name}`) })
      .click();
    const box = page.getByRole('textbox', { name: `Reply to ${name}` });
    await expect(box).toBeDisabled();
    await expect(box).toHaveAttribute('placeholder', 'This session is not yours: you can read it, not reply.');
    expect(await background(page, reply)).not.toBe(openLook);
    await expect(help.getByRole('note')).toHaveText(
      'Help goes into your reply: this session is not yours, so it can be read here but not used.',
    );
    const inserts = help.getByRole('button', { name: /^Insert: / });
    await expect(inserts.first()).toBeVisible();
    for (const b of await inserts.all()) await expect(b).toBeDisabled();
    await help.getByRole('tab', { name: 'Suggestions' }).click();
    for (const b of await help.getByRole('button', { name: /^Use: / }).all()) await expect(b).toBeDisabled();
    await help.getByRole('tab', { name: 'AI draft' }).click();
    await expect(help.getByRole('button', { name: 'Write a draft' })).toBeDisabled();
  } finally {
    await host.close();
  }
});
