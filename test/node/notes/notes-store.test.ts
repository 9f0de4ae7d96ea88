import { expect, test } from '@playwright/test';
import type { LocalNote, ServiceNote } from '../../../src-shared/bridge/notes';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as notesModule from '../../../src-renderer/src/features/notes/notes.svelte';

type Notes = typeof notesModule;

const local = (id: string, ref: string, text: string, state: LocalNote['state'], createdAt: number): LocalNote => ({
  id,
  ref,
  sessionId: 7,
  text,
  state,
  createdAt,
  updatedAt: createdAt,
  attempts: 0,
});
const service = (id: number, text: string, ref: string | null): ServiceNote => ({ id, text, ref, createdAt: null, createdBy: 'ana' });

test("a note shows once: confirmed outbox notes give way to the service's copy, matched by ref", async () => {
  const onService = [service(1, 'Customer asked for a refund · ref AAAA1111', null)];
  const bridge = await installFakeBridge({
    'notes:list': () => ({
      service: [...onService],
      local: [local('l1', 'AAAA1111', 'Customer asked for a refund', 'confirmed', 1)],
      serviceError: null,
      cachedAt: null,
    }),
    'notes:draft': () => ({ reply: '', note: 'half a thought' }),
    'notes:status': () => ({ connectivity: 'online', counts: {}, problems: [] }),
    'notes:add': ({ text }) => local('l2', 'BBBB2222', text, 'pending', 2),
    'notes:setDraft': () => ({ ok: true }),
  });
  const { NotesStore } = await importRunes<Notes>('src-renderer/src/features/notes/notes.svelte.ts');
  const notes = (await newScope()).use(NotesStore);
  await notes.open(7);
  expect(notes.all.map((n) => [n.kind, n.note.text])).toEqual([['service', 'Customer asked for a refund']]);
  expect(notes.draft).toBe('half a thought');

  notes.setDraft('  Promised a call back  ');
  expect(await notes.add()).toBe(true);
  expect(notes.draft).toBe('');
  expect(notes.all.map((n) => [n.kind, n.note.text])).toEqual([
    ['service', 'Customer asked for a refund'],
    ['local', 'Promised a call back'],
  ]);
  expect(bridge.calls.find((c) => c.channel === 'notes:add')?.input).toEqual({ sessionId: 7, text: 'Promised a call back' });

  // The outbox confirms it: the service list is read again and the note shows once, as the service's.
  onService.push(service(2, 'Promised a call back · ref BBBB2222', null));
  bridge.emit('notes:changed', { sessionId: 7, note: local('l2', 'BBBB2222', 'Promised a call back', 'confirmed', 2), removedId: null });
  await expect.poll(() => notes.all.map((n) => n.kind)).toEqual(['service', 'service']);

  // Another session's change is not this one's business; an empty draft adds nothing.
  bridge.emit('notes:changed', { sessionId: 8, note: local('x', 'CCCC3333', 'elsewhere', 'pending', 3), removedId: null });
  expect(notes.all).toHaveLength(2);
  expect(await notes.add()).toBe(false);
  notes.suspend();
  expect(notes.all).toEqual([]);
});
