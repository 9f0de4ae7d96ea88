import type { AgentInfo, Directory, GroupInfo, PauseReasonInfo } from '../../../src-shared/bridge/attendance';
import { AppError, isAppError } from '../../../src-shared/errors';
import type { HandlerTable } from '../../bridge/table';
import type { ServiceClient } from '../../service';
import { agentPerson, readAgents } from '../agents';
import type { FeatureContext } from '../context';
import type { OfflineFeature } from '../offline';
import type { GroupRegistry } from './groups';
import { idOf, personOf, samePerson, text as str, type PersonRef } from '../../../src-shared/concepts';
import { noneOf, eqNum } from '../../../src-shared/query-builder';
import { lacking, Skips, type Unreadable } from '../../../src-shared/unreadable';
import { toAgentInfo, toGroupInfo, toPauseReason } from './project';

/**
 * Who and what the attendant works with: groups (for transfer and SLA), fellow attendants,
 * pause reasons, and the attendant's own user and agent records (for status and wrap-up).
 */

export interface Me {
  userName: string;
  userId: number | null;
  agentId: number | null;
  status: string | null;
}

export class DirectoryCache {
  #me: Me | null = null;
  #groupsDone = false;
  #groupsRead: Promise<void> | null = null;
  #pauseReasons: { reasons: PauseReasonInfo[]; unreadable: Unreadable } | null = null;

  readonly #ctx: FeatureContext;
  readonly #groups: GroupRegistry;
  constructor(ctx: FeatureContext, groups: GroupRegistry) {
    this.#ctx = ctx;
    this.#groups = groups;
  }

  reset(): void {
    this.#me = null;
    this.#groupsDone = false;
    this.#groupsRead = null;
    this.#pauseReasons = null;
  }

  #client(): ServiceClient {
    return this.#ctx.client();
  }

  async whoAmI(): Promise<Me> {
    const userName = this.#ctx.me()?.userName;
    if (!userName) throw new AppError({ kind: 'Invalid', message: 'The console does not know your user name: sign in again and give it.' });
    if (this.#me?.userName === userName) return this.#me;
    const users = await this.#client()
      .resource('user')
      .list({ conditions: [{ key: 'userName', operator: 'EQ', value: userName }], sort: false, page: 0, size: 1 });
    const user = users.results.find((u) => samePerson(personOf(u), { id: null, userName, name: null, role: null })) ?? users.results[0];
    const userId = user?.id ?? null;
    const agentRef = typeof user?.agent === 'object' ? user.agent : null;
    let agentId = idOf(user?.agent);
    let status = str(agentRef?.status);
    if (agentId === null) {
      // The user record may not embed its agent: the agents list names its user.
      const agents = await readAgents(this.#client()).catch(() => []);
      const me = { id: userId, userName, name: null, role: null };
      const mine = agents.find((a) => samePerson(agentPerson(a), me));
      agentId = mine?.id ?? null;
      status = mine?.status ?? status;
    }
    this.#me = { userName, userId, agentId, status };
    return this.#me;
  }

  /** The attendant as a reference, with the user id once the service has told it. */
  async meRef(): Promise<PersonRef> {
    const userName = myName(this.#ctx);
    const me = await this.whoAmI().catch(() => null);
    return { id: me?.userId ?? null, userName, name: null, role: 'agent' };
  }

  setMyStatus(status: string): void {
    if (this.#me) this.#me.status = status;
  }

  /**
   * Groups: those seen in sessions, then the rest one lookup at a time (the v2 API lists none).
   * One enumeration at a time, shared by whoever asks meanwhile: two run side by side would each
   * find the other's groups and stop early, answering with part of the list.
   */
  async groups(): Promise<GroupInfo[]> {
    if (!this.#groupsDone) await (this.#groupsRead ??= this.#lookUpGroups().finally(() => (this.#groupsRead = null)));
    return [...this.#groups.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async #lookUpGroups(): Promise<void> {
    // Bounded: each lookup excludes every group known so far, so each answer is a new one.
    for (let i = 0; i < 200; i++) {
      const ids = [...this.#groups.values()].map((g) => g.id);
      let g: Awaited<ReturnType<ServiceClient['groupUnique']>>;
      try {
        g = await this.#client().groupUnique({
          // Never a multi-value NOT_IN: some servers answer those with nothing.
          conditions: ids.length ? [noneOf('id', ids)] : [],
          sort: true,
          sortColumn: 'id',
          direction: 'ASC',
        });
      } catch (e) {
        if (isAppError(e) && e.kind === 'NotFound') break;
        throw e;
      }
      const info = toGroupInfo(g);
      // One of those it was asked to leave out: the service ignored the condition, and asking
      // again would bring the same. (A group the sessions taught meanwhile is left out next time.)
      if (!info || ids.includes(info.id)) break;
      this.#groups.remember(info);
    }
    this.#groupsDone = true;
  }

  /**
   * A group's configuration. `complete`: read from groups/unique even when a copy is known, since
   * copies may come from session summaries that lack the classification settings.
   */
  async group(id: number, o: { complete?: boolean } = {}): Promise<GroupInfo | null> {
    const known = this.#groups.get(id);
    if (known && !o.complete) return known;
    try {
      const info = toGroupInfo(await this.#client().groupUnique({ conditions: [eqNum('id', id)], sort: false }));
      if (info) this.#groups.remember(info);
      return info;
    } catch (e) {
      if (isAppError(e) && e.kind === 'NotFound') return null;
      throw e;
    }
  }

  /** The fellow attendants (bots left out), by name. */
  async agents(): Promise<AgentInfo[]> {
    const out: AgentInfo[] = [];
    for (const a of await readAgents(this.#client())) {
      const info = toAgentInfo(a);
      if (info) out.push(info);
    }
    return out.sort((x, y) => x.name.localeCompare(y.name));
  }

  /** The active pause reasons, and those the console could not read (shown as such under the picker). */
  async pauses(): Promise<{ reasons: PauseReasonInfo[]; unreadable: Unreadable }> {
    if (!this.#pauseReasons) {
      const got = await this.#client()
        .resource('pauseReason')
        .collect({ conditions: [], sort: true, sortColumn: 'id', direction: 'ASC', size: 500 }, { cap: 1_000 });
      const skips = new Skips();
      skips.addAll({ count: got.skipped, first: got.first });
      const reasons: PauseReasonInfo[] = [];
      for (const r of got.records) {
        const info = toPauseReason(r);
        if (info) reasons.push(info);
        // An inactive reason is not offered, and not unreadable either.
        else if (r.active !== false) skips.add(lacking('pauseReason', r, r.id == null ? 'id' : 'value'));
      }
      skips.report(this.#ctx.log, 'pause reasons');
      this.#pauseReasons = { reasons, unreadable: skips.summary() };
    }
    return this.#pauseReasons;
  }

  async directory(): Promise<Directory> {
    const me = await this.whoAmI().catch(() => null);
    const [groups, agents, pauses] = await Promise.all([this.groups(), this.agents(), this.pauses()]);
    const mine = agents.find((a) => a.userName === me?.userName);
    if (me && mine?.status) me.status = mine.status;
    const reason = this.#ctx.settings.get('pauseReason');
    return {
      groups,
      agents: agents.filter((a) => a.userName !== me?.userName),
      pauseReasons: pauses.reasons,
      pauseReasonsUnreadable: pauses.unreadable,
      myStatus: me?.status ?? null,
      myPauseReason: me?.status === 'PAUSED' ? reason : null,
    };
  }
}

/** The attendant's user name on the service; an error saying so when the console does not know it. */
export function myName(ctx: FeatureContext): string {
  const me = ctx.me()?.userName;
  if (!me)
    throw new AppError({
      kind: 'Invalid',
      message: 'The console does not know who you are on the service: pick your attendant in the settings.',
    });
  return me;
}

type DirectoryChannel = 'attendance:directory' | 'attendance:pause' | 'attendance:resume';

/** The directory, and the attendant's own status: pause with a reason, resume. */
export function directoryHandlers(
  ctx: FeatureContext,
  directory: DirectoryCache,
  offline: OfflineFeature,
): Pick<HandlerTable, DirectoryChannel> {
  async function setStatus(status: string, reason: string | null) {
    const me = await directory.whoAmI();
    if (me.agentId === null) throw new AppError({ kind: 'NotFound', message: 'Your attendant record was not found on the service.' });
    await ctx.client().resource('agent').save({ id: me.agentId, status }, { safeToRetry: true });
    // The status is what the service then holds: read the agent record back.
    const back = await ctx
      .client()
      .resource('agent')
      .list({ conditions: [eqNum('id', me.agentId)], sort: false, page: 0, size: 1 });
    const held = back.results[0] ? str(back.results[0].status) : null;
    if (held !== null && held.toUpperCase() !== status) {
      directory.setMyStatus(held);
      throw new AppError({
        kind: 'Invalid',
        errorCode: 'NOT_APPLIED',
        message: `The service did not record your status: it still reads "${held}". Try again.`,
      });
    }
    directory.setMyStatus(status);
    if (reason) ctx.settings.set('pauseReason', reason);
    else ctx.settings.delete('pauseReason');
    // The next start's first view shows it too.
    offline.amendKept('attendance:directory', (d) => ({ ...d, myStatus: status, myPauseReason: reason }));
    return { status, reason };
  }

  return {
    'attendance:directory': () => offline.kept('attendance:directory', () => directory.directory()),
    'attendance:pause': async ({ reasonId }) => {
      const reason = (await directory.pauses()).reasons.find((p) => p.id === reasonId);
      if (!reason) throw new AppError({ kind: 'Invalid', message: 'That pause reason is not offered any more.' });
      return setStatus('PAUSED', reason.label);
    },
    'attendance:resume': () => setStatus('ONLINE', null),
  };
}
