import { i18n } from './i18n.svelte';

const nm = i18n.register('names');

/** Who is signed in, and the display names of the service's staff by login (lower case). */
export interface Staff {
  me: string | null;
  names: ReadonlyMap<string, string>;
}

/** The staff as the directory lists them (`userName`, `name`), and the attendant signed in. */
export function staffOf(agents: ReadonlyArray<{ userName: string; name: string }> | undefined, me: string | null): Staff {
  const names = new Map<string, string>();
  for (const a of agents ?? []) if (a.name.trim()) names.set(a.userName.toLowerCase(), a.name);
  return { me: me?.toLowerCase() ?? null, names };
}

/**
 * The one rule for the name shown for a member of staff (a message's author, a note's writer):
 * "You" for the attendant signed in, whatever shape the record gave (login, display name);
 * anyone else by their display name as the directory lists it, else as the record names them,
 * else by their login; "Attendant" when nothing tells who. Never "You" for someone else.
 */
export function staffName(who: { userName?: string | null; name?: string | null }, staff: Staff): string {
  const login = who.userName?.trim().toLowerCase() || null;
  if (login !== null && login === staff.me) return nm('who.you');
  const listed = login === null ? undefined : staff.names.get(login);
  if (listed) return listed;
  const name = who.name?.trim() || null;
  // A record that gives only a login in its name field: the directory may still know it.
  const byName = name === null ? undefined : staff.names.get(name.toLowerCase());
  if (name !== null && name.toLowerCase() === staff.me) return nm('who.you');
  return byName ?? name ?? who.userName?.trim() ?? nm('who.staff');
}
