/**
 * Mentions of colleagues in session notes. The service stores a note as plain text, so a mention
 * is written as "@" and the colleague's name as the directory lists it ("@Bruno Lima"); the
 * console recognises it again by that name, or by the colleague's login ("@bruno.lima").
 */

/** A colleague who can be mentioned: their login and the name the directory shows. */
export interface Mentionable {
  userName: string;
  name: string;
}

/** The longest partial name looked at after "@" (a name with a few words). */
const TOKEN_MAX = 40;

/** Lower case without accents: "José" and "jose" are the same name to a search. */
const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The `@partial` being typed at the caret: where its "@" is and what follows it (at most a few
 * words, never across a line). Null when the caret is not in one: an "@" inside a word (an
 * e-mail address) does not start a mention.
 */
export function mentionToken(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, Math.max(0, Math.min(caret, text.length)));
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/[\s([{"'“]/u.test(before[at - 1]!)) return null;
  const query = before.slice(at + 1);
  if (query.length > TOKEN_MAX || /[\n\r@]/.test(query) || /\s\s/.test(query) || /^\s/.test(query)) return null;
  return { start: at, query };
}

/**
 * The colleagues a partial name offers, at most `max`: those whose name or login starts with it,
 * or one of whose words does; those starting with it first, then by name.
 */
export function colleagueMatches<T extends Mentionable>(people: readonly T[], query: string, max = 6): T[] {
  const q = fold(query.trim());
  const scored: Array<{ p: T; rank: number }> = [];
  for (const p of people) {
    const name = fold(p.name);
    const login = fold(p.userName);
    let rank = -1;
    if (name.startsWith(q) || login.startsWith(q)) rank = 0;
    else if (name.split(/\s+/).some((w) => w.startsWith(q))) rank = 1;
    if (rank >= 0) scored.push({ p, rank });
  }
  scored.sort((a, b) => a.rank - b.rank || a.p.name.localeCompare(b.p.name));
  return scored.slice(0, max).map((s) => s.p);
}

/**
 * What goes into the note for a colleague: "@" and their name as the directory lists it; their
 * login when they have no name or another colleague of `people` has the same one (a mention
 * names one person).
 */
export function mentionText(p: Mentionable, people: readonly Mentionable[] = []): string {
  const name = p.name.trim();
  const shared = people.some((o) => o.userName !== p.userName && fold(o.name.trim()) === fold(name));
  return `@${name && !shared ? name : p.userName}`;
}

/** Where `@label` stands in `text` as a whole mention (not the start of a longer word), or -1. */
function mentionAt(text: string, label: string): number {
  const t = fold(text);
  const l = fold(`@${label.trim()}`);
  if (l.length < 2) return -1;
  for (let i = t.indexOf(l); i >= 0; i = t.indexOf(l, i + 1)) {
    const before = i === 0 ? '' : t[i - 1]!;
    const after = t[i + l.length] ?? '';
    if (
      !/[\p{L}\p{N}_.@-]/u.test(before) &&
      !/[\p{L}\p{N}_]/u.test(after) &&
      !/^[.-][\p{L}\p{N}]/u.test(t.slice(i + l.length, i + l.length + 2))
    )
      return i;
  }
  return -1;
}

/** Where the note mentions this person (by name or login), or -1 when it does not. */
export function mentionIndex(text: string, who: Mentionable): number {
  const byName = who.name.trim() ? mentionAt(text, who.name) : -1;
  return byName >= 0 ? byName : mentionAt(text, who.userName);
}

/** The people of `people` the note mentions. */
export function mentionedIn<T extends Mentionable>(text: string, people: readonly T[]): T[] {
  return people.filter((p) => mentionIndex(text, p) >= 0);
}

/**
 * A short piece of the note around where it mentions the person (the whole note when short),
 * on one line, with "…" where it was cut.
 */
export function excerptOf(text: string, at: number, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // Whitespace folded: the mention sits about where it was.
  const centre = Math.max(0, Math.min(at, flat.length));
  let from = Math.max(0, centre - Math.floor(max / 3));
  const to = Math.min(flat.length, from + max);
  from = Math.max(0, to - max);
  return `${from > 0 ? '…' : ''}${flat.slice(from, to).trim()}${to < flat.length ? '…' : ''}`;
}
