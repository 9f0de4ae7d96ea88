import { test, expect } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TicketCache } from '../../../src-main/features/supervisor/ticket-cache';
import { TicketViewSchema } from '../../../src-shared/bridge/supervisor';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('ticket-cache-');

for (const [kind, text] of [
  ['not JSON', '{{{'],
  ['truncated', '{"version":1,"entries":[{"aliases":["sup-1"],"ticket":{"id":1'],
  ['of another shape', JSON.stringify([1, 2, 3])],
] as const) {
  test(`recent tickets in a file ${kind}: the file is set aside (kept, named with its time, said), never written over`, async () => {
    const dir = join(await tempDir(), 'supervisor');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'tickets.json');
    writeFileSync(file, text);
    const said: string[] = [];
    const cache = new TicketCache(file, (m) => said.push(m));
    expect(await cache.recent()).toEqual([]);
    const kept = readdirSync(dir).filter((n) => n.startsWith('tickets.json.unreadable-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0]!), 'utf8')).toBe(text);
    expect(said).toEqual([expect.stringMatching(/^ticket cache set aside: /)]);

    // Tickets looked up afterwards are kept in a new file; the one set aside stays as it was.
    const ticket = TicketViewSchema.parse({
      id: 7,
      key: 'SUP-7',
      title: 'Boleto',
      description: null,
      status: 'OPEN',
      priority: null,
      projectId: 1,
      fetchedAt: '2026-11-29T10:00:00.000Z',
      source: 'service',
      notice: null,
    });
    await cache.put('SUP-7', ticket);
    expect((await new TicketCache(file, () => undefined).recent()).map((t) => t.key)).toEqual(['SUP-7']);
    expect(readFileSync(join(dir, kept[0]!), 'utf8')).toBe(text);
  });
}
