import { test, expect, type Page } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady, ownOpenSessions, selectSession, serviceApi, type Rec } from '../../support/web';

/**
 * On a profile where an attendant was signed in, another token for the same service (the
 * supervisor's, no user name given, and a service that cannot say whose token it is) shows
 * nothing of the attendant: not her name, not her sessions under Mine, not her draft. The console
 * asks who this is, offering every user of the service, the supervisor included. The attendant's
 * own workspace still has her draft.
 */

test.use({ viewport: { width: 1366, height: 768 } });

const DRAFT = 'Rascunho da Ana: confiro o pedido e já retorno.';
const RULES = '/chatapi/1.0/api/v2/users/rules';

/** Whether any text field of the page holds `text` (drafts are shown as a field's value). */
const anyFieldHolds = (page: Page, text: string) =>
  page.evaluate((t) => [...document.querySelectorAll('textarea, input')].some((e) => (e as HTMLInputElement).value.includes(t)), text);

/** How the console names a user, from the service's record: its display name, else its name. */
async function shownName(sb: Standin, userName: string): Promise<string> {
  const [u] = await serviceApi(sb.baseUrl, sb.tokens.admin).list('/users', [{ key: 'userName', operator: 'EQ', value: userName }]);
  return String(u!.displayName ?? u!.name);
}

const customerName = (s: Rec) => String((s.user as Rec).displayName ?? (s.user as Rec).name);

test("a supervisor's token on the same service, whose owner the service cannot tell, shows nothing of the attendant signed in before and offers the supervisor to pick", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const sb = await startStandin({ port: 0, sessions: 30, seed: 13 });
  const host = await launchHost(freshProfile());
  try {
    const ana = await shownName(sb, sb.demoAgent.userName);
    const juliana = await shownName(sb, sb.demoSupervisor.userName);
    // Ana, the attendant, signs in and leaves a reply typed and not sent.
    await page.goto(host.url);
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
    await consoleReady(page);
    await expect(page.getByLabel('Signed in as')).toHaveText(ana);
    const [hers, another] = await ownOpenSessions(sb, 2);
    await selectSession(page, hers!);
    const box = page.getByRole('textbox', { name: /Reply to/ });
    await box.fill(DRAFT);
    await selectSession(page, another!);
    await expect(page.getByRole('status').filter({ hasText: `Your reply to ${customerName(hers!)} was not sent` })).toBeVisible();

    // The supervisor's token for the same service; the service cannot say whose it is.
    await sb.faults.set([{ match: { path: RULES }, kind: 'status', status: 503 }]);
    await page.getByRole('button', { name: 'Add a workspace' }).click();
    await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.supervisor });
    const picker = page.getByRole('region', { name: 'Who are you on this service?' });
    await expect(picker).toBeVisible({ timeout: 30_000 });
    await expect(page.getByLabel('Signed in as')).toHaveCount(0);

    // Everyone who may sign in is offered: the supervisor and the administrator too.
    const people = picker.getByRole('list', { name: 'People on this service' });
    await expect(people.getByRole('button', { name: `${juliana} (${sb.demoSupervisor.userName})` })).toBeVisible();
    await expect(people.getByRole('button', { name: /\(admin\)$/ })).toBeVisible();
    await expect(people.getByRole('button', { name: `${ana} (${sb.demoAgent.userName})` })).toBeVisible();

    // Ana's session is someone else's here: under Others, not Mine, and without her draft.
    const showsNothingOfAna = async () => {
      await page.getByRole('searchbox', { name: 'Filter sessions' }).fill(String(hers!.protocol));
      await page.getByRole('tab', { name: /Others/ }).click();
      const row = page
        .getByRole('list', { name: 'Others' })
        .getByRole('button', { name: new RegExp(`^${customerName(hers!)}`) })
        .first();
      await expect(row).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole('tab', { name: /Mine/ })).toHaveAccessibleName(/Mine\s*0$/);
      await row.click();
      await expect(page.getByRole('log', { name: /^Messages with/ })).toBeVisible();
      expect(await anyFieldHolds(page, DRAFT)).toBe(false);
      await expect(page.getByText(DRAFT)).toHaveCount(0);
    };
    await showsNothingOfAna();

    // She says she is the supervisor: her name in the header, and still nothing of Ana.
    await people.getByRole('button', { name: `${juliana} (${sb.demoSupervisor.userName})` }).click();
    await expect(page.getByLabel('Signed in as')).toHaveText(juliana);
    await expect(picker).toHaveCount(0);
    await showsNothingOfAna();

    // Ana's own workspace still has her draft.
    await page
      .getByRole('group', { name: 'Workspaces' })
      .getByRole('button', { name: `${new URL(sb.baseUrl).host} · ${sb.demoAgent.userName}` })
      .click();
    await expect(page.getByLabel('Signed in as')).toHaveText(ana);
    await selectSession(page, hers!);
    await expect(box).toHaveValue(DRAFT);
  } finally {
    await host.close();
    await sb.close();
  }
});
