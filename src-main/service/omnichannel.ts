import type { z } from 'zod';
import { pageEnvelope, type Read } from '../../src-shared/envelopes';
import { V2, V2_OPS } from '../../src-shared/paths';
import type { LookupBody } from '../../src-shared/query';
import { toLookupBody, toQueryBody, type QueryBuilder, type QueryInput } from '../../src-shared/query-builder';
import {
  ChatSuggestionSchema,
  GroupConfigurationSchema,
  NpsSummarySchema,
  SessionSchema,
  UserChannelsSchema,
  UserRulesSchema,
  UserSchema,
  type ChatSuggestion,
  type GroupConfiguration,
  type NpsSummary,
  type Session,
  type User,
  type UserChannels,
  type UserRules,
} from '../../src-shared/schemas/index';
import type { CallOptions, Core, WriteOptions } from './core';
import { readByPost } from './read-post';
import type { Page } from './resources';

/** The §4.3 operations and the v2 paths added in §4.4. */

export type LookupInput = QueryBuilder | Partial<LookupBody> | undefined;

/** Whose rules or channels: the caller's own when no userName is given. */
export interface UserTarget {
  userName?: string;
}

const ChatSuggestionPage = pageEnvelope(ChatSuggestionSchema, 'chatSuggestion');

export interface OmnichannelOps {
  chatSuggestions(query?: QueryInput, o?: CallOptions): Promise<Page<ChatSuggestion>>;
  npsSummary(surveyName: string, lookup?: LookupInput, o?: CallOptions): Promise<Read<NpsSummary>>;
  groupUnique(lookup: LookupInput, o?: CallOptions): Promise<Read<GroupConfiguration>>;
  sessionUnique(lookup: LookupInput, o?: CallOptions): Promise<Read<Session>>;
  /** v2 session save: the body carries no `agent` (§4.3), so it is stripped here. */
  saveSession(session: Session, o?: WriteOptions): Promise<Read<Session>>;
  saveAgentSupervisor(user: User, o?: WriteOptions): Promise<User>;
  saveAgentUser(user: User, o?: WriteOptions): Promise<User>;
  saveAdministrator(user: User, o?: WriteOptions): Promise<User>;
  userRules(target?: UserTarget, o?: CallOptions): Promise<UserRules>;
  userChannels(target?: UserTarget, o?: CallOptions): Promise<UserChannels>;
}

/** One lookup or listing of the v2 interface, read by `schema`. */
const read = <T>(
  core: Core,
  operation: string,
  action: string,
  path: string,
  json: unknown,
  schema: z.ZodType<T>,
  o: CallOptions,
  notFound?: string,
  size?: 'list' | 'record',
) => readByPost(core, operation, action, V2 + path, json, schema, o, notFound, size) as Promise<Read<T>>;

/** One save through the v2 interface (safe to retry only when the caller says so). */
const write = <T>(core: Core, operation: string, action: string, path: string, json: unknown, schema: z.ZodType<T>, o: WriteOptions) =>
  core.call<T>({
    operation,
    action,
    write: true,
    method: 'POST',
    path: V2 + path,
    json,
    answer: { kind: 'json', schema },
    safeToRetry: o.safeToRetry === true,
    signal: o.signal,
    timeoutMs: o.timeoutMs,
    notFound: 'The record to update no longer exists (404). Reload and try again.',
  }) as Promise<Read<T>>;

/** Lookups: reply suggestions, the NPS summary, a group, a session. */
function lookupOps(core: Core): Pick<OmnichannelOps, 'chatSuggestions' | 'npsSummary' | 'groupUnique' | 'sessionUnique'> {
  return {
    chatSuggestions: (q, o = {}) =>
      read(
        core,
        'chatSuggestion.list',
        'list reply suggestions',
        V2_OPS.chatSuggestion,
        toQueryBody(q),
        ChatSuggestionPage,
        o,
        undefined,
        'list',
      ),
    npsSummary: (surveyName, lookup, o = {}) =>
      read(
        core,
        'npsSummary',
        'read the NPS summary',
        V2_OPS.npsSummary(surveyName),
        toLookupBody(lookup),
        NpsSummarySchema,
        o,
        `There is no NPS survey named "${surveyName}" (404).`,
      ),
    groupUnique: (lookup, o = {}) =>
      read(
        core,
        'groups.unique',
        'look up attendance groups',
        V2_OPS.groupsUnique,
        toLookupBody(lookup),
        GroupConfigurationSchema,
        o,
        'No attendance group matches (404).',
      ),
    sessionUnique: (lookup, o = {}) =>
      read(
        core,
        'userSession.unique',
        'look up sessions',
        V2_OPS.sessionUnique,
        toLookupBody(lookup),
        SessionSchema,
        o,
        'No session matches (404).',
      ),
  };
}

/** Users: saves of sessions and people, and another user's rules and channels. */
function userOps(
  core: Core,
): Pick<OmnichannelOps, 'saveSession' | 'saveAgentSupervisor' | 'saveAgentUser' | 'saveAdministrator' | 'userRules' | 'userChannels'> {
  return {
    saveSession: (session, o = {}) => {
      const { agent: _agent, ...body } = session;
      return write(core, 'userSession.save', 'save sessions', '/user-session/save', body, SessionSchema, o);
    },
    saveAgentSupervisor: (user, o = {}) =>
      write(core, 'users.saveAgentSupervisor', 'save supervisors', V2_OPS.saveAgentSupervisor, user, UserSchema, o),
    saveAgentUser: (user, o = {}) => write(core, 'users.saveAgent', 'save agents', V2_OPS.saveAgentUser, user, UserSchema, o),
    saveAdministrator: (user, o = {}) =>
      write(core, 'users.saveAdministrator', 'save administrators', V2_OPS.saveAdministrator, user, UserSchema, o),
    userRules: (target = {}, o = {}) =>
      read(
        core,
        'users.rules',
        "read other users' rules",
        V2_OPS.userRules,
        target,
        UserRulesSchema,
        o,
        `There is no user "${target.userName ?? ''}" (404).`,
      ),
    userChannels: (target = {}, o = {}) =>
      read(
        core,
        'users.channels',
        "read other users' channels",
        V2_OPS.userChannels,
        target,
        UserChannelsSchema,
        o,
        `There is no user "${target.userName ?? ''}" (404).`,
      ),
  };
}

export function createOmnichannelOps(core: Core): OmnichannelOps {
  return { ...lookupOps(core), ...userOps(core) };
}
