import { expect, test } from '@playwright/test';
import type { AppState } from '../../../src-shared/bridge';
import { importRunes, installFakeBridge } from '../../support/runes';

type App = typeof import('../../../src-renderer/src/features/workspace/app.svelte');

const state = (signedIn: boolean, locale = 'en-US'): AppState => ({
  workspaces: [],
  active: signedIn ? 'demo' : null,
  workspace: signedIn ? { kind: 'demo' } : null,
  baseUrl: signedIn ? 'http://127.0.0.1:1' : null,
  signedIn,
  tokenRefused: false,
  vault: { state: 'encrypted', detail: '' },
  user: signedIn ? { userName: 'ana', name: 'Ana' } : null,
  locale,
});

test("opening the demo signs in; signing out runs every store's reset once; a refusal shows the service's words", async () => {
  let current = state(false);
  const bridge = await installFakeBridge({
    'workspace:state': () => current,
    'workspace:openDemo': () => (current = state(true)),
    'workspace:signOut': () => (current = state(false)),
    'workspace:connect': () => {
      throw new Error('The service refused this token.');
    },
  });
  const { AppStore } = await importRunes<App>('src-renderer/src/features/workspace/app.svelte.ts');
  const app = new AppStore();
  let resets = 0;
  app.onSignedOut(() => resets++);
  await app.load();
  expect(app.signedIn).toBe(false);

  expect(await app.openDemo()).toBe(true);
  expect([app.signedIn, app.state?.user?.name, app.busy]).toEqual([true, 'Ana', false]);
  expect(resets).toBe(0);

  expect(await app.signOut()).toBe(true);
  expect([app.signedIn, resets]).toEqual([false, 1]);

  expect(await app.connect({ baseUrl: 'https://service.example', token: 't', allowWeakStorage: false })).toBe(false);
  expect(app.error).toContain('refused this token');
  expect(app.signedIn).toBe(false);

  // The main process says the workspace changed (another window signed in, then out).
  bridge.emit('workspace:state', state(true));
  bridge.emit('workspace:state', state(false));
  expect(resets).toBe(2);
});

test('bringing another workspace to the front: what the leaving views send goes to their workspace, the next views call the next one, and the one left is no longer heard', async () => {
  const ws = (id: string) => ({
    id,
    workspace: { kind: 'remote' as const, baseUrl: `https://${id}.example` },
    label: `${id}.example`,
    color: 0,
    baseUrl: `https://${id}.example`,
    signedIn: true,
    tokenRefused: false,
    user: { userName: 'ana', name: 'Ana' },
  });
  const front = (active: string): AppState => ({
    workspaces: [ws('a'), ws('b')],
    active,
    workspace: { kind: 'remote', baseUrl: `https://${active}.example` },
    baseUrl: `https://${active}.example`,
    signedIn: true,
    tokenRefused: false,
    vault: { state: 'encrypted', detail: '' },
    user: { userName: 'ana', name: 'Ana' },
    locale: 'en-US',
  });
  let current = front('a');
  let answerLate: (() => void) | null = null;
  const bridge = await installFakeBridge({
    'workspace:state': () => current,
    'workspace:focus': ({ id }) => (current = front(id)),
    'attendance:closeThread': () => ({ closed: true }) as never,
    // A read that answers only once the other workspace is in front.
    'attendance:directory': () =>
      new Promise(
        (resolve) =>
          (answerLate = () =>
            resolve({
              groups: [],
              agents: [],
              pauseReasons: [],
              pauseReasonsUnreadable: { count: 0, first: null },
              myStatus: null,
              myPauseReason: null,
            })),
      ),
  });
  const { AppStore } = await importRunes<App>('src-renderer/src/features/workspace/app.svelte.ts');
  const { invoke, on } = await importRunes<typeof import('../../../src-renderer/src/lib/bridge')>('src-renderer/src/lib/bridge.ts');
  const app = new AppStore();
  const heard: string[] = [];
  on('attendance:customerMessage', (m) => heard.push(m.customerName));
  // A view's store: lets its thread go when it leaves, reads when it starts.
  app.onSignedOut(() => void invoke('attendance:closeThread', { sessionId: 7 }));
  app.onSignedIn(() => void invoke('workspace:state', {}));
  await app.load();
  await expect.poll(() => app.shown).toBe('a|ana');
  let late: unknown = 'not answered';
  void invoke('attendance:directory', {}).then((d) => (late = d));

  expect(await app.focus('b')).toBe(true);
  await expect.poll(() => app.shown).toBe('b|ana');
  // The leaving view's call went to A; the next start's to B.
  expect(bridge.calls.filter((c) => c.channel === 'attendance:closeThread').map((c) => c.workspaceId)).toEqual(['a']);
  expect(
    bridge.calls
      .filter((c) => c.channel === 'workspace:state')
      .map((c) => c.workspaceId)
      .slice(-1),
  ).toEqual(['b']);
  // A's answer arriving now is not shown in B's views.
  answerLate!();
  await new Promise((r) => setTimeout(r, 20));
  expect(late).toBe('not answered');
  // Events: A's are no longer heard, B's are.
  bridge.emit('attendance:customerMessage', { sessionId: 1, customerName: 'Of A', preview: '' }, 'a');
  bridge.emit('attendance:customerMessage', { sessionId: 2, customerName: 'Of B', preview: '' }, 'b');
  expect(heard).toEqual(['Of B']);
});
