import { AppError, isAppError } from '../../../src-shared/errors';
import { isUnreachable } from '../../../src-shared/error-kinds';
import { personOf, record, text } from '../../../src-shared/concepts';
import type { Logger } from '../../log';
import { createServiceClient, type ServiceClient } from '../../service';
import type { UserRef, WorkspaceRuntime } from '../../workspaces/runtime';
import { readAgents } from '../agents';

/** A cheap call that any role may make: proves the address answers and the token is taken. */
async function checkAccess(client: ServiceClient): Promise<void> {
  await client.resource('userSession').list({ conditions: [], sort: false, page: 0, size: 1 });
}

/**
 * Checks a service address and a token before anything is kept, and finds who the attendant is
 * there: the name they typed (checked), else the token's own user (/users/rules of the caller).
 * Null when the service cannot tell (the console then asks them).
 */
export async function checkConnection(baseUrl: string, token: string, typed: string | null, log: Logger): Promise<UserRef | null> {
  // `probe`: a candidate token being checked; its refusal must not mark a stored one.
  const probe = createServiceClient({ baseUrl, getToken: async () => token, log });
  let found: UserRef | null;
  try {
    await checkAccess(probe);
    found = await identify(probe, typed);
  } catch (e) {
    if (isAppError(e) && e.kind === 'Unauthorized') {
      throw new AppError({ kind: 'Unauthorized', status: 401, message: 'The service refused this token (401). Check it and try again.' });
    }
    // Said of the address just typed; any answer the service did give speaks for itself.
    if (isAppError(e) && isUnreachable(e)) {
      const message =
        e.kind === 'Timeout'
          ? `${baseUrl} did not answer in time. Check the address, or try again when the service answers.`
          : `Could not reach ${baseUrl}. Check the address and your connection.`;
      throw new AppError({ ...e.info, message });
    }
    throw e;
  } finally {
    await probe.close();
  }
  if (typed && !found) {
    throw new AppError({
      kind: 'NotFound',
      field: 'userName',
      message: `The service has no user "${typed}". Check the name, or leave it blank and pick yourself after connecting.`,
    });
  }
  return found;
}

/** The service's own record of a user name (or of the token's user when none is given). */
export async function identify(client: ServiceClient, userName: string | null): Promise<UserRef | null> {
  let wanted = userName;
  if (!wanted) {
    try {
      wanted = text(record(await client.userRules({}))?.userName);
    } catch {
      wanted = null;
    }
  }
  if (!wanted) return null;
  const rows = await client
    .resource('user')
    .list({ conditions: [{ key: 'userName', operator: 'EQ', value: wanted }], sort: false, page: 0, size: 5 })
    .catch(() => null);
  const me = rows?.results.map((r) => personOf(r)).find((u) => u?.userName?.toLowerCase() === wanted.toLowerCase());
  // A user name the users list cannot confirm (a role without that list) is taken as given.
  if (rows && !me) return null;
  return { userName: me?.userName ?? wanted, name: me?.name ?? wanted };
}

/** A user record that may sign in: not a customer (nor a bot or the system), with a user name. */
function signer(r: unknown): UserRef | null {
  const p = personOf(r);
  if (!p?.userName || (p.role !== null && p.role !== 'agent')) return null;
  return { userName: p.userName, name: p.name ?? p.userName };
}

/**
 * Everyone who may be the person signing in, for the "who are you" list: every user the service
 * lists but its customers (supervisors and administrators too), and every attendant of the
 * agents list (bots left out; a role that may not read the users list still finds itself there),
 * matched on name and user name.
 */
export async function people(client: ServiceClient, search: string): Promise<UserRef[]> {
  const q = search.trim().toLowerCase();
  const out = new Map<string, UserRef>();
  const add = (u: UserRef | null) => {
    if (!u || out.has(u.userName.toLowerCase())) return;
    if (q && !u.name.toLowerCase().includes(q) && !u.userName.toLowerCase().includes(q)) return;
    out.set(u.userName.toLowerCase(), u);
  };
  const [users, agents] = await Promise.allSettled([
    client
      .resource('user')
      .collect({ conditions: [{ key: 'typeUser', operator: 'NEQ', value: 'CUSTOMER' }], sort: false, size: 500 }, { cap: 2_000 }),
    readAgents(client),
  ]);
  if (users.status === 'rejected' && agents.status === 'rejected') throw users.reason;
  if (users.status === 'fulfilled') for (const r of users.value.records) add(signer(r));
  if (agents.status === 'fulfilled')
    for (const a of agents.value) if (!a.virtual && a.userName) add({ userName: a.userName, name: a.name ?? a.userName });
  return [...out.values()].sort((x, y) => x.name.localeCompare(y.name)).slice(0, 50);
}

/** A short-lived client of an open workspace (the identity calls; the features keep their own). */
export function openClient(rt: WorkspaceRuntime, log: Logger): ServiceClient {
  const baseUrl = rt.baseUrl;
  if (!baseUrl) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
  return createServiceClient({ baseUrl, getToken: async () => rt.vault.get('token'), log });
}
