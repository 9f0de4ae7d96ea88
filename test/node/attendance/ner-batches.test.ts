import { test, expect } from '@playwright/test';
import { nerBatches, splitEntities } from '../../../src-main/features/attendance/thread';
import type { ThreadMessage } from '../../../src-shared/bridge/attendance';

const msg = (id: number, text: string): ThreadMessage => ({
  id,
  sessionId: 1,
  text,
  caption: null,
  contentType: 'text',
  createdAt: new Date(Date.UTC(2024, 5, 11, 10, 0, id)).toISOString(),
  fromCustomer: true,
  author: 'customer',
  sender: null,
  sentiment: null,
  bySupervisor: false,
  failed: false,
});

test('a 48-message thread costs one entity lookup, not one per message; each entity goes back to its message at its own offsets', () => {
  const messages = Array.from({ length: 48 }, (_, i) => msg(i + 1, `Mensagem ${i + 1}: meu CEP é 0131${i % 10}-000, obrigado.`));
  const batches = nerBatches(messages);
  expect(batches).toHaveLength(1);
  const { text, parts } = batches[0]!;
  // A recogniser over the joined text: every CEP with its offsets in the joined text.
  const found = [...text.matchAll(/\d{5}-\d{3}/g)].map((m) => ({ text: m[0], label: 'CEP', start: m.index, end: m.index + m[0].length }));
  const per = splitEntities(found, parts);
  expect(per).toHaveLength(48);
  for (const { message, found: own } of per) {
    expect(own).toHaveLength(1);
    const e = own[0]!;
    expect(message.text.slice(e.start!, e.end!)).toBe(e.text);
  }
  // An entity without offsets goes to the message whose text holds it.
  expect(splitEntities([{ text: '01317-000', label: 'CEP', start: null, end: null }], parts).find((p) => p.found.length)?.message.id).toBe(
    8,
  );
});

test('long messages are split across lookups of bounded size, never cut', () => {
  const long = 'x'.repeat(3_000);
  const batches = nerBatches([msg(1, long), msg(2, long), msg(3, 'curta')]);
  expect(batches.map((b) => b.parts.map((p) => p.message.id))).toEqual([[1], [2, 3]]);
});
