import { test, expect } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openConsole } from '../../support/console';
import { splitRef } from '../../../src-shared/note-ref';
import { customerSays } from '../../support/customer';

test('accept, reply, live customer messages and a gap-free resync after live updates were off', async () => {
  test.setTimeout(90_000);
  // The safety-net poll also brings news while live updates are off; here it waits past the test,
  // so what brings the missed messages is the resync on resume.
  const quietPoll = { pollingMs: 600_000, pollingIdleMaxMs: 600_000, liveMs: 600_000, liveIdleMaxMs: 600_000, errorMaxMs: 600_000 };
  const { app, call, events } = await openConsole(undefined, { pollPace: quietPoll });
  try {
    await call('workspace:openDemo', {});
    const sb = app.standin!;
    await sb.simulator.stop();
    await expect.poll(async () => (await call('live:status', {})).state).toBe('running');
    expect((await call('live:status', {})).registered).toBe(true);

    const snap = await call('attendance:queue', {});
    const waiting = snap.items.find((i) => i.status === 'OPEN' && !i.agentUserName && !i.pending)!;
    expect(waiting).toBeTruthy();
    const accepted = await call('attendance:accept', { sessionId: waiting.id });
    expect(accepted.agentUserName).toBe(sb.demoAgent.userName);
    // The queue delta tells the renderer the session is now the attendant's.
    await expect
      .poll(() =>
        events('attendance:queueDelta').some((d) => d.upsert.some((u) => u.id === waiting.id && u.agentUserName === sb.demoAgent.userName)),
      )
      .toBe(true);

    const opened = await call('attendance:openThread', { sessionId: waiting.id });
    expect(opened.page.messages.length).toBeGreaterThan(0);
    const reply = await call('attendance:send', { sessionId: waiting.id, text: 'Olá! Vou verificar agora mesmo.', clientId: 'c-1' });
    // Retrying the same send (same client id) does not send twice.
    const again = await call('attendance:send', { sessionId: waiting.id, text: 'Olá! Vou verificar agora mesmo.', clientId: 'c-1' });
    expect(again.id).toBe(reply.id);

    // A customer message arrives through the webhook listener and is pushed without a reload.
    const live = await customerSays(sb.baseUrl, sb.tokens.admin, waiting.id, 'Obrigado, fico no aguardo.');
    await expect
      .poll(() => events('attendance:messages').some((e) => e.sessionId === waiting.id && e.messages.some((m) => m.id === live)))
      .toBe(true);

    // Live updates off for a while: the customer keeps writing, nothing is pushed...
    const off = await call('live:setRunning', { running: false });
    expect(off.state).toBe('stopped');
    // Reads that events from before the pause asked for finish first: nothing pushed for a second.
    let pushed = -1;
    await expect
      .poll(
        () => {
          const now = events('attendance:messages').length + events('attendance:queueDelta').length;
          const settled = now === pushed;
          pushed = now;
          return settled;
        },
        { intervals: [1_000], timeout: 15_000 },
      )
      .toBe(true);
    const missed: number[] = [];
    for (let i = 0; i < 3; i++)
      missed.push(await customerSays(sb.baseUrl, sb.tokens.admin, waiting.id, `Mensagem ${i + 1} enquanto a escuta estava parada.`));
    const before = events('attendance:messages').flatMap((e) => e.messages.map((m) => m.id));
    expect(before.filter((id) => missed.includes(id))).toEqual([]);
    // ...and on resume every message sent meanwhile is read from the session's high-water mark.
    const on = await call('live:setRunning', { running: true });
    expect(on.state).toBe('running');
    await expect
      .poll(() => {
        const ids = new Set(events('attendance:messages').flatMap((e) => e.messages.map((m) => m.id)));
        return missed.every((id) => ids.has(id));
      })
      .toBe(true);
    expect((await call('live:status', {})).lastResyncAt).not.toBeNull();
  } finally {
    await app.close();
  }
});

test('notes go through the outbox and drafts survive a restart of the main process', async () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'console-notes-'));
  const first = await openConsole(profileDir);
  let sessionId = 0;
  try {
    await first.call('workspace:openDemo', {});
    await first.app.standin!.simulator.stop();
    const snap = await first.call('attendance:queue', {});
    sessionId = snap.items.find((i) => i.agentUserName === first.app.standin!.demoAgent.userName)!.id;
    const note = await first.call('notes:add', { sessionId, text: 'Cliente pediu retorno amanhã.' });
    expect(['pending', 'sending', 'confirmed']).toContain(note.state);
    await expect
      .poll(async () =>
        (await first.call('notes:list', { sessionId })).service.some(
          (n) => splitRef(n.text).text === 'Cliente pediu retorno amanhã.' && n.ref !== null,
        ),
      )
      .toBe(true);
    await first.call('notes:setDraft', { sessionId, kind: 'reply', text: 'Rascunho que não pode se perder' });
  } finally {
    await first.app.close();
  }
  const second = await openConsole(profileDir);
  try {
    expect((await second.call('notes:draft', { sessionId })).reply).toBe('Rascunho que não pode se perder');
  } finally {
    await second.app.close();
  }
});
