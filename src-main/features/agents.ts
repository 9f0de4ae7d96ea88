import { idOf, personOf, text, type PersonRef } from '../../src-shared/concepts';
import type { ServiceClient } from '../service';

/** One agent record as the console reads it. */
export interface Agent {
  /** The agent record's id (what its status is saved under). */
  id: number | null;
  /** Its user's id, when the record tells it. */
  userId: number | null;
  /** Its user's login: the user's, else the agent's own `loginAttendance`. */
  userName: string | null;
  /** Its user's name, else the login. */
  name: string | null;
  status: string | null;
  /** A bot, not an attendant. */
  virtual: boolean;
}

export function agentOf(a: Record<string, unknown>): Agent {
  const user = personOf(a.user);
  const userName = user?.userName ?? text(a.loginAttendance);
  return {
    id: idOf(a.id),
    userId: user?.id ?? null,
    userName,
    name: user?.name ?? userName,
    status: text(a.status),
    virtual: a.virtualAgent === true,
  };
}

/** The agent as a reference to its user, for matching against another reference. */
export const agentPerson = (a: Agent): PersonRef => ({ id: a.userId, userName: a.userName, name: a.name, role: 'agent' });

/**
 * Every agent of the service: the one read of the agents list, for the attendant's own record,
 * the transfer and pick lists and the supervisor's overview. Pages of 500, at most 5,000.
 */
export async function readAgents(client: ServiceClient): Promise<Agent[]> {
  const rows = await client.resource('agent').pageAll({ conditions: [], sort: false, size: 500 }, { cap: 5_000 });
  return rows.map((r) => agentOf(r as Record<string, unknown>));
}
