import { test, expect, type Locator, type Page } from '@playwright/test';
import { idIn } from '../../support/records';
import { startStandin } from '../../../src-standin/index';
import { READINGS } from '../../../src-standin/reading';
import { freshProfile, launchHost } from '../../support/host';
import { connectToService, consoleReady, intersects, ownOpenSessions, serviceApi, shot, showsAtLeast, type Rec } from '../../support/web';

/**
 * Two attendants and a supervisor around one conversation: a colleague's line under their own
 * name (never "You"), a note in the timeline marked internal and never sent to the customer, a
 * transfer with a note confirmed on screen, the note at the service, and the next attendant
 * reading it first. Against both readings of the interface, the variant in Portuguese.
 */

const EN = {
  filter: 'Filter sessions',
  details: 'Session details',
  mine: 'Mine',
  you: 'You',
  notesTab: 'Notes',
  newNote: 'New note',
  addNote: 'Add note',
  noteBy: (who: string) => new RegExp(`^Internal note by ${who},`),
  internal: 'Internal note',
  transfer: 'Transfer',
  dialog: 'Transfer the session',
  toAgent: 'To an attendant',
  pickAgent: 'Choose an attendant',
  transferNote: 'Note for whoever takes it next (optional)',
  done: (name: string) => new RegExp(`Transferred to ${name}, with your note`),
  handover: (who: string) => new RegExp(`^Note from ${who}$`),
  log: /^Messages with/,
};
const PT: typeof EN = {
  filter: 'Filtrar sessões',
  details: 'Detalhes da sessão',
  mine: 'Minhas',
  you: 'Você',
  notesTab: 'Notas',
  newNote: 'Nova nota',
  addNote: 'Adicionar nota',
  noteBy: (who: string) => new RegExp(`^Nota interna de ${who},`),
  internal: 'Nota interna',
  transfer: 'Transferir',
  dialog: 'Transferir a sessão',
  toAgent: 'Para um atendente',
  pickAgent: 'Escolha um atendente',
  transferNote: 'Nota para quem assumir (opcional)',
  done: (name: string) => new RegExp(`Transferida para ${name}, com a sua nota`),
  handover: (who: string) => new RegExp(`^Nota de ${who}$`),
  log: /^Mensagens com/,
};

/** Opens one of the attendant's sessions from Mine, by its protocol, as a user would. */
async function openMine(page: Page, w: typeof EN, protocol: string): Promise<Locator> {
  await page.getByRole('searchbox', { name: w.filter }).fill(protocol);
  await page.getByRole('tab', { name: new RegExp(w.mine) }).click();
  await page.getByRole('list', { name: w.mine }).getByRole('button').first().click();
  const log = page.getByRole('log', { name: w.log });
  await expect(log.getByRole('article').first()).toBeVisible();
  return log;
}

/** The shown name of each staff line and note in the thread (the customer's lines left out). */
const staffLabels = (log: Locator) => log.locator('article.msg.mine .msg-who, .timeline-note .msg-who').allInnerTexts();

for (const reading of READINGS) {
  const pt = reading === 'variant';
  const w = pt ? PT : EN;
  const locale = pt ? 'pt-BR' : 'en-US';

  test(`a colleague's line, a note in the timeline and a transfer with a note read first by the next attendant (${reading} reading)`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const sb = await startStandin({ port: 0, sessions: 60, reading });
    const hosts = [await launchHost(freshProfile(), locale), await launchHost(freshProfile(), locale)];
    const second = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    try {
      const admin = serviceApi(sb.baseUrl, sb.tokens.admin);
      const users = await admin.list('/users');
      // A person's name as the service gives it: the display name, or the full name where a list gives only that.
      const shownName = (u: Rec) =>
        `(?:${[u.displayName, u.name]
          .filter(Boolean)
          .map((n) => String(n).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('|')})`;
      const nameIs = (u: Rec) => new RegExp(`^${shownName(u)}$`);
      const ana = users.find((u) => u.userName === sb.demoAgent.userName)!;
      const juliana = users.find((u) => u.userName === sb.demoSupervisor.userName)!;
      const fellow = users.find((u) => u.typeUser === 'AGENT' && u.userName !== ana.userName && u.active !== false)!;
      expect(String(fellow.accessKey)).not.toMatch(/^\*+$/);
      const [session] = await ownOpenSessions(sb, 1);
      const sessionId = idIn(session!.id)!;
      const protocol = String(session!.protocol);
      const inSession = [{ key: 'session.id', operator: 'EQNUM', value: String(sessionId) }];

      // The supervisor writes to the customer in Ana's conversation.
      const fromJuliana = `Aqui é a supervisora: o estorno foi autorizado (${reading}).`;
      await serviceApi(sb.baseUrl, sb.tokens.supervisor).post('/chatapi/1.0/api/v2/messages/save', {
        session: { id: sessionId },
        message: fromJuliana,
        fromUser: false,
      });

      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto(hosts[0]!.url);
      await connectToService(page, { baseUrl: sb.baseUrl, token: sb.tokens.agent, locale });
      await consoleReady(page);
      const log = await openMine(page, w, protocol);

      // Juliana's line under her name; Ana's own lines under "You", never her name or login.
      const julianaLine = log.getByRole('article').filter({ hasText: fromJuliana });
      await expect(julianaLine.locator('.msg-who')).toHaveText(nameIs(juliana));
      await expect.poll(() => staffLabels(log)).toContain(w.you);
      const labels = await staffLabels(log);
      for (const other of [String(ana.displayName), String(ana.name), String(ana.userName), String(juliana.userName)])
        expect(labels, labels.join(', ')).not.toContain(other);

      // A note: in the timeline, marked internal, saved at the service, never sent as a message.
      const noteText = `Cliente prefere contato por e-mail (${reading}).`;
      const side = page.getByRole('complementary', { name: w.details });
      await side.getByRole('tab', { name: new RegExp(`^${w.notesTab}`) }).click();
      await side.getByRole('textbox', { name: w.newNote }).fill(noteText);
      await side.getByRole('button', { name: w.addNote, exact: true }).click();
      const inTimeline = log.getByRole('note', { name: w.noteBy(w.you) }).filter({ hasText: noteText });
      await expect(inTimeline).toBeVisible();
      await expect(inTimeline).toContainText(w.internal);
      const comments = () =>
        admin
          .list('/session-comment', [{ key: 'sessionId', operator: 'EQNUM', value: String(sessionId) }])
          .then((r) => r.map((c) => String(c.comment)));
      await expect.poll(comments).toContainEqual(expect.stringContaining(noteText));
      await shot(page, `collab-note-timeline-1280x720-${reading}`);

      // The transfer, with a note for the next attendant.
      const handoverText = `Estorno em andamento; confirmar com o financeiro antes de responder (${reading}).`;
      await page.getByRole('button', { name: w.transfer, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: w.dialog });
      await dialog.getByRole('radio', { name: w.toAgent }).check();
      const pick = dialog.getByRole('combobox', { name: w.pickAgent });
      const option = pick.getByRole('option', { name: new RegExp(`^${shownName(fellow)}( ·|$)`) });
      await pick.selectOption({ label: (await option.textContent())!.trim() });
      await dialog.getByRole('textbox', { name: w.transferNote }).fill(handoverText);
      await dialog.getByRole('button', { name: w.transfer, exact: true }).click();
      await expect(dialog).toBeHidden();
      // The console says what happened, in a notice off the queue's rows.
      const done = page.getByRole('status').filter({ hasText: w.done(shownName(fellow)) });
      await expect(done).toBeVisible();
      const [doneBox, queueBox] = await Promise.all([done.boundingBox(), page.locator('aside.queue').boundingBox()]);
      expect(intersects(doneBox!, queueBox!), 'the notice covers the queue').toBe(false);
      // Readable, and nothing of the bar pushed out of the window.
      expect(await showsAtLeast(done.locator('.toast-body'), 20)).toBe(true);
      expect(
        await page
          .locator('.desk-bar')
          .evaluate((b) => b.scrollWidth <= b.clientWidth + 1 && b.getBoundingClientRect().right <= window.innerWidth + 0.5),
      ).toBe(true);
      await shot(page, `collab-transferred-1280x720-${reading}`);

      // At the service: the session is the fellow's, the note is the session's, nothing reached the customer.
      await expect
        .poll(async () => (await admin.list('/user-session', [{ key: 'id', operator: 'EQNUM', value: String(sessionId) }]))[0]?.lastAgent)
        .toBe(fellow.userName);
      await expect.poll(comments).toContainEqual(expect.stringContaining(handoverText));
      expect(
        (await comments()).filter((c) => c.includes(handoverText)),
        'the note is saved once',
      ).toHaveLength(1);
      const messages = (await admin.list('/messages', inSession)).map((m) => String(m.message));
      expect(
        messages.filter((m) => m.includes(noteText) || m.includes(handoverText)),
        'a note sent as a message',
      ).toEqual([]);

      // The next attendant signs in elsewhere: the transfer's note first, above the conversation.
      await second.goto(hosts[1]!.url);
      await connectToService(second, { baseUrl: sb.baseUrl, token: String(fellow.accessKey), locale });
      await consoleReady(second);
      const theirLog = await openMine(second, w, protocol);
      const handover = second.getByRole('note', { name: w.handover(shownName(ana)) });
      await expect(handover).toContainText(handoverText);
      expect((await handover.boundingBox())!.y).toBeLessThan((await theirLog.boundingBox())!.y);
      // Both notes in their timeline, by Ana; Ana's lines under her name there, "You" for no one.
      for (const text of [noteText, handoverText])
        await expect(theirLog.getByRole('note', { name: w.noteBy(shownName(ana)) }).filter({ hasText: text })).toBeVisible();
      await expect(theirLog.getByRole('article').filter({ hasText: fromJuliana }).locator('.msg-who')).toHaveText(nameIs(juliana));
      const theirLabels = await staffLabels(theirLog);
      expect(theirLabels, theirLabels.join(', ')).not.toContain(w.you);
      expect(
        theirLabels.some((l) => nameIs(ana).test(l)),
        theirLabels.join(', '),
      ).toBe(true);
      for (const viewport of [
        { width: 1280, height: 720 },
        { width: 1440, height: 900 },
      ]) {
        await second.setViewportSize(viewport);
        for (const colorScheme of ['light', 'dark'] as const) {
          await second.emulateMedia({ colorScheme });
          await expect(second.locator('html')).toHaveAttribute('data-theme', colorScheme);
          await shot(second, `collab-handover-${viewport.width}x${viewport.height}-${colorScheme}-${reading}`);
        }
      }
    } finally {
      await second.close();
      for (const h of hosts) await h.close();
      await sb.close();
    }
  });
}
