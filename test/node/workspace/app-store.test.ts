import { expect, test } from '@playwright/test';
import type { AppState } from '../../../src-shared/bridge';
import { importRunes, installFakeBridge } from '../../support/runes';

type App = typeof import('../../../src-renderer/src/features/workspace/app.svelte');

const state = (signedIn: boolean, locale = 'en-US'): AppState => ({
  workspaces: [], active: signedIn ? 'demo' : null, workspace: signedIn ? { kind: 'demo' } : null, baseUrl: signedIn ? 'http://127.0.0.1:1' : null, signedIn, tokenRefused: false,
  vault: { state: 'encrypted', detail: '' }, user: signedIn ? { userName: 'ana', name: 'Ana' } : null, locale,
});

test('opening the demo signs in; signing out runs every store\'s reset once; a refusal shows the service\'s words', async () => {
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
