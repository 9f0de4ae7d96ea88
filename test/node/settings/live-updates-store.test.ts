import { expect, test } from '@playwright/test';
import type { LiveStatus } from '../../../src-shared/bridge/live';
import { importRunes, installFakeBridge, Refusal, newScope } from '../../support/runes';
import type * as liveUpdatesModule from '../../../src-renderer/src/features/settings/live-updates.svelte';

type Live = typeof liveUpdatesModule;

const status = (state: LiveStatus['state']): LiveStatus => ({
  state,
  url: null,
  signed: true,
  registered: true,
  detail: null,
  lastEventAt: null,
  lastResyncAt: null,
  accepted: 0,
  source: 'listener',
  relay: null,
});

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
