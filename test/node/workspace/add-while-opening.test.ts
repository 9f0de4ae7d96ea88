import { expect, test } from '@playwright/test';
import type { AppState } from '../../../src-shared/bridge';
import { importRunes, installFakeBridge } from '../../support/runes';
import type * as appModule from '../../../src-renderer/src/lib/app.svelte';

type App = typeof appModule;

const demo: AppState = {
  workspaces: [
    {
      id: 'demo',
      workspace: { kind: 'demo' },
      label: 'Demo',
      name: null,
      color: 0,
      baseUrl: 'http://127.0.0.1:1',
      signedIn: true,
      tokenRefused: false,
      user: { userName: 'ana', name: 'Ana' },
    },
  ],
  active: 'demo',
  workspace: { kind: 'demo' },
  baseUrl: 'http://127.0.0.1:1',
  signedIn: true,
  tokenRefused: false,
  vault: { state: 'weak', detail: '' },
  user: { userName: 'ana', name: 'Ana' },
  locale: 'en-US',
  setAside: [],
};
const none: AppState = { ...demo, workspaces: [], active: null, workspace: null, baseUrl: null, signedIn: false, user: null };

test('"Add a workspace" chosen while the demo is still opening stays open when the opening call returns; an action from that screen closes it', async () => {
  let finishOpening: (() => void) | null = null;
  const bridge = await installFakeBridge({
    'workspace:state': () => none,
    // The main process pushes the new state (the page shows the workspace) and answers the call
    // later: its listener and first read are still under way.
    'workspace:openDemo': () =>
      new Promise<AppState>((resolve) => {
        bridge.emit('workspace:state', demo);
        finishOpening = () => resolve(demo);
      }),
    'workspace:focus': () => demo,
  });
  const { AppStore } = await importRunes<App>('src-renderer/src/lib/app.svelte.ts');
  const app = new AppStore();
  await app.load();

  const opening = app.openDemo();
  await expect.poll(() => app.shown?.workspaceId).toBe('demo');
  expect(app.busy).toBe(true);
  // The user sees the workspace and asks for the connect screen before the call has returned.
  app.adding = true;
  finishOpening!();
  expect(await opening).toBe(true);
  expect(app.adding).toBe(true);

  // Choosing a workspace from the connect screen is what leaves it.
  expect(await app.focus('demo')).toBe(true);
  expect(app.adding).toBe(false);
});
