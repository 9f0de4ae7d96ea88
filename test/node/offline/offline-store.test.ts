import { expect, test } from '@playwright/test';
import type { Connectivity } from '../../../src-shared/bridge/offline';
import type { OutboxStatusInfo } from '../../../src-shared/bridge/notes';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as formatModule from '../../../src-renderer/src/lib/format';
import type * as offlineModule from '../../../src-renderer/src/lib/offline.svelte';
import type * as i18nModule from '../../../src-renderer/src/lib/i18n.svelte';

type Format = typeof formatModule;
type Offline = typeof offlineModule;

const online: Connectivity = { state: 'online', since: null, reason: null, nextProbeAt: null, lastOkAt: 1 };
const offlineState: Connectivity = { state: 'offline', since: 2, reason: 'The service cannot be reached.', nextProbeAt: 3, lastOkAt: 1 };
const outbox = (counts: Record<string, number>): OutboxStatusInfo => ({ connectivity: 'offline', counts, problems: [] });

test('offline then back: the banner state, the notes waiting, and every "back" hook run once', async () => {
  let answer = offlineState;
  const bridge = await installFakeBridge({
    'offline:status': () => answer,
    'notes:status': () => outbox({ pending: 2, sending: 1, 'outcome-unknown': 1, confirmed: 5 }),
    'offline:retry': () => answer,
  });
  const { OfflineStore } = await importRunes<Offline>('src-renderer/src/lib/offline.svelte.ts');
  const store = (await newScope()).use(OfflineStore);
  let backs = 0;
  store.onBack(() => backs++);
  await store.start();
  expect(store.offline).toBe(true);
  expect(store.waitingNotes).toBe(4);

  // Retrying while still offline changes nothing; the service answering again runs the hooks.
  await store.retry();
  expect([store.offline, backs]).toEqual([true, 0]);
  answer = online;
  await store.retry();
  expect([store.offline, backs, store.backCount, store.retrying]).toEqual([false, 1, 1, false]);
  bridge.emit('offline:status', online);
  expect(backs).toBe(1);

  store.suspend();
  expect([store.status, store.outbox]).toEqual([null, null]);
  bridge.emit('offline:status', offlineState);
  expect(store.offline).toBe(false);
});

test("the time an offline copy was read is written in the interface language, not the system's", async () => {
  const { clockTime } = await importRunes<Format>('src-renderer/src/lib/format.ts');
  const { i18n } = await importRunes<typeof i18nModule>('src-renderer/src/lib/i18n.svelte.ts');
  const at = new Date(2026, 10, 23, 14, 5).getTime();
  i18n.choose('pt-BR');
  await i18n.ready;
  expect(clockTime(at)).toBe('14:05');
  i18n.choose('en');
  expect(clockTime(at)).toMatch(/^0?2:05\sPM$/);
  i18n.choose(null);
});
