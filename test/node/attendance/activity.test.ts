import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { ActivityStore } from '../../../src-main/features/attendance/activity';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('activity-');

const customer = (id: number, text: string, minute: number): ThreadMessage => ({
  id,
  sessionId: 7,
  text,
  caption: null,
  contentType: 'text',
  createdAt: `2026-11-23T10:${String(minute).padStart(2, '0')}:00Z`,
  fromCustomer: true,
  author: 'customer',
  sender: null,
  sentiment: null,
  bySupervisor: false,
  failed: false,
});

test('customer messages count once each, also when they reach the console out of order; the row keeps the newest; a restart keeps the counts', async () => {
  const file = join(await tempDir(), 'attendance', 'activity.json');
  const store = new ActivityStore(file, () => undefined);
  store.setScope('demo|ana');
  // The second message's event arrives first; then the first one's; then a sync read repeats both.
  expect(store.customerMessage(customer(41, 'Pode me ajudar?', 2))).toBe(true);
  expect(store.customerMessage(customer(40, 'Oi, ainda estou esperando.', 1))).toBe(true);
  expect(store.customerMessage(customer(40, 'Oi, ainda estou esperando.', 1))).toBe(false);
  expect(store.customerMessage(customer(41, 'Pode me ajudar?', 2))).toBe(false);
  expect(store.get(7)).toEqual({ lastCustomerAt: '2026-11-23T10:02:00Z', preview: 'Pode me ajudar?', unread: 2 });
  await store.flush();

  const again = new ActivityStore(file, () => undefined);
  again.setScope('demo|ana');
  expect(again.get(7)?.unread).toBe(2);
  expect(again.seen(7)).toBe(true);
  expect(again.customerMessage(customer(41, 'Pode me ajudar?', 2))).toBe(false);
  expect(again.get(7)?.unread).toBe(0);
});

test("a preview read that overtakes a message's news does not swallow it: the row shows it at once, its news counts it once; one read in an open thread is never counted", async () => {
  const store = new ActivityStore(join(await tempDir(), 'activity.json'), () => undefined);
  store.setScope('demo|ana');
  // The preview read sees the customer's message before its event has been handled.
  expect(store.shown(customer(50, 'Alguém aí?', 5))).toBe(true);
  expect(store.get(7)).toEqual({ lastCustomerAt: '2026-11-23T10:05:00Z', preview: 'Alguém aí?', unread: 0 });
  // Another preview read of it changes nothing.
  expect(store.shown(customer(50, 'Alguém aí?', 5))).toBe(false);
  // Then its event: news, counted once, however often it is repeated.
  expect(store.customerMessage(customer(50, 'Alguém aí?', 5))).toBe(true);
  expect(store.customerMessage(customer(50, 'Alguém aí?', 5))).toBe(false);
  expect(store.get(7)).toEqual({ lastCustomerAt: '2026-11-23T10:05:00Z', preview: 'Alguém aí?', unread: 1 });
  // An older preview never replaces the newest one on the row.
  expect(store.shown(customer(49, 'Oi', 4))).toBe(false);
  expect(store.get(7)?.preview).toBe('Alguém aí?');

  // A message shown as a preview, then read in the thread the attendant opened: its late event counts nothing.
  expect(store.shown(customer(51, 'Pode me ajudar?', 6))).toBe(true);
  expect(store.seen(7)).toBe(true);
  store.known(customer(51, 'Pode me ajudar?', 6));
  expect(store.customerMessage(customer(51, 'Pode me ajudar?', 6))).toBe(false);
  expect(store.get(7)).toEqual({ lastCustomerAt: '2026-11-23T10:06:00Z', preview: 'Pode me ajudar?', unread: 0 });
});
