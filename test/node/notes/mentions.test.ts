import { test, expect } from '@playwright/test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { colleagueMatches, excerptOf, mentionIndex, mentionText, mentionToken, mentionedIn } from '../../../src-shared/mentions';
import { MentionWatch, mentionQuery, type NoteRow } from '../../../src-main/features/notes/mentions';
import type { Condition } from '../../../src-shared/query';

const bruno = { userName: 'bruno.lima', name: 'Bruno Lima' };
const brunoS = { userName: 'bruno.souza', name: 'Bruno Souza' };
const carla = { userName: 'carla.dias', name: 'Carla Dias' };
const jose = { userName: 'jose.alves', name: 'José Alves' };
const people = [carla, brunoS, bruno, jose];

test.describe('typing a mention', () => {
  test('"@" and what follows at the caret is the name being typed; an e-mail address is not', () => {
    expect(mentionToken('Ask @Br', 7)).toEqual({ start: 4, query: 'Br' });
    expect(mentionToken('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionToken('Ask @Bruno Li about it', 13)).toEqual({ start: 4, query: 'Bruno Li' });
    expect(mentionToken('write to ana@acme.com', 21)).toBeNull();
    expect(mentionToken('Ask @Br\nthen', 12)).toBeNull();
    expect(mentionToken('Ask @ Bruno', 11)).toBeNull();
    // The caret before the "@": nothing is being typed there.
    expect(mentionToken('Ask @Br', 3)).toBeNull();
  });

  test('a partial name offers the colleagues whose name, a word of it or login starts with it, accents aside', () => {
    expect(colleagueMatches(people, 'Br').map((p) => p.name)).toEqual(['Bruno Lima', 'Bruno Souza']);
    expect(colleagueMatches(people, 'bruno l').map((p) => p.name)).toEqual(['Bruno Lima']);
    expect(colleagueMatches(people, 'lima').map((p) => p.name)).toEqual(['Bruno Lima']);
    expect(colleagueMatches(people, 'jose').map((p) => p.name)).toEqual(['José Alves']);
    expect(colleagueMatches(people, 'carla.d').map((p) => p.name)).toEqual(['Carla Dias']);
    expect(colleagueMatches(people, 'zz')).toEqual([]);
    expect(colleagueMatches(people, '')).toHaveLength(4);
    expect(mentionText(bruno)).toBe('@Bruno Lima');
    expect(mentionText({ userName: 'x9', name: ' ' })).toBe('@x9');
    // Two colleagues listed by one name: the login names the one meant.
    const twoBrunos = [{ userName: 'bruno.lima', name: 'Bruno' }, { userName: 'bruno.souza', name: 'bruno' }, carla];
    expect(mentionText(twoBrunos[0]!, twoBrunos)).toBe('@bruno.lima');
    expect(mentionText(carla, twoBrunos)).toBe('@Carla Dias');
  });
});

test.describe('recognising a mention in a note', () => {
  test('by name or login, whole, in any case; never a longer name that starts the same', () => {
    expect(mentionIndex('@Bruno Lima can you check the boleto?', bruno)).toBe(0);
    expect(mentionIndex('Can you check, @bruno lima?', bruno)).toBe(15);
    expect(mentionIndex('cc @bruno.lima', bruno)).toBe(3);
    expect(mentionIndex('@Bruno Limas is someone else', bruno)).toBe(-1);
    expect(mentionIndex('@Bruno Souza please', bruno)).toBe(-1);
    expect(mentionIndex('@bruno.lima2 is another login', bruno)).toBe(-1);
    expect(mentionIndex('mail bruno@Bruno Lima.com', bruno)).toBe(-1);
    expect(mentionIndex('Bruno Lima without the at sign', bruno)).toBe(-1);
    expect(mentionIndex('Falar com @José Alves', jose)).toBe(10);
    expect(mentionIndex('Falar com @jose alves', jose)).toBe(10);
    expect(mentionedIn('@Carla Dias and @Bruno Souza, see this', people).map((p) => p.name)).toEqual(['Carla Dias', 'Bruno Souza']);
  });

  test('the excerpt is the whole short note, or a piece around the mention marked where cut', () => {
    expect(excerptOf('@Bruno Lima\n  check  this', 0)).toBe('@Bruno Lima check this');
    const long = `${'a'.repeat(200)} @Bruno Lima please call the customer back ${'b'.repeat(200)}`;
    const cut = excerptOf(long, long.indexOf('@'), 80);
    expect(cut).toContain('@Bruno Lima');
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(82);
  });
});

test.describe('finding mentions of the attendant', () => {
  let dir: string;
  test.beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mentions-'));
  });
  test.afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A service's notes, and the queries asked of it (the stand-in for one request each). */
  function service(notes: NoteRow[]) {
    const asked: Array<{ conditions: Condition[] }> = [];
    const read = async (q: { conditions: Condition[] }) => {
      asked.push(q);
      const after = Date.parse(q.conditions[0]!.value!);
      return notes.filter((n) => Date.parse(n.createdAt!) > after).sort((a, b) => Date.parse(a.createdAt!) - Date.parse(b.createdAt!));
    };
    return { asked, read };
  }

  function watch(read: (q: { conditions: Condition[] }) => Promise<NoteRow[]>, clock: { now: number }, changes: unknown[] = []) {
    return new MentionWatch({
      file: path.join(dir, 'mentions.json'),
      me: () => bruno,
      read,
      minGapMs: () => 60_000,
      now: () => clock.now,
      onChange: (m) => changes.push(m),
      log: () => undefined,
    });
  }

  const at = (min: number) => new Date(Date.UTC(2026, 10, 29, 9, min)).toISOString();

  test('one request per minute at most, asking only for notes after the newest seen and naming the attendant', async () => {
    const clock = { now: Date.UTC(2026, 10, 29, 10, 0) };
    const notes: NoteRow[] = [
      { id: 1, sessionId: 7, text: '@Bruno Lima can you look at the refund?', createdAt: at(1), createdBy: 'carla.dias' },
      { id: 2, sessionId: 8, text: '@Bruno Souza not you', createdAt: at(2), createdBy: 'carla.dias' },
      { id: 3, sessionId: 9, text: 'Reminder to myself @Bruno Lima', createdAt: at(3), createdBy: 'bruno.lima' },
    ];
    const s = service(notes);
    const changes: unknown[] = [];
    const w = watch(s.read, clock, changes);
    await w.check();
    expect(s.asked).toHaveLength(1);
    // Notes after a day back the first time; the name and the login, each as "@…".
    expect(s.asked[0]).toEqual(mentionQuery(new Date(clock.now - 24 * 3_600_000).toISOString(), bruno));
    expect(JSON.stringify(s.asked[0])).toContain('%@Bruno Lima%');
    expect(JSON.stringify(s.asked[0])).toContain('%@bruno.lima%');
    // Carla's note about Bruno Lima; not Bruno Souza's, not his own.
    expect(w.list()).toEqual([
      { noteId: 1, sessionId: 7, by: 'carla.dias', at: at(1), excerpt: '@Bruno Lima can you look at the refund?' },
    ]);
    expect(changes).toHaveLength(1);

    // Polls within the minute ask nothing more.
    clock.now += 30_000;
    await w.check();
    expect(s.asked).toHaveLength(1);

    clock.now += 31_000;
    notes.push({ id: 4, sessionId: 10, text: 'cc @bruno.lima — CPF 529.982.247-25 angry', createdAt: at(5), createdBy: 'carla.dias' });
    await w.check();
    expect(s.asked).toHaveLength(2);
    // A document in the note stays masked in what is shown and kept.
    const excerpt = w.list().find((m) => m.noteId === 4)!.excerpt;
    expect(excerpt).toContain('cc @bruno.lima');
    expect(excerpt).not.toContain('529.982.247-25');
    expect(excerpt).not.toMatch(/\d{3}\.\d{3}\.\d{3}-\d{2}/);
    // Forward from the newest note the service answered.
    expect(s.asked[1]!.conditions[0]).toEqual({ key: 'createdAt', operator: 'AFTER', value: at(3) });
    expect(w.list().map((m) => m.noteId)).toEqual([4, 1]);
    await w.flush();
  });

  test('kept across a restart; a mention opened is never shown again, even when read again', async () => {
    const clock = { now: Date.UTC(2026, 10, 29, 10, 0) };
    const notes: NoteRow[] = [
      { id: 1, sessionId: 7, text: '@Bruno Lima please', createdAt: at(1), createdBy: 'carla.dias' },
      { id: 2, sessionId: 8, text: 'and here @Bruno Lima', createdAt: at(2), createdBy: 'carla.dias' },
    ];
    const s = service(notes);
    const first = watch(s.read, clock);
    await first.check();
    expect(first.list().map((m) => m.noteId)).toEqual([2, 1]);
    await first.flush();

    const again = watch(s.read, clock);
    await again.load();
    expect(again.list().map((m) => m.noteId)).toEqual([2, 1]);
    await again.seenSession(7);
    expect(again.list().map((m) => m.noteId)).toEqual([2]);
    await again.flush();

    // A service that answers old notes again (a clock moved back, an inclusive AFTER): still not shown.
    const everything = async () => notes;
    const third = watch(everything, clock);
    await third.check();
    expect(third.list().map((m) => m.noteId)).toEqual([2]);
    await third.flush();
  });

  test('a failed read keeps what was found and asks again at the next poll; an unreadable file is set aside, not trusted', async () => {
    const clock = { now: Date.UTC(2026, 10, 29, 10, 0) };
    let fail = true;
    const s = service([{ id: 1, sessionId: 7, text: '@Bruno Lima please', createdAt: at(1), createdBy: 'carla.dias' }]);
    const w = watch(async (q) => {
      if (fail) throw new Error('503');
      return s.read(q);
    }, clock);
    await w.check();
    expect(w.list()).toEqual([]);
    fail = false;
    clock.now += 60_000;
    await w.check();
    expect(w.list().map((m) => m.noteId)).toEqual([1]);
    await w.flush();

    await writeFile(path.join(dir, 'mentions.json'), '{not json');
    const fresh = watch(s.read, clock);
    await fresh.load();
    expect(fresh.list()).toEqual([]);
    await expect(readFile(path.join(dir, 'mentions.json'), 'utf8')).rejects.toThrow();
  });
});
