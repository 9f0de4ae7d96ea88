import { agentIdentityOf, personOf, text, type PersonRef } from '../../src-shared/concepts';
import type { Read } from '../../src-shared/envelopes';
import type { Agent as AgentRecord } from '../../src-shared/schemas/index';
import type { Unreadable } from '../../src-shared/unreadable';
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

/** An agent record as its schema read it, in the console's words. */
export function agentOf(a: Read<AgentRecord> | AgentRecord): Agent {
  const { userName, name } = agentIdentityOf(a);
  return {
    id: a.id ?? null,
    userId: personOf(a.user)?.id ?? null,
    userName,
    name,
    status: text(a.status),
    virtual: a.virtualAgent === true,
  };
}

/** The agent as a reference to its user, for matching against another reference. */
export const agentPerson = (a: Agent): PersonRef => ({ id: a.userId, userName: a.userName, name: a.name, role: 'agent' });

/** Every agent of the service, and what of the list could not be read. */
export interface AgentList {
  agents: Agent[];
  unreadable: Unreadable;
}

/**
 * Every agent of the service: the one read of the agents list, for the attendant's own record,
 * the transfer and pick lists and the supervisor's overview. Pages of 500, at most 5,000.
 */
export async function readAgentList(client: ServiceClient): Promise<AgentList> {
  const got = await client.resource('agent').collect({ conditions: [], sort: false, size: 500 }, { cap: 5_000 });
  return { agents: got.records.map(agentOf), unreadable: { count: got.skipped, first: got.first } };
}

/** `readAgentList` when what could not be read only goes to the log (the client logs it). */
export async function readAgents(client: ServiceClient): Promise<Agent[]> {
  return (await readAgentList(client)).agents;
}
