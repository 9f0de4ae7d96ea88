/**
 * The stand-in's route table: which method and path run what, for which roles (README: role
 * table). Exact paths come from src-shared/paths.ts; the few paths with a parameter are matched
 * by pattern. Business rules live in model.ts; a route only reads the request and calls it.
 */
import type { IncomingMessage } from 'node:http';
import type { MediaFetcher } from './media-fetch';
import { z } from 'zod';
import { AI, RESOURCES, RESOURCE_KEYS, TICKET, V2, V2_OPS, VOICE, type ResourceKey, type Role } from '../src-shared/paths';
import type { AiMount } from './ai-mount';
import type { CollectionName } from './fields';
import type { Faults, FaultRule } from './faults';
import { FaultRulesSchema } from './faults';
import { ApiError, type Actor } from './api-error';
import type { Model } from './model';
import type { Rec } from './query-engine';
import type { Reading, WireShape } from './reading';
import type { Simulator } from './simulator';
import { HookInputSchema, type WebhookHub } from './webhooks';
import { mediaFile } from './media';

export type Family = 'v2' | 'ticket' | 'ai' | 'control';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string | object;
  /** What the body holds, for the reading that puts it on the wire. */
  wire?: WireShape;
}

export interface Ctx {
  actor: Actor;
  body: unknown;
  raw: Buffer;
  params: string[];
  req: IncomingMessage;
  method: string;
  path: string;
  /** The fault rule that applied to this request and let it through (e.g. keepsAgent). */
  fault: FaultRule | null;
}

export interface Route {
  family: Family;
  roles: readonly Role[];
  /** The body is JSON (content type checked, parsed before `run`). */
  json: boolean;
  run(ctx: Ctx): Promise<Reply> | Reply;
}

export interface ServerDeps {
  model: Model;
  hub: WebhookHub;
  faults: Faults;
  ai: AiMount;
  simulator: Simulator;
  /** Attendants' files read from their URLs (media-fetch.ts). */
  fetcher: MediaFetcher;
  reading: Reading;
}

/** The route of a path, or the methods it allows (405), or nothing (404). */
export type Resolved = { route: Route; params: string[] } | { allow: string[] } | null;

const ALL: readonly Role[] = ['agent', 'supervisor', 'admin'];
const CONFIG: readonly Role[] = ['supervisor', 'admin'];
const ADMIN: readonly Role[] = ['admin'];

/**
 * Who may save what (README: role table). Lists and lookups are open to every role; agent/save is
 * open at the gate and narrowed in the handler (an agent may set its own status only).
 */
export const SAVE_ROLES: Record<ResourceKey, readonly Role[]> = {
  userSession: ALL,
  message: ALL,
  sessionComment: ALL,
  botTag: ALL,
  botAnswer: ALL,
  chatAnswer: ALL,
  call: ALL,
  callLogHistory: ALL,
  classificationService: ALL,
  userAttribute: ALL,
  userAttributeHistory: ALL,
  agent: ALL,
  messageBundleGroup: CONFIG,
  hsmTemplate: CONFIG,
  hsmTemplateGroup: CONFIG,
  holidayOperation: CONFIG,
  workSchedule: CONFIG,
  classification: CONFIG,
  bot: CONFIG,
  attribute: CONFIG,
  chatWebConfiguration: CONFIG,
  user: ADMIN,
  userAgent: ADMIN,
  cognition: ADMIN,
  attendanceTimeReport: ADMIN,
  pauseReason: ADMIN,
  directMessage: ADMIN,
};

export function familyOf(path: string): Family | null {
  if (path === V2 || path.startsWith(`${V2}/`)) return 'v2';
  if (path.startsWith(`${TICKET}/`)) return 'ticket';
  if (path.startsWith(`${AI}/`) || path.startsWith(`${VOICE}/`)) return 'ai';
  if (path.startsWith('/__standin/')) return 'control';
  return null;
}

const v2 = (roles: readonly Role[], run: Route['run']): Route => ({ family: 'v2', roles, json: true, run });
const control = (run: Route['run']): Route => ({ family: 'control', roles: ADMIN, json: true, run });

const issuesText = (error: z.ZodError, root = ''): string =>
  error.issues.map((i) => `${i.path.join('.') || root}: ${i.message}`).join('; ');

/** Exact paths: a method table per path. A path the reading does not have is left out. */
class ExactRoutes {
  readonly #byPath = new Map<string, Map<string, Route>>();

  constructor(readonly absent: ReadonlySet<string>) {}

  add(method: string, path: string, route: Route): void {
    if (this.absent.has(path)) return;
    const m = this.#byPath.get(path) ?? new Map<string, Route>();
    m.set(method, route);
    this.#byPath.set(path, m);
  }

  resolve(method: string, path: string): Resolved | undefined {
    const m = this.#byPath.get(path);
    if (!m) return undefined;
    const r = m.get(method);
    return r ? { route: r, params: [] } : { allow: [...m.keys()] };
  }
}

function checkAgentSave(body: unknown, actor: Actor): void {
  if (actor.role === 'admin') return;
  const b = body as Rec | null;
  const keys = b && typeof b === 'object' ? Object.keys(b) : [];
  const statusOnly = keys.every((k) => k === 'id' || k === 'status') && typeof b?.id === 'number' && 'status' in (b ?? {});
  if (!statusOnly) throw new ApiError(403, 'Only an administrator may save agents; others may change an agent status.');
  const own = (actor.user.agent as Rec | null | undefined)?.id;
  if (actor.role === 'agent' && b?.id !== own) throw new ApiError(403, 'An agent may change its own status only.');
}

function listRoute({ model, reading }: ServerDeps, coll: CollectionName): Route {
  return v2(ALL, ({ body, actor }) => ({
    status: 200,
    body: model.list(coll, reading.queryIn(coll, body), actor.role, reading.maxPageSize, reading.listOrder?.(coll)),
    wire: { kind: 'page', coll },
  }));
}

function uniqueRoute({ model, reading }: ServerDeps, coll: 'group' | 'userSession'): Route {
  return v2(ALL, ({ body, actor }) => ({
    status: 200,
    body: model.present(coll, model.unique(coll, reading.queryIn(coll, body)), actor.role),
    wire: { kind: 'record', coll },
  }));
}

function saveRoute({ model, reading }: ServerDeps, key: ResourceKey): Route {
  const coll = key as CollectionName;
  return v2(SAVE_ROLES[key], ({ body: raw, actor, fault }) => {
    const body = reading.saveIn(coll, raw);
    if (key === 'agent') checkAgentSave(body, actor);
    const keepsAgent = fault?.kind === 'keepsAgent' ? (fault.keepsAgent ?? 'unlessTold') : undefined;
    const refusesMedia = fault?.kind === 'refusesMedia';
    const { status, rec } = model.save(coll, body, actor, { keepsAgent, refusesMedia });
    if (key === 'userSession')
      return { status, body: model.presentSessionPayload(rec, actor.role), wire: { kind: 'record', coll, omit: ['agent', 'user'] } };
    return { status, body: model.present(coll, rec, actor.role), wire: { kind: 'record', coll } };
  });
}

function saveUserAsRoute({ model, reading }: ServerDeps, kind: 'AGENT' | 'SUPERVISOR' | 'ADMINISTRATOR'): Route {
  return v2(ADMIN, ({ body, actor }) => {
    const { status, rec } = model.saveUserAs(kind, reading.saveIn('user', body), actor);
    return { status, body: model.present('user', rec, actor.role), wire: { kind: 'record', coll: 'user' } };
  });
}

/** Each resource's list and save, and the v2 operations beside them. */
function addV2Routes(routes: ExactRoutes, deps: ServerDeps): void {
  const { model } = deps;
  for (const key of RESOURCE_KEYS) {
    const { list, save } = RESOURCES[key];
    if (list) routes.add('POST', `${V2}${list}`, listRoute(deps, key));
    if (save) routes.add('POST', `${V2}${save}`, saveRoute(deps, key));
  }
  routes.add('POST', `${V2}${V2_OPS.chatSuggestion}`, listRoute(deps, 'chatSuggestion'));
  routes.add('POST', `${V2}${V2_OPS.groupsUnique}`, uniqueRoute(deps, 'group'));
  routes.add('POST', `${V2}${V2_OPS.sessionUnique}`, uniqueRoute(deps, 'userSession'));
  routes.add('POST', `${V2}${V2_OPS.saveAgentSupervisor}`, saveUserAsRoute(deps, 'SUPERVISOR'));
  routes.add('POST', `${V2}${V2_OPS.saveAgentUser}`, saveUserAsRoute(deps, 'AGENT'));
  routes.add('POST', `${V2}${V2_OPS.saveAdministrator}`, saveUserAsRoute(deps, 'ADMINISTRATOR'));
  routes.add(
    'POST',
    `${V2}${V2_OPS.userRules}`,
    v2(ALL, ({ body, actor }) => ({ status: 200, body: model.rules(body, actor) })),
  );
  routes.add(
    'POST',
    `${V2}${V2_OPS.userChannels}`,
    v2(ALL, ({ body, actor }) => ({ status: 200, body: model.channels(body, actor) })),
  );
}

/** Webhook registration (stand-in only). */
function addHookRoutes(routes: ExactRoutes, { hub }: ServerDeps): void {
  routes.add(
    'GET',
    `${V2}/hook`,
    v2(ALL, () => {
      const results = hub.list();
      return { status: 200, body: { page: 0, size: results.length, results } };
    }),
  );
  routes.add(
    'POST',
    `${V2}/hook`,
    v2(ALL, ({ body }) => {
      const parsed = HookInputSchema.safeParse(body);
      if (!parsed.success) throw new ApiError(400, `Invalid hook: ${issuesText(parsed.error, '(body)')}`, 'INVALID_BODY');
      return { status: 201, body: hub.register(parsed.data) };
    }),
  );
}

const SimulatorBody = z.object({ enabled: z.boolean(), intervalMs: z.number().int().min(50).optional() });

/** Out-of-process control of faults and the simulator (admin token only). */
function addControlRoutes(routes: ExactRoutes, { faults, simulator, fetcher }: ServerDeps): void {
  routes.add(
    'GET',
    '/__standin/faults',
    control(() => ({ status: 200, body: { rules: faults.list() } })),
  );
  routes.add(
    'POST',
    '/__standin/faults',
    control(({ body }) => {
      const parsed = z.object({ rules: FaultRulesSchema }).safeParse(body);
      if (!parsed.success) throw new ApiError(400, `Invalid fault rules: ${issuesText(parsed.error)}`, 'INVALID_BODY');
      faults.set(parsed.data.rules);
      return { status: 200, body: { rules: faults.list() } };
    }),
  );
  routes.add(
    'DELETE',
    '/__standin/faults',
    control(() => {
      faults.clear();
      return { status: 204 };
    }),
  );
  routes.add(
    'POST',
    '/__standin/simulator',
    control(({ body }) => {
      const parsed = SimulatorBody.safeParse(body);
      if (!parsed.success) throw new ApiError(400, 'Body must be {enabled: boolean, intervalMs?: integer >= 50}.', 'INVALID_BODY');
      if (parsed.data.intervalMs !== undefined) simulator.setInterval(parsed.data.intervalMs);
      if (parsed.data.enabled) simulator.start();
      else simulator.stop();
      return { status: 200, body: { enabled: simulator.running } };
    }),
  );
  // What the stand-in, as a provider, read of the attendants' files: size and hash, or why not.
  routes.add(
    'GET',
    '/__standin/media-fetches',
    control(() => ({ status: 200, body: { fetches: fetcher.list() } })),
  );
  routes.add(
    'POST',
    '/__standin/simulator/step',
    control(async () => {
      await simulator.step();
      return { status: 200, body: { stepped: true } };
    }),
  );
}

/** The AI and voice families are passed whole to the AI service (loaded on first use). */
function aiRoute({ ai }: ServerDeps, roles: readonly Role[]): Route {
  return {
    family: 'ai',
    roles,
    json: false,
    run: async ({ req, raw, method, path }) => {
      const svc = await ai.get();
      if (!svc) return { status: 503, body: { status: 'ERROR', message: 'AI service not loaded' } };
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const r = await svc.handle({ method, path, headers, body: raw });
      return { status: r.status, ...(r.headers ? { headers: r.headers } : {}), ...(r.body !== undefined ? { body: r.body } : {}) };
    },
  };
}

/** The paths that carry one parameter, each with the one method it answers. */
function patternRoutes({ model, hub }: ServerDeps): Array<[RegExp, string, Route]> {
  const ticketRoute: Route = {
    family: 'ticket',
    roles: ALL,
    json: false,
    run: ({ params }) => ({ status: 200, body: model.presentTicket(model.ticket(params[0] ?? '')) }),
  };
  const hookDelete: Route = v2(ALL, ({ params }) => {
    const id = Number(params[0]);
    if (!Number.isSafeInteger(id) || !hub.remove(id)) throw new ApiError(404, 'No such hook.');
    return { status: 204 };
  });
  // A media message's bytes (src-standin/media.ts): GET, with the token like every v2 path.
  const mediaRoute: Route = {
    family: 'v2',
    roles: ALL,
    json: false,
    run: ({ params }) => {
      const file = mediaFile(params[0] ?? '');
      return file ? { status: 200, headers: { 'content-type': file.contentType }, body: file.body } : { status: 404 };
    },
  };
  const npsRoute = v2(ALL, ({ params, body }) => ({ status: 200, body: model.npsSummary(params[0] ?? '', body) }));
  return [
    [/^\/chatapi\/1\.0\/api\/v2\/user-session\/survey\/nps-summary\/([^/]+)$/, 'POST', npsRoute],
    [/^\/chatapi\/1\.0\/api\/v2\/hook\/([^/]+)$/, 'DELETE', hookDelete],
    [/^\/ticketapi\/1\.0\/api\/v1\/tickets\/([^/]+)$/, 'GET', ticketRoute],
    [/^\/chatapi\/1\.0\/api\/v2\/media\/([^/]+)$/, 'GET', mediaRoute],
  ];
}

function resolvePattern(patterns: Array<[RegExp, string, Route]>, method: string, path: string): Resolved | undefined {
  for (const [re, verb, route] of patterns) {
    const hit = re.exec(path);
    if (!hit) continue;
    if (method !== verb) return { allow: [verb] };
    try {
      return { route, params: [decodeURIComponent(hit[1] ?? '')] };
    } catch {
      return null;
    }
  }
  return undefined;
}

/** The stand-in's routes: resolve a method and path to its route. */
export function createRouter(deps: ServerDeps): (method: string, path: string) => Resolved {
  const exact = new ExactRoutes(deps.reading.absentPaths);
  addV2Routes(exact, deps);
  addHookRoutes(exact, deps);
  addControlRoutes(exact, deps);
  const patterns = patternRoutes(deps);
  const aiAll = aiRoute(deps, ALL);
  const aiUpload = aiRoute(deps, ADMIN);
  return (method, path) => {
    const found = exact.resolve(method, path) ?? resolvePattern(patterns, method, path);
    if (found !== undefined) return found;
    if (familyOf(path) === 'ai') return { route: path === `${AI}/upload_files` ? aiUpload : aiAll, params: [] };
    return null;
  };
}
