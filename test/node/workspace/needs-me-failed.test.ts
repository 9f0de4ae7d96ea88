import { expect, test } from '@playwright/test';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import type { ErrorInfo } from '../../../src-shared/errors';
import { needsMeOf } from '../../../src-main/workspaces/needs-me';
import type { WorkspaceRuntime } from '../../../src-main/workspaces/runtime';

/** What needsMeOf reads of a workspace; the rest of a runtime plays no part in it. */
type Seen = Pick<WorkspaceRuntime, 'id' | 'signedIn' | 'user' | 'baseUrl' | 'queueLoaded' | 'queueError'> & { items: QueueItem[] };
const runtime = (r: Seen): WorkspaceRuntime => ({ ...r, queueItems: () => r.items, mentions: () => [] }) as unknown as WorkspaceRuntime;

const waiting: QueueItem = {
  id: 11,
  status: 'OPEN',
  pending: false,
  agentUserName: null,
  agentName: null,
  customerName: 'Camila',
  groupId: 1,
  groupName: 'Suporte',
  channel: 'chatApp',
  createdAt: '2026-11-23T10:00:00.000Z',
  slaSeconds: 600,
  protocol: '20261123000011',
  ticketId: null,
  withBot: false,
};
const busy: ErrorInfo = { kind: 'Unavailable', status: 503, message: 'The service is unavailable (503) to list sessions.' };
const user = { userName: 'ana', name: 'Ana' };

test('Needs me names each signed-in workspace whose sessions could not be read, with why; one read since, or signed out, is not named', () => {
  const got = needsMeOf([
    runtime({ id: 'read', signedIn: true, user, baseUrl: 'http://a.test', queueLoaded: true, queueError: null, items: [waiting] }),
    runtime({ id: 'failed', signedIn: true, user, baseUrl: 'http://b.test', queueLoaded: false, queueError: busy, items: [] }),
    // Read after an earlier failure: what it lists is the service's answer.
    runtime({ id: 'readSince', signedIn: true, user, baseUrl: 'http://c.test', queueLoaded: true, queueError: busy, items: [] }),
    runtime({ id: 'signedOut', signedIn: false, user: null, baseUrl: 'http://d.test', queueLoaded: false, queueError: busy, items: [] }),
    // Not tried yet: nothing to say of it.
    runtime({ id: 'notYet', signedIn: true, user, baseUrl: 'http://e.test', queueLoaded: false, queueError: null, items: [] }),
  ]);
  expect(got.failed).toEqual([{ workspaceId: 'failed', error: busy }]);
  expect(got.rows.map((r) => [r.workspaceId, r.item.id, r.reason])).toEqual([['read', 11, 'waiting']]);
  expect(got.counts['failed']).toEqual({ unread: 0, needsMe: 0 });
});
