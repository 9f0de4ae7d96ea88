import { expect, test } from '@playwright/test';
import { authorOf } from '../../../src-shared/concepts';
import { importRunes } from '../../support/runes';
import type * as namesModule from '../../../src-renderer/src/lib/names';
import type * as timelineModule from '../../../src-renderer/src/features/attendance/timeline';
import type { NoteView } from '../../../src-renderer/src/features/notes/notes.svelte';
import type { ThreadRow } from '../../../src-renderer/src/features/attendance/thread.svelte';

type Names = typeof namesModule;
type Timeline = typeof timelineModule;

const ana = { id: 12, userName: 'ana.souza', name: 'Ana Souza', role: 'agent' as const };

test("a message's author carries their login in every shape a server gives it", () => {
  // Default reading: the login in sendBy; the session's attendant gives the display name.
  expect(authorOf({ fromUser: false, sendBy: 'ana.souza' }, { agent: ana })).toEqual({
    role: 'agent',
    name: 'Ana Souza',
    userName: 'ana.souza',
  });
  // Another member of staff, not the session's attendant: their login, as written.
  expect(authorOf({ fromUser: false, sendBy: 'bruno.lima' }, { agent: ana })).toMatchObject({ role: 'agent', userName: 'bruno.lima' });
  // Variant reading: the user object in fromUser, a role in sendBy.
  expect(
    authorOf({ fromUser: { id: 31, name: 'Bruno Lima', userName: 'bruno.lima', typeUser: 'AGENT' }, sendBy: 'AGENT' }, { agent: ana }),
  ).toEqual({ role: 'agent', name: 'Bruno Lima', userName: 'bruno.lima' });
  // A reference by id only: no login to tell who.
  expect(authorOf({ fromUser: 31, toUser: 'carla@example.com' }, {}).userName).toBeNull();
});

test('one rule names staff: You for the attendant signed in in any shape, display names for the others, never You for someone else', async () => {
  const { staffName, staffOf } = await importRunes<Names>('src-renderer/src/lib/names.ts');
  const staff = staffOf(
    [
      { userName: 'ana.souza', name: 'Ana Souza' },
      { userName: 'Bruno.Lima', name: 'Bruno Lima' },
    ],
    'ana.souza',
  );
  // The attendant's own lines: by login, by a login in the name field, in another case: You.
  expect(staffName({ userName: 'ana.souza', name: 'Ana Souza' }, staff)).toBe('You');
  expect(staffName({ userName: 'ANA.SOUZA' }, staff)).toBe('You');
  expect(staffName({ userName: null, name: 'ana.souza' }, staff)).toBe('You');
  // A colleague: their display name from the directory, whether the record gave a login or a name.
  expect(staffName({ userName: 'bruno.lima', name: 'bruno.lima' }, staff)).toBe('Bruno Lima');
  expect(staffName({ userName: null, name: 'bruno.lima' }, staff)).toBe('Bruno Lima');
  // Someone the directory does not list: as the record names them, else their login.
  expect(staffName({ userName: 'carlos.melo', name: 'Carlos Melo' }, staff)).toBe('Carlos Melo');
  expect(staffName({ userName: 'carlos.melo' }, staff)).toBe('carlos.melo');
  // Nothing tells who: a neutral word, not You.
  expect(staffName({ userName: null, name: null }, staff)).toBe('Attendant');
  // Nobody signed in (a name not yet known): nobody is You.
  expect(staffName({ userName: 'ana.souza' }, staffOf([], null))).toBe('ana.souza');
});

const msg = (id: number, at: string): ThreadRow => ({
  key: `m${id}`,
  message: {
    id,
    sessionId: 7,
    text: `message ${id}`,
    caption: null,
    contentType: 'text',
    createdAt: at,
    fromCustomer: id % 2 === 1,
    author: id % 2 === 1 ? 'customer' : 'agent',
    sender: null,
    sentiment: null,
    bySupervisor: false,
    failed: false,
  },
});
const serviceNote = (id: number, at: string | null, by: string | null): NoteView => ({
  kind: 'service',
  key: `s${id}`,
  note: { id, text: `note ${id}`, ref: null, createdAt: at, createdBy: by },
});
const localNote = (id: string, at: number): NoteView => ({
  kind: 'local',
  key: `l${id}`,
  note: { id, ref: 'ABCDEFGH', sessionId: 7, text: `note ${id}`, state: 'pending', createdAt: at, updatedAt: at, attempts: 0 },
});

test('notes interleave with the messages by time; while older messages are unread, older notes wait for them', async () => {
  const { timeline } = await importRunes<Timeline>('src-renderer/src/features/attendance/timeline.ts');
  const rows = [msg(1, '2026-11-26T10:00:00Z'), msg(2, '2026-11-26T10:05:00Z'), msg(3, '2026-11-26T10:10:00Z')];
  const notes = [
    serviceNote(20, '2026-11-26T10:06:00Z', 'bruno.lima'),
    serviceNote(19, '2026-11-26T09:00:00Z', 'ana.souza'),
    localNote('x', Date.parse('2026-11-26T10:30:00Z')),
    serviceNote(21, null, 'ana.souza'),
  ];
  const keys = (complete: boolean) => timeline(rows, notes, complete).map((r) => r.key);
  expect(keys(true)).toEqual(['note-s19', 'm1', 'm2', 'note-s20', 'm3', 'note-lx', 'note-s21']);
  // The note from before the oldest message shown appears once that part of the thread is read.
  expect(keys(false)).toEqual(['m1', 'm2', 'note-s20', 'm3', 'note-lx', 'note-s21']);
  // No messages yet: the notes alone, in order.
  expect(timeline([], notes.slice(0, 2), true).map((r) => r.key)).toEqual(['note-s19', 'note-s20']);
});

test("the note shown first is the session's newest, when a colleague wrote it", async () => {
  const { handoverNote } = await importRunes<Timeline>('src-renderer/src/features/attendance/timeline.ts');
  const fromAna = serviceNote(30, '2026-11-26T10:06:00Z', 'ana.souza');
  const earlierFromBruno = serviceNote(29, '2026-11-26T10:00:00Z', 'bruno.lima');
  // Bruno opens the session Ana transferred to him: her note, the newest, shows first.
  expect(handoverNote([earlierFromBruno, fromAna], 'bruno.lima')?.note.id).toBe(30);
  // Ana herself is not shown her own note as a handover.
  expect(handoverNote([earlierFromBruno, fromAna], 'Ana.Souza')).toBeNull();
  // Once Bruno writes (even a note still in his outbox), the newest is his: nothing to hand over.
  expect(handoverNote([fromAna, localNote('y', Date.parse('2026-11-26T10:07:00Z'))], 'bruno.lima')).toBeNull();
  expect(handoverNote([], 'bruno.lima')).toBeNull();
});
