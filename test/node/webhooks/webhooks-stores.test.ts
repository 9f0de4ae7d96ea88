import { expect, test } from '@playwright/test';
import type { EventRow, ListenerStatus } from '../../../src-shared/bridge/webhooks';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as eventLogModule from '../../../src-renderer/src/features/webhooks/event-log.svelte';
import type * as listenerModule from '../../../src-renderer/src/features/webhooks/listener.svelte';

type EventLog = typeof eventLogModule;
type Listener = typeof listenerModule;

const row = (id: string, group: string, type: string, receivedAt: number, body = '{}'): EventRow => ({
  id,
  receivedAt,
  signature: 'valid',
  known: true,
  group,
  type,
  occurredAt: null,
  raw: body,
  cut: false,
});

test("event log: pushed rows arrive newest first in one batch, a filter keeps only matching ones; a closed workspace's log hears no more", async () => {
  const log: EventRow[] = [row('e1', 'messages', 'MESSAGE_CREATED', 1)];
  const bridge = await installFakeBridge({
    'webhooks:log': ({ group, type }) => ({ entries: log.filter((r) => (!group || r.group === group) && (!type || r.type === type)) }),
  });
  const { EventLogStore } = await importRunes<EventLog>('src-renderer/src/features/webhooks/event-log.svelte.ts');
  const scope = await newScope();
  const store = scope.use(EventLogStore);
  await store.load();
  expect(store.rows.map((r) => r.id)).toEqual(['e1']);

  // The listener logs each event, then pushes it.
  const arrive = (...entries: EventRow[]) => {
    log.unshift(...[...entries].reverse());
    bridge.emit('webhooks:events', { entries });
  };
  arrive(row('e2', 'status', 'AGENT_STATUS', 2), row('e3', 'messages', 'MESSAGE_CREATED', 3));
  await expect.poll(() => store.rows.map((r) => r.id)).toEqual(['e3', 'e2', 'e1']);
  expect(store.types).toEqual(['AGENT_STATUS', 'MESSAGE_CREATED']);

  store.setFilter({ group: 'messages' });
  await expect.poll(() => store.rows.map((r) => r.id)).toEqual(['e3', 'e1']);
  expect(store.filtered).toBe(true);
  arrive(row('e4', 'status', 'AGENT_STATUS', 4), row('e5', 'messages', 'MESSAGE_CREATED', 5));
  await expect.poll(() => store.rows.map((r) => r.id)).toEqual(['e5', 'e3', 'e1']);

  await store.select('e5');
  expect(store.selected?.id).toBe('e5');
  scope.close();
  arrive(row('e6', 'messages', 'MESSAGE_CREATED', 6));
  await new Promise((r) => setTimeout(r, 50));
  expect(store.rows.map((r) => r.id)).toEqual(['e5', 'e3', 'e1']);
});

test('listener: the new signing secret is shown once and forgotten when dismissed; a refused port names its area', async () => {
  const status = { state: 'running', port: 4100 } as unknown as ListenerStatus;
  await installFakeBridge({
    'webhooks:status': () => status,
    'webhooks:setSigning': () => ({ status, newSecret: 'whsec_once' }),
    'webhooks:setPort': () => {
      throw new Error('Port 80 needs administrator rights.');
    },
  });
  const { ListenerStore } = await importRunes<Listener>('src-renderer/src/features/webhooks/listener.svelte.ts');
  const store = (await newScope()).use(ListenerStore);
  await store.load();
  expect(store.status).toEqual(status);
  expect(await store.setSigning(true)).toBe(true);
  expect(store.newSecret).toBe('whsec_once');
  store.dismissSecret();
  expect(store.newSecret).toBeNull();
  expect(await store.setPort(80)).toBe(false);
  expect(store.error).toEqual({ area: 'port', message: 'Port 80 needs administrator rights.' });
  expect(store.busy).toBeNull();
  const release = store.holdBanner();
  expect(store.shellBanners).toBe(1);
  release();
  expect(store.shellBanners).toBe(0);
});
