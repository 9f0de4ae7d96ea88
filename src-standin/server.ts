/**
 * The HTTP face of the stand-in: routing, bearer auth, the role table, fault injection and the
 * answer shapes of each family (interface §5, §7; README: errors). Business rules live in
 * model.ts; this file only decides who may call what and how the answer is written.
 */
import type { MediaFetcher } from './media-fetch';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { AI, RESOURCES, RESOURCE_KEYS, TICKET, V2, V2_OPS, VOICE, type ResourceKey, type Role } from '../src-shared/paths';
import type { AiMount } from './ai-mount';
import type { CollectionName } from './fields';
import type { Faults, FaultRule } from './faults';
import { FaultRulesSchema, hasMultiValueIn } from './faults';
import { ApiError, roleOfUser, type Actor, type Model } from './model';
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

interface Ctx {
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

interface Route {
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

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  415: 'Unsupported Media Type',
};
const BODY_LIMIT = 64 * 1024 * 1024;

export function familyOf(path: string): Family | null {
  if (path === V2 || path.startsWith(`${V2}/`)) return 'v2';
  if (path.startsWith(`${TICKET}/`)) return 'ticket';
  if (path.startsWith(`${AI}/`) || path.startsWith(`${VOICE}/`)) return 'ai';
  if (path.startsWith('/__standin/')) return 'control';
  return null;
}

/** 401/403/404/405: v2 answers with no body and no content type; the other families with `{status}`. */
export function errorReply(family: Family, status: number, message: string, errorCode: string): Reply {
  if (status in STATUS_TEXT && status !== 415) {
    return family === 'v2' ? { status } : { status, body: { status: STATUS_TEXT[status] } };
  }
  return { status, body: { status: 'ERROR', message, errorCode } };
}

export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { model, reading } = deps;
  const exact = new Map<string, Map<string, Route>>();
  const add = (method: string, path: string, route: Route): void => {
    if (reading.absentPaths.has(path)) return;
    const m = exact.get(path) ?? new Map<string, Route>();
    m.set(method, route);
    exact.set(path, m);
  };
  const v2 = (roles: readonly Role[], run: Route['run']): Route => ({ family: 'v2', roles, json: true, run });
  const listRoute = (coll: CollectionName): Route =>
    v2(ALL, ({ body, actor }) => ({
      status: 200,
      body: model.list(coll, reading.queryIn(coll, body), actor.role, reading.maxPageSize, reading.listOrder?.(coll)),
      wire: { kind: 'page', coll },
    }));
  const uniqueRoute = (coll: 'group' | 'userSession'): Route =>
    v2(ALL, ({ body, actor }) => ({
      status: 200,
      body: model.present(coll, model.unique(coll, reading.queryIn(coll, body)), actor.role),
      wire: { kind: 'record', coll },
    }));

  for (const key of RESOURCE_KEYS) {
    const coll = key as CollectionName;
    const { list, save } = RESOURCES[key];
    if (list) add('POST', `${V2}${list}`, listRoute(coll));
    if (save) {
      add(
        'POST',
        `${V2}${save}`,
        v2(SAVE_ROLES[key], ({ body: raw, actor, fault }) => {
          const body = reading.saveIn(coll, raw);
          if (key === 'agent') checkAgentSave(body, actor);
          const keepsAgent = fault?.kind === 'keepsAgent' ? (fault.keepsAgent ?? 'unlessTold') : undefined;
          const refusesMedia = fault?.kind === 'refusesMedia';
          const { status, rec } = model.save(coll, body, actor, { keepsAgent, refusesMedia });
          if (key === 'userSession')
            return { status, body: model.presentSessionPayload(rec, actor.role), wire: { kind: 'record', coll, omit: ['agent', 'user'] } };
          return { status, body: model.present(coll, rec, actor.role), wire: { kind: 'record', coll } };
        }),
      );
    }
  }
  add('POST', `${V2}${V2_OPS.chatSuggestion}`, listRoute('chatSuggestion'));
  add('POST', `${V2}${V2_OPS.groupsUnique}`, uniqueRoute('group'));
  add('POST', `${V2}${V2_OPS.sessionUnique}`, uniqueRoute('userSession'));
  const saveAs = (kind: 'AGENT' | 'SUPERVISOR' | 'ADMINISTRATOR'): Route =>
    v2(ADMIN, ({ body, actor }) => {
      const { status, rec } = model.saveUserAs(kind, reading.saveIn('user', body), actor);
      return { status, body: model.present('user', rec, actor.role), wire: { kind: 'record', coll: 'user' } };
    });
  add('POST', `${V2}${V2_OPS.saveAgentSupervisor}`, saveAs('SUPERVISOR'));
  add('POST', `${V2}${V2_OPS.saveAgentUser}`, saveAs('AGENT'));
  add('POST', `${V2}${V2_OPS.saveAdministrator}`, saveAs('ADMINISTRATOR'));
  add(
    'POST',
    `${V2}${V2_OPS.userRules}`,
    v2(ALL, ({ body, actor }) => ({ status: 200, body: model.rules(body, actor) })),
  );
  add(
    'POST',
    `${V2}${V2_OPS.userChannels}`,
    v2(ALL, ({ body, actor }) => ({ status: 200, body: model.channels(body, actor) })),
  );

  // Webhook registration (stand-in only).
  add(
    'GET',
    `${V2}/hook`,
    v2(ALL, () => {
      const results = deps.hub.list();
      return { status: 200, body: { page: 0, size: results.length, results } };
    }),
  );
  add(
    'POST',
    `${V2}/hook`,
    v2(ALL, ({ body }) => {
      const parsed = HookInputSchema.safeParse(body);
      if (!parsed.success)
        throw new ApiError(
          400,
          `Invalid hook: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`,
          'INVALID_BODY',
        );
      return { status: 201, body: deps.hub.register(parsed.data) };
    }),
  );

  // Out-of-process control of faults and the simulator (admin token only).
  const control = (run: Route['run']): Route => ({ family: 'control', roles: ADMIN, json: true, run });
  add(
    'GET',
    '/__standin/faults',
    control(() => ({ status: 200, body: { rules: deps.faults.list() } })),
  );
  add(
    'POST',
    '/__standin/faults',
    control(({ body }) => {
      const parsed = z.object({ rules: FaultRulesSchema }).safeParse(body);
      if (!parsed.success)
        throw new ApiError(
          400,
          `Invalid fault rules: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
          'INVALID_BODY',
        );
      deps.faults.set(parsed.data.rules);
      return { status: 200, body: { rules: deps.faults.list() } };
    }),
  );
  add(
    'DELETE',
    '/__standin/faults',
    control(() => {
      deps.faults.clear();
      return { status: 204 };
    }),
  );
  add(
    'POST',
    '/__standin/simulator',
    control(({ body }) => {
      const parsed = z.object({ enabled: z.boolean(), intervalMs: z.number().int().min(50).optional() }).safeParse(body);
      if (!parsed.success) throw new ApiError(400, 'Body must be {enabled: boolean, intervalMs?: integer >= 50}.', 'INVALID_BODY');
      if (parsed.data.intervalMs !== undefined) deps.simulator.setInterval(parsed.data.intervalMs);
      if (parsed.data.enabled) deps.simulator.start();
      else deps.simulator.stop();
      return { status: 200, body: { enabled: deps.simulator.running } };
    }),
  );
  // What the stand-in, as a provider, read of the attendants' files: size and hash, or why not.
  add(
    'GET',
    '/__standin/media-fetches',
    control(() => ({ status: 200, body: { fetches: deps.fetcher.list() } })),
  );
  add(
    'POST',
    '/__standin/simulator/step',
    control(async () => {
      await deps.simulator.step();
      return { status: 200, body: { stepped: true } };
    }),
  );

  const ticketRoute: Route = {
    family: 'ticket',
    roles: ALL,
    json: false,
    run: ({ params }) => ({ status: 200, body: model.presentTicket(model.ticket(params[0] ?? '')) }),
  };
  const hookDelete: Route = v2(ALL, ({ params }) => {
    const id = Number(params[0]);
    if (!Number.isSafeInteger(id) || !deps.hub.remove(id)) throw new ApiError(404, 'No such hook.');
    return { status: 204 };
  });
  const aiRoute = (roles: readonly Role[]): Route => ({
    family: 'ai',
    roles,
    json: false,
    run: async ({ req, raw, method, path }) => {
      const svc = await deps.ai.get();
      if (!svc) return { status: 503, body: { status: 'ERROR', message: 'AI service not loaded' } };
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const r = await svc.handle({ method, path, headers, body: raw });
      return { status: r.status, ...(r.headers ? { headers: r.headers } : {}), ...(r.body !== undefined ? { body: r.body } : {}) };
    },
  });
  const aiAll = aiRoute(ALL);
  const aiUpload = aiRoute(ADMIN);
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

  /** The route of a path, or the methods it allows (405), or nothing (404). */
  function resolve(method: string, path: string): { route: Route; params: string[] } | { allow: string[] } | null {
    const m = exact.get(path);
    if (m) {
      const r = m.get(method);
      return r ? { route: r, params: [] } : { allow: [...m.keys()] };
    }
    const patterns: Array<[RegExp, string, Route]> = [
      [/^\/chatapi\/1\.0\/api\/v2\/user-session\/survey\/nps-summary\/([^/]+)$/, 'POST', npsRoute],
      [/^\/chatapi\/1\.0\/api\/v2\/hook\/([^/]+)$/, 'DELETE', hookDelete],
      [/^\/ticketapi\/1\.0\/api\/v1\/tickets\/([^/]+)$/, 'GET', ticketRoute],
      [/^\/chatapi\/1\.0\/api\/v2\/media\/([^/]+)$/, 'GET', mediaRoute],
    ];
    for (const [re, verb, route] of patterns) {
      const hit = re.exec(path);
      if (!hit) continue;
      if (method !== verb) return { allow: [verb] };
      let param: string;
      try {
        param = decodeURIComponent(hit[1] ?? '');
      } catch {
        return null;
      }
      return { route, params: [param] };
    }
    if (familyOf(path) === 'ai') return { route: path === `${AI}/upload_files` ? aiUpload : aiAll, params: [] };
    return null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    } catch {
      return send(res, { status: 400 });
    }
    const family = familyOf(path);
    if (!family) {
      req.resume();
      return send(res, { status: 404 });
    }
    let raw: Buffer;
    try {
      raw = await readBody(req, BODY_LIMIT);
    } catch (e) {
      if (e instanceof ApiError) return send(res, errorReply(family, e.status, e.message, e.errorCode), true);
      res.destroy();
      return;
    }
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const user = token ? model.userByToken(token) : undefined;
    const role = user && user.active !== false ? roleOfUser(user) : null;
    if (!user || !role) return send(res, errorReply(family, 401, 'Unauthorized', 'UNAUTHORIZED'));
    const actor: Actor = { user, userName: String(user.userName), role };

    const found = resolve(method, path);
    if (!found) return send(res, errorReply(family, 404, 'Not Found', 'NOT_FOUND'));
    if ('allow' in found) {
      const r = errorReply(family, 405, 'Method Not Allowed', 'METHOD_NOT_ALLOWED');
      return send(res, { ...r, headers: { ...r.headers, allow: found.allow.join(', ') } });
    }
    const { route, params } = found;
    if (!route.roles.includes(role)) return send(res, errorReply(family, 403, 'Forbidden', 'FORBIDDEN'));

    let fault: FaultRule | null = null;
    if (family !== 'control') {
      const d = deps.faults.decide(method, path);
      if (d.latencyMs > 0) await new Promise((r) => setTimeout(r, d.latencyMs));
      fault = d.rule;
      if (fault?.kind === 'reset') {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'status') {
        return send(res, {
          status: fault.status ?? 503,
          body: { status: 'ERROR', message: 'The service is unavailable (injected fault).', errorCode: 'INJECTED_FAULT' },
        });
      }
      if (fault?.kind === 'rateLimit') {
        const seconds = fault.retryAfterSeconds ?? 1;
        return send(res, {
          status: 429,
          headers: { 'retry-after': String(seconds) },
          body: { status: 'ERROR', message: `Too many requests; retry after ${seconds} s (injected fault).`, errorCode: 'RATE_LIMITED' },
        });
      }
    }

    let reply: Reply;
    let body: unknown;
    try {
      if (route.json && raw.length > 0) {
        const type = String(req.headers['content-type'] ?? '').toLowerCase();
        if (!/^application\/([\w.+-]+\+)?json\b/.test(type)) {
          throw new ApiError(415, 'The body must be sent with Content-Type: application/json.', 'UNSUPPORTED_CONTENT_TYPE');
        }
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new ApiError(400, 'The body is not valid JSON.', 'MALFORMED_JSON');
        }
      }
      reply = await route.run({ actor, body, raw, params, req, method, path, fault });
    } catch (e) {
      if (e instanceof ApiError) reply = errorReply(route.family, e.status, e.message, e.errorCode);
      else if (e instanceof z.ZodError) reply = errorReply(route.family, 400, e.issues.map((i) => i.message).join('; '), 'INVALID_BODY');
      else reply = { status: 500, body: { status: 'ERROR', message: 'Internal error in the stand-in.', errorCode: 'INTERNAL' } };
    }
    if (fault?.kind === 'dropAfterCommit') {
      // The work is done and stored; the caller just never hears back.
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'malformedJson') {
      return send(res, {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"status":"SUCCESS","results":[{"id":',
      });
    }
    if (fault?.kind === 'emptyMultiValueIn' && reply.wire?.kind === 'page' && hasMultiValueIn(body) && reply.body)
      // As servers reported to answer "is one of" with several values: an empty page, no error.
      reply = { ...reply, body: { ...(reply.body as Rec), results: [] } };
    // The one place an answer takes the reading's wire shape; stored records stay as they are.
    if (reply.wire && typeof reply.body === 'object' && !Buffer.isBuffer(reply.body))
      reply = { ...reply, body: reading.out(reply.wire, reply.body, body) };
    send(res, reply);
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

  return (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent)
        send(res, { status: 500, body: { status: 'ERROR', message: 'Internal error in the stand-in.', errorCode: 'INTERNAL' } });
      else res.destroy();
    });
  };
}

function send(res: ServerResponse, reply: Reply, close = false): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers };
  let payload: Buffer | string | undefined;
  if (reply.body === undefined) payload = undefined;
  else if (Buffer.isBuffer(reply.body) || typeof reply.body === 'string') payload = reply.body;
  else {
    payload = JSON.stringify(reply.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  headers['content-length'] = String(payload === undefined ? 0 : Buffer.byteLength(payload));
  if (close) headers.connection = 'close';
  res.writeHead(reply.status, headers);
  res.end(payload);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new ApiError(413, `The body is larger than ${limit} bytes.`, 'BODY_TOO_LARGE'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
  });
}
