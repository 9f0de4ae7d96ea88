import { expect, test } from '@playwright/test';
import type { LiveStatus } from '../../../src-shared/bridge/live';
import { importRunes, installFakeBridge, liveStatus, Refusal, newScope } from '../../support/runes';
import type * as liveUpdatesModule from '../../../src-renderer/src/features/settings/live-updates.svelte';

type Live = typeof liveUpdatesModule;

const status = liveStatus;

test('live updates: paused and resumed from the settings; a refusal is said and the state stays', async () => {
  let state: LiveStatus['state'] = 'running';
  let refuse = false;
  await installFakeBridge({
    'live:status': () => status(state),
    'live:setRunning': ({ running }) => {
      if (refuse) throw new Refusal('Unavailable', 'The listener could not start.');
      state = running ? 'running' : 'stopped';
      return status(state);
    },
  });
  const { LiveUpdatesStore } = await importRunes<Live>('src-renderer/src/features/settings/live-updates.svelte.ts');
  const live = (await newScope()).use(LiveUpdatesStore);
  await live.load();
  expect(live.paused).toBe(false);
  await live.set(false);
  expect([live.paused, live.busy]).toEqual([true, false]);
  refuse = true;
  await live.set(true);
  expect([live.paused, live.error]).toEqual([true, 'The listener could not start.']);
});

test('a pause pushed while the status was being asked for is not taken back by the older answer', async () => {
  let answer: (() => void) | null = null;
  const bridge = await installFakeBridge({
    'live:status': () => new Promise((resolve) => (answer = () => resolve(status('running')))),
  });
  const { LiveUpdatesStore } = await importRunes<Live>('src-renderer/src/features/settings/live-updates.svelte.ts');
  const live = (await newScope()).use(LiveUpdatesStore);
  const loading = live.load();
  await expect.poll(() => answer !== null).toBe(true);
  // Paused elsewhere (the sessions view): the push comes before the answer read while running.
  bridge.emit('live:status', status('stopped'));
  answer!();
  await loading;
  expect(live.paused).toBe(true);
  // Asked again with nothing pushed meanwhile: the answer shows.
  answer = null;
  const again = live.load();
  await expect.poll(() => answer !== null).toBe(true);
  answer!();
  await again;
  expect(live.paused).toBe(false);
});
