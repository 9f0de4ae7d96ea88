import { AppError, isAppError } from '../../../src-shared/errors';
import { isUnreachable } from '../../../src-shared/error-kinds';
import { personOf, record, text } from '../../../src-shared/concepts';
import type { Logger } from '../../log';
import { createServiceClient, type ServiceClient } from '../../service';
import type { Settings } from '../../settings';
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

/** Attendants to pick from: the agents list (bots left out), matched on name and user name. */
export async function people(client: ServiceClient, search: string): Promise<UserRef[]> {
  const q = search.trim().toLowerCase();
  const out = new Map<string, UserRef>();
  for (const a of await readAgents(client)) {
    const userName = a.userName;
    if (a.virtual || !userName) continue;
    const name = a.name ?? userName;
    if (q && !name.toLowerCase().includes(q) && !userName.toLowerCase().includes(q)) continue;
    out.set(userName, { userName, name });
  }
  return [...out.values()].sort((x, y) => x.name.localeCompare(y.name)).slice(0, 50);
}

/** A short-lived client of an open workspace (the identity calls; the features keep their own). */
export function openClient(rt: WorkspaceRuntime, log: Logger): ServiceClient {
  const baseUrl = rt.baseUrl;
  if (!baseUrl) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
  return createServiceClient({ baseUrl, getToken: async () => rt.vault.get('token'), log });
}

/** The attendant chosen for a service address, remembered for the next sign-in there. */
export function rememberedUser(settings: Settings, baseUrl: string): UserRef | null {
  return settings.get('users')[baseUrl] ?? null;
}

export function rememberUser(settings: Settings, baseUrl: string, user: UserRef): void {
  settings.set('users', { ...settings.get('users'), [baseUrl]: user });
}
