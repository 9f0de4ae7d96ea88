import { expect, test } from '@playwright/test';
import type { TicketView } from '../../../src-shared/bridge/supervisor';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as ticketsModule from '../../../src-renderer/src/features/supervisor/tickets.svelte';

type Tickets = typeof ticketsModule;

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
  return { store: (await newScope()).use(TicketLookupStore), bridge };
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

test('the shortcut follows the main process: the palette combo, a rebind saved as the global accelerator, a refused one reported', async () => {
  let accelerator = 'CommandOrControl+Shift+T';
  const bridge = await installFakeBridge({
    'supervisor:ticketShortcut': () => ({ accelerator, defaultAccelerator: 'CommandOrControl+Shift+T' }),
    'supervisor:setTicketShortcut': (input) => {
      if (input.accelerator === 'Shift+A') throw new Error('That shortcut types a character.');
      accelerator = input.accelerator;
      return { accelerator, defaultAccelerator: 'CommandOrControl+Shift+T' };
    },
  });
  const { TicketShortcutStore } = await importRunes<Tickets>('src-renderer/src/features/supervisor/tickets.svelte.ts');
  const store = new TicketShortcutStore();
  expect(store.combo).toBe('Mod+Shift+T');
  expect(store.rebind('Mod+Alt+J')).toBe(true);
  await expect.poll(() => store.combo).toBe('Mod+Alt+J');
  expect(bridge.calls.find((c) => c.channel === 'supervisor:setTicketShortcut')?.input).toEqual({ accelerator: 'CommandOrControl+Alt+J' });
  expect(store.rebind(null)).toBe(false);

  store.draft = 'Shift+A';
  await store.save();
  expect(store.error).toContain('types a character');
  expect(store.combo).toBe('Mod+Alt+J');
});
