import { expect, test } from '@playwright/test';
import type { TicketView } from '../../../src-shared/bridge/supervisor';
import { importRunes, installFakeBridge } from '../../support/runes';

type Tickets = typeof import('../../../src-renderer/src/features/supervisor/tickets.svelte');

const ticket = (id: number, key: string): TicketView => ({
  id,
  key,
  title: `Ticket ${key}`,
  description: null,
  status: 'OPEN',
  priority: 'HIGH',
  projectId: 1,
  requester: null,
  assignee: null,
  sessionId: null,
  createdAt: null,
  updatedAt: null,
  fetchedAt: '2026-11-23T10:00:00Z',
  source: 'service',
  notice: null,
});

async function storeWith(handlers: Parameters<typeof installFakeBridge>[0]) {
  const bridge = await installFakeBridge(handlers);
  const { TicketLookupStore } = await importRunes<Tickets>('src-renderer/src/features/supervisor/tickets.svelte.ts');
  return { store: new TicketLookupStore(), bridge };
}

test("a lookup shows the ticket found and refreshes the recent list; a key not found shows the service's words and no stale card", async () => {
  const known = new Map([['SUP-4711', ticket(4711, 'SUP-4711')]]);
  const recent: TicketView[] = [];
  const { store } = await storeWith({
    'supervisor:ticket': ({ idOrKey }) => {
      const t = known.get(idOrKey);
      if (!t) throw new Error(`No ticket ${idOrKey}.`);
      recent.unshift(t);
      return t;
    },
    'supervisor:recentTickets': () => ({ tickets: [...recent] }),
  });
  store.show('SUP-4711');
  await expect.poll(() => store.result?.key).toBe('SUP-4711');
  await expect.poll(() => store.recent.map((t) => t.key)).toEqual(['SUP-4711']);
  expect(store.open).toBe(true);
  expect(store.loading).toBe(false);

  store.query = 'SUP-4700';
  await store.lookup();
  expect(store.result).toBeNull();
  expect(store.error).toContain('No ticket SUP-4700.');
});

test('clear forgets what the dialog showed; reset also stops listening for the shortcut', async () => {
  const { store, bridge } = await storeWith({
    'supervisor:ticket': () => ticket(1, 'A-1'),
    'supervisor:recentTickets': () => ({ tickets: [ticket(1, 'A-1')] }),
    'supervisor:ticketShortcut': () => ({ accelerator: 'CommandOrControl+Shift+T', defaultAccelerator: 'CommandOrControl+Shift+T' }),
  });
  store.listen();
  bridge.emit('supervisor:openTicketLookup', { idOrKey: 'A-1' });
  await expect.poll(() => store.result?.key).toBe('A-1');
  store.clear();
  expect([store.open, store.query, store.result, store.error, store.recent.length]).toEqual([false, '', null, null, 0]);

  store.reset();
  bridge.emit('supervisor:openTicketLookup', { idOrKey: 'A-1' });
  expect(store.open).toBe(false);
});

test('the shortcut follows the main process: the palette combo, a rebind saved as the global accelerator, a refused one reported', async () => {
  let accelerator = 'CommandOrControl+Shift+T';
  const { store, bridge } = await storeWith({
    'supervisor:ticketShortcut': () => ({ accelerator, defaultAccelerator: 'CommandOrControl+Shift+T' }),
    'supervisor:setTicketShortcut': (input) => {
      if (input.accelerator === 'Shift+A') throw new Error('That shortcut types a character.');
      accelerator = input.accelerator;
      return { accelerator, defaultAccelerator: 'CommandOrControl+Shift+T' };
    },
  });
  expect(store.combo).toBe('Mod+Shift+T');
  expect(store.rebind('Mod+Alt+J')).toBe(true);
  await expect.poll(() => store.combo).toBe('Mod+Alt+J');
  expect(bridge.calls.find((c) => c.channel === 'supervisor:setTicketShortcut')?.input).toEqual({ accelerator: 'CommandOrControl+Alt+J' });
  expect(store.rebind(null)).toBe(false);

  store.shortcutDraft = 'Shift+A';
  await store.saveShortcut();
  expect(store.shortcutError).toContain('types a character');
  expect(store.combo).toBe('Mod+Alt+J');
});
