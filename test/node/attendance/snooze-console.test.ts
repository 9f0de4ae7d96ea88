import { expect, test } from '@playwright/test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openConsole, openDemoSession } from '../../support/console';

/**
 * Snooze through the console's own bridge and its stand-in: only the attendant's sessions, never
 * a time past; kept in the account's folder; a session that leaves the attendant drops it; Needs
 * me leaves a snoozed session out.
 */

test('snooze through the bridge: refusals that change nothing, the file in the account folder, Needs me, a transfer drops it', async () => {
  const c = await openConsole();
  try {
    const { call, fail } = await openDemoSession(c.app);
    const snap = await call('attendance:queue', {});
    // One of the attendant's sessions Needs me lists (one waiting for its customer is not listed).
    const needsBefore = await call('workspace:needsMe', {});
    const sessionId = needsBefore.rows.find((r) => r.item.agentUserName === snap.me)!.item.id;
    const waiting = snap.items.find((i) => i.agentUserName === null && !i.withBot && i.status !== 'CLOSED')!;

    // A time past, and a session that is not the attendant's: refused with the reason.
    const past = await fail('attendance:snooze', { sessionId, until: new Date(Date.now() - 60_000).toISOString() });
    expect([past.kind, past.message]).toEqual(['Invalid', 'That time has already passed: choose a time later than now.']);
    const notMine = await fail('attendance:snooze', { sessionId: waiting.id, until: null });
    expect(notMine.message).toBe('Only a session of yours can be snoozed.');
    expect((await call('attendance:queue', {})).items.filter((i) => i.snoozed)).toEqual([]);

    const until = new Date(Date.now() + 3600_000).toISOString();
    const item = await call('attendance:snooze', { sessionId, until });
    expect([item.snoozed, item.snoozedUntil]).toEqual([true, until]);
    // Not counted in Needs me (recounted after a short settle).
    await expect.poll(async () => (await call('workspace:needsMe', {})).rows.map((r) => r.item.id)).not.toContain(sessionId);

    // Kept in the signed-in account's folder of the workspace, nowhere else.
    const state = await call('workspace:state', {});
    const wsDir = c.app.workspaceDir(state.active!);
    const snoozeFiles = () =>
      readdirSync(join(wsDir, 'accounts'))
        .map((a) => join(wsDir, 'accounts', a, 'snoozed.json'))
        .filter((f) => existsSync(f));
    await expect.poll(() => snoozeFiles().length).toBe(1);
    const files = snoozeFiles();
    await expect
      .poll(() => Object.keys((JSON.parse(readFileSync(files[0]!, 'utf8')) as { snoozed: Record<string, unknown> }).snoozed))
      .toEqual([String(sessionId)]);

    // Transferred to a group, the session is no longer the attendant's: its snooze ends.
    const groups = (await call('attendance:directory', {})).groups;
    const target = groups.find((g) => g.id !== item.groupId) ?? groups[0]!;
    const moved = await call('attendance:transfer', { sessionId, groupId: target.id });
    expect(moved.snoozed).toBeUndefined();
    await expect
      .poll(() => Object.keys((JSON.parse(readFileSync(files[0]!, 'utf8')) as { snoozed: Record<string, unknown> }).snoozed))
      .toEqual([]);
  } finally {
    await c.app.close();
  }
});
