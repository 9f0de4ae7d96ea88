import { join } from 'node:path';
import type { z } from 'zod';
import { KB_FILE_MAX_BYTES, type ReportQuerySchema, type ShortcutState, type TicketView } from '../../../src-shared/bridge/supervisor';
import { AppError, isAppError } from '../../../src-shared/errors';
import { isTemporary } from '../../../src-shared/error-kinds';
import { RESOURCE_SCHEMAS } from '../../../src-shared/schemas/resources';
import { droppedField } from '../../../src-shared/schemas/common';
import { withoutHidden } from '../../../src-shared/secret-fields';
import type { Session } from '../../../src-shared/schemas/index';
import type { Condition } from '../../../src-shared/query';
import { readAgentList } from '../agents';
import type { Feature, FeatureContext } from '../context';
import type { OfflineFeature } from '../offline';
import type { LentFile } from '../../webhooks';
import { checkAccelerator, DEFAULT_TICKET_SHORTCUT } from './accelerator';
import { KbTracker } from './kb';
import { FiguresReader, npsBreakdown, SurveyAnswersReader } from './figures';
import { knownBases, rememberBase } from '../kb-known';
import { TicketCache } from './ticket-cache';
import {
  assigneeFromSession,
  groupsOverview,
  npsConditions,
  readRules,
  reportConditions,
  reportTotals,
  toExplorerRow,
  toNpsResult,
  toReportRow,
  toTicketView,
} from './views';
import { hasMultiValueIn, splitMultiValueIn, eqNum } from '../../../src-shared/query-builder';
import { Skips } from '../../../src-shared/unreadable';

const SHORTCUT_SETTING = 'supervisor.ticketShortcut';
const TOTALS_CAP = 20_000;
const EXPORT_CAP = 50_000;

/** Supervisor tools: every handler asks the service through the context's client. */
export interface SupervisorDeps {
  /** Keeps the attendant's rules for the first view of the next start. */
  offline: Pick<OfflineFeature, 'kept'>;
  /** Lends a file to the service: the address it reads it from (the live feature's listener), and the end of the loan. */
  shareFile(name: string, bytes: Buffer): LentFile;
}

type Handlers = Feature<'supervisor'>['handlers'];

export function createSupervisorFeature(ctx: FeatureContext, deps: SupervisorDeps): Feature<'supervisor'> {
  const kb = new KbTracker({
    client: () => ctx.client(),
    emit: (base) => ctx.events.emit('supervisor:kb', base),
    remember: (name) => rememberBase(ctx.settings, name),
  });
  const figures = new FiguresReader(() => ctx.client());
  const answers = new SurveyAnswersReader(() => ctx.client());
  return {
    async stop() {
      kb.reset();
      figures.reset();
      answers.reset();
    },
    handlers: {
      ...ticketHandlers(ctx, deps),
      ...reportHandlers(ctx, figures, answers),
      ...explorerHandlers(ctx),
      ...kbHandlers(ctx, deps, kb),
    },
  };
}

const shortcutOf = (ctx: FeatureContext): ShortcutState => {
  const stored = ctx.settings.get(SHORTCUT_SETTING);
  const checked = stored === null ? null : checkAccelerator(stored);
  return { accelerator: checked?.ok ? checked.accelerator : DEFAULT_TICKET_SHORTCUT, defaultAccelerator: DEFAULT_TICKET_SHORTCUT };
};

/** Best effort: a ticket without its session's attendant is still worth showing. */
async function sessionAssignee(ctx: FeatureContext, sessionId: number): Promise<string | null> {
  try {
    const page = await ctx
      .client()
      .resource('userSession')
      .list({
        conditions: [eqNum('id', sessionId)],
        sort: false,
        page: 0,
        size: 1,
      });
    return assigneeFromSession(page.results[0]);
  } catch {
    return null;
  }
}

/** The attendant's rules, ticket lookup (with the account's recent tickets) and its shortcut. */
function ticketHandlers(
  ctx: FeatureContext,
  deps: SupervisorDeps,
): Pick<
  Handlers,
  'supervisor:rules' | 'supervisor:ticket' | 'supervisor:recentTickets' | 'supervisor:ticketShortcut' | 'supervisor:setTicketShortcut'
> {
  // Recent tickets are the account's: the next one to sign in here has its own.
  const tickets = new TicketCache(join(ctx.accountDir, 'supervisor', 'tickets.json'), (m) => ctx.log.warn(m));
  async function lookup({ idOrKey }: { idOrKey: string }): Promise<TicketView> {
    const client = ctx.client();
    const asked = idOrKey.trim().replace(/^#/, '');
    try {
      const view = toTicketView(await client.ticket(asked), new Date(ctx.clock.now()).toISOString());
      if (view.assignee === null && view.sessionId !== null) view.assignee = await sessionAssignee(ctx, view.sessionId);
      await tickets.put(asked, view);
      return view;
    } catch (e) {
      // A stored copy is better than nothing when the service did not answer, or not yet.
      if (!isAppError(e) || !isTemporary(e)) throw e;
      const cached = await tickets.find(asked);
      if (!cached) throw e;
      return { ...cached, source: 'cache', notice: e.message };
    }
  }
  const shortcut = () => shortcutOf(ctx);
  return {
    'supervisor:rules': async () => {
      try {
        return await deps.offline.kept('supervisor:rules', async () => readRules(await ctx.client().userRules()));
      } catch (e) {
        // Unknown rules are not an error: the service then decides each call itself (403).
        if (isAppError(e) && e.kind !== 'Unauthorized') return { role: null, rules: null };
        throw e;
      }
    },
    'supervisor:ticket': lookup,
    'supervisor:recentTickets': async () => {
      if (!ctx.hasWorkspace()) return { tickets: [] };
      const list = await tickets.recent();
      return { tickets: list.map((t) => ({ ...t, source: 'cache' as const, notice: null })) };
    },
    'supervisor:ticketShortcut': async () => shortcut(),
    'supervisor:setTicketShortcut': async ({ accelerator }) => {
      const checked = checkAccelerator(accelerator);
      if (!checked.ok) throw new AppError({ kind: 'Invalid', message: checked.reason, field: 'accelerator' });
      ctx.settings.set(SHORTCUT_SETTING, checked.accelerator);
      const state = shortcut();
      ctx.events.emit('supervisor:ticketShortcut', state);
      return state;
    },
  };
}

const reportQuery = (q: z.infer<typeof ReportQuerySchema>) => ({
  conditions: reportConditions(q.filter),
  sort: q.sortColumn !== undefined,
  ...(q.sortColumn ? { sortColumn: q.sortColumn, direction: q.direction } : {}),
});

/** Reports, figures, surveys and the groups overview: read from the service as asked. */
function reportHandlers(
  ctx: FeatureContext,
  figures: FiguresReader,
  answers: SurveyAnswersReader,
): Pick<
  Handlers,
  | 'supervisor:nps'
  | 'supervisor:report'
  | 'supervisor:reportAll'
  | 'supervisor:figures'
  | 'supervisor:npsBreakdown'
  | 'supervisor:surveyAnswers'
  | 'supervisor:groups'
> {
  return {
    'supervisor:nps': async (q) => {
      const s = await ctx.client().npsSummary(q.surveyName, { conditions: npsConditions(q), sort: false });
      return toNpsResult(q.surveyName, s, new Date(ctx.clock.now()).toISOString());
    },
    'supervisor:report': async (q) => {
      const resource = ctx.client().resource('attendanceTimeReport');
      const body = reportQuery(q);
      const [page, all] = await Promise.all([
        resource.list({ ...body, page: q.page, size: q.size }),
        resource.collect(body, { cap: TOTALS_CAP }),
      ]);
      const rows = page.results.map(toReportRow);
      return {
        rows,
        page: q.page,
        size: q.size,
        hasMore: (q.page + 1) * q.size < all.records.length || all.truncated,
        totals: reportTotals(all.records.map(toReportRow), all.truncated),
      };
    },
    'supervisor:reportAll': async (q) => {
      const all = await ctx.client().resource('attendanceTimeReport').collect(reportQuery(q), { cap: EXPORT_CAP });
      return { rows: all.records.map(toReportRow), truncated: all.truncated };
    },
    'supervisor:figures': (q) => figures.read(q),
    'supervisor:npsBreakdown': (q) => npsBreakdown(ctx.client(), q),
    'supervisor:surveyAnswers': (q) => answers.read(q),
    'supervisor:groups': async () => {
      const client = ctx.client();
      const [sessions, agents] = await Promise.all([
        client
          .resource('userSession')
          .collect({ conditions: [{ key: 'status', operator: 'NEQ', value: 'CLOSED' }], sort: false }, { cap: TOTALS_CAP }),
        readAgentList(client),
      ]);
      const unread = new Skips();
      unread.addAll({ count: sessions.skipped, first: sessions.first });
      unread.addAll(agents.unreadable);
      const view = groupsOverview(sessions.records, agents.agents, ctx.clock.now(), sessions.truncated, unread.summary());
      if (view.unreadable.count) ctx.log.warn('groups view: records not shown', { ...view.unreadable });
      return view;
    },
  };
}

/** The resource explorer: a query as the user wrote it, and a record saved once it fits its schema. */
function explorerHandlers(ctx: FeatureContext): Pick<Handlers, 'supervisor:explore' | 'supervisor:save'> {
  return {
    'supervisor:explore': async (q) => {
      // The user's query as written; the split reading on request (what some servers need).
      const conditions = q.split ? splitMultiValueIn(q.conditions) : q.conditions;
      const got = await ctx
        .client()
        .resource(q.resource)
        .list({
          conditions,
          sort: q.sortColumn !== undefined,
          ...(q.sortColumn ? { sortColumn: q.sortColumn, direction: q.direction } : {}),
          page: q.page,
          size: q.size,
        })
        .catch((e: unknown) => {
          throw explainRefusedQuery(e, conditions);
        });
      const n = got.results.length + got.skipped;
      // The server may honour a smaller size than asked: a full page of its size means more may follow.
      const full = Math.min(q.size, got.size > 0 ? got.size : q.size);
      return {
        results: ctx.client().time.read(() => got.results.map(toExplorerRow)),
        page: q.page,
        size: q.size,
        hasMore: n > 0 && n >= full,
        unreadable: { count: got.skipped, first: got.first },
        emptyMultiValueIn: n === 0 && !q.split && hasMultiValueIn(q.conditions),
      };
    },
    'supervisor:save': async ({ resource, record: edited }) => {
      // A secret the explorer showed as hidden and the user left alone stays as the service has it.
      const record = withoutHidden(edited);
      const parsed = RESOURCE_SCHEMAS[resource].safeParse(record);
      const dropped = parsed.success ? droppedField(record, parsed.data) : null;
      if (!parsed.success || dropped) {
        const issue = parsed.success ? undefined : parsed.error.issues[0];
        const field = dropped ?? (issue?.path.map(String).join('.') || '(record)');
        const why = dropped ? 'not of the type the interface gives it' : (issue?.message ?? 'invalid');
        throw new AppError({ kind: 'Invalid', message: `The record does not fit the ${resource} schema: ${field}: ${why}.`, field });
      }
      const client = ctx.client();
      // The session save takes no agent (interface §4.3): saveSession strips it.
      const saved =
        resource === 'userSession' ? await client.saveSession(parsed.data as Session) : await client.resource(resource).save(parsed.data);
      return { record: saved };
    },
  };
}

/** Knowledge bases: the known ones, uploads (a file lent through the listener) and questions. */
function kbHandlers(
  ctx: FeatureContext,
  deps: SupervisorDeps,
  kb: KbTracker,
): Pick<Handlers, 'supervisor:kbList' | 'supervisor:kbUpload' | 'supervisor:kbUploadFile' | 'supervisor:kbAsk'> {
  return {
    'supervisor:kbList': async () => ({ bases: kb.list(), known: knownBases(ctx.settings, ctx.isDemo()).bases }),
    'supervisor:kbUpload': (input) => kb.upload(input),
    'supervisor:kbUploadFile': async ({ fileName, contentBase64, ...rest }) => {
      const bytes = Buffer.from(contentBase64, 'base64');
      if (bytes.length > KB_FILE_MAX_BYTES) {
        throw new AppError({
          kind: 'Invalid',
          field: 'file',
          message: `${fileName} is larger than ${KB_FILE_MAX_BYTES / 1024 / 1024} MB: give a link to it instead.`,
        });
      }
      if (bytes.length === 0) throw new AppError({ kind: 'Invalid', field: 'file', message: `${fileName} is empty.` });
      return kb.upload({ ...rest, lent: deps.shareFile(fileName, bytes), shownAs: fileName });
    },
    'supervisor:kbAsk': async ({ name, question, size }) => {
      try {
        const answers = await ctx.client().questions({ index: name, question, size });
        return { answers: answers.map((a) => ({ text: a.text, score: a.score })) };
      } catch (e) {
        if (isAppError(e) && e.kind === 'NotFound') {
          throw new AppError({
            kind: 'NotFound',
            status: 404,
            message: `The knowledge base ${name} has no answers yet (404): it does not exist or is still being indexed.`,
          });
        }
        throw e;
      }
    },
  };
}

/** Text comparisons the service may refuse on numeric fields (integrators report EQ on ids failing). */
const TEXT_ON_NUMBER: Record<string, string> = { EQ: 'EQNUM', NEQ: 'NEQNUM' };
const looksNumeric = (key: string) => /(^|\.)id$|Id$/.test(key);

/**
 * A query the service refused (400 or a 5xx) that compares an id as text: says so and names the
 * numeric operator, instead of "the service is unavailable".
 */
export function explainRefusedQuery(e: unknown, conditions: readonly Condition[]): unknown {
  if (!isAppError(e)) return e;
  const status = e.info.status ?? 0;
  if (!(e.kind === 'Invalid' || status >= 500)) return e;
  const suspects: string[] = [];
  const walk = (cs: readonly Condition[]) => {
    for (const c of cs) {
      const better = c.operator ? TEXT_ON_NUMBER[c.operator] : undefined;
      if (better && c.key && looksNumeric(c.key)) suspects.push(`${c.key} ${c.operator} → ${better}`);
      for (const nested of [c.and, c.or, c.conditions]) if (nested) walk(nested);
    }
  };
  walk(conditions);
  if (!suspects.length) return e;
  return new AppError(
    {
      kind: 'Invalid',
      ...(e.info.status !== undefined ? { status: e.info.status } : {}),
      message: `The service refused this filter${status ? ` (${status})` : ''}. Numeric ids are compared with the number operators: try ${suspects.join(', ')}.`,
    },
    { cause: e },
  );
}
