/**
 * The HTTP face of the stand-in: bearer auth, fault injection and the answer shapes of each
 * family (interface §5, §7; README: errors). Which path runs what, for whom, is the route table
 * (routes.ts); business rules live in model.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { FaultRule, Faults } from './faults';
import { hasMultiValueIn } from './faults';
import { ApiError, roleOfUser, type Actor } from './api-error';
import type { Model } from './model';
import type { Reading } from './reading';
import type { Rec } from './query-engine';
import { createRouter, familyOf, type Family, type Reply, type Route, type ServerDeps } from './routes';

export type { Family, Reply, ServerDeps } from './routes';

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  415: 'Unsupported Media Type',
};
const BODY_LIMIT = 64 * 1024 * 1024;
const INTERNAL: Reply = { status: 500, body: { status: 'ERROR', message: 'Internal error in the stand-in.', errorCode: 'INTERNAL' } };

/** 401/403/404/405: v2 answers with no body and no content type; the other families with `{status}`. */
export function errorReply(family: Family, status: number, message: string, errorCode: string): Reply {
  if (status in STATUS_TEXT && status !== 415) {
    return family === 'v2' ? { status } : { status, body: { status: STATUS_TEXT[status] } };
  }
  return { status, body: { status: 'ERROR', message, errorCode } };
}

/** What a request is, once it passed the gate: who asks, for which route, with which bytes. */
interface Admitted {
  method: string;
  path: string;
  raw: Buffer;
  actor: Actor;
  route: Route;
  params: string[];
}

/** A request stops at the gate with a reply, or with nothing (the connection is dropped). */
type Stop = { stop: Reply; close?: boolean } | { stop: null };

function isStop(v: Admitted | Stop): v is Stop {
  return 'stop' in v;
}

/** A fault that answers instead of the route, before it runs. */
function faultBefore(fault: FaultRule | null): Reply | null | undefined {
  switch (fault?.kind) {
    case 'reset':
      return null;
    case 'status':
      return {
        status: fault.status ?? 503,
        body: { status: 'ERROR', message: 'The service is unavailable (injected fault).', errorCode: 'INJECTED_FAULT' },
      };
    case 'rateLimit': {
      const seconds = fault.retryAfterSeconds ?? 1;
      return {
        status: 429,
        headers: { 'retry-after': String(seconds) },
        body: { status: 'ERROR', message: `Too many requests; retry after ${seconds} s (injected fault).`, errorCode: 'RATE_LIMITED' },
      };
    }
    default:
      return undefined;
  }
}

/** The JSON body of a route that takes one: its content type checked, then parsed. */
function jsonBody(req: IncomingMessage, route: Route, raw: Buffer): unknown {
  if (!route.json || raw.length === 0) return undefined;
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([\w.+-]+\+)?json\b/.test(type)) {
    throw new ApiError(415, 'The body must be sent with Content-Type: application/json.', 'UNSUPPORTED_CONTENT_TYPE');
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'The body is not valid JSON.', 'MALFORMED_JSON');
  }
}

function failureReply(family: Family, e: unknown): Reply {
  if (e instanceof ApiError) return errorReply(family, e.status, e.message, e.errorCode);
  if (e instanceof z.ZodError) return errorReply(family, 400, e.issues.map((i) => i.message).join('; '), 'INVALID_BODY');
  return INTERNAL;
}

function authenticate(model: Model, req: IncomingMessage): Actor | null {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const user = token ? model.userByToken(token) : undefined;
  const role = user && user.active !== false ? roleOfUser(user) : null;
  if (!user || !role) return null;
  return { user, userName: String(user.userName), role };
}

/** The fault rule for this request (control paths have none), after its latency. */
async function faultFor(faults: Faults, a: Admitted): Promise<FaultRule | null> {
  if (familyOf(a.path) === 'control') return null;
  const d = faults.decide(a.method, a.path);
  if (d.latencyMs > 0) await new Promise((r) => setTimeout(r, d.latencyMs));
  return d.rule;
}

/** What the reply becomes once the route ran: a fault may bend it; the reading shapes it. */
function shape(reading: Reading, reply: Reply, fault: FaultRule | null, body: unknown): Reply {
  let out = reply;
  if (fault?.kind === 'emptyMultiValueIn' && out.wire?.kind === 'page' && hasMultiValueIn(body) && out.body)
    // As servers reported to answer "is one of" with several values: an empty page, no error.
    out = { ...out, body: { ...(out.body as Rec), results: [] } };
  // The one place an answer takes the reading's wire shape; stored records stay as they are.
  if (out.wire && typeof out.body === 'object' && !Buffer.isBuffer(out.body)) out = { ...out, body: reading.out(out.wire, out.body, body) };
  return out;
}

export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const resolve = createRouter(deps);

  /** Path, family, body, token, route and role, in that order; the first that fails answers. */
  async function admit(req: IncomingMessage): Promise<Admitted | Stop> {
    const method = (req.method ?? 'GET').toUpperCase();
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    } catch {
      return { stop: { status: 400 } };
    }
    const family = familyOf(path);
    if (!family) {
      req.resume();
      return { stop: { status: 404 } };
    }
    let raw: Buffer;
    try {
      raw = await readBody(req, BODY_LIMIT);
    } catch (e) {
      if (e instanceof ApiError) return { stop: errorReply(family, e.status, e.message, e.errorCode), close: true };
      return { stop: null };
    }
    const actor = authenticate(deps.model, req);
    if (!actor) return { stop: errorReply(family, 401, 'Unauthorized', 'UNAUTHORIZED') };
    const found = resolve(method, path);
    if (!found) return { stop: errorReply(family, 404, 'Not Found', 'NOT_FOUND') };
    if ('allow' in found) {
      const r = errorReply(family, 405, 'Method Not Allowed', 'METHOD_NOT_ALLOWED');
      return { stop: { ...r, headers: { ...r.headers, allow: found.allow.join(', ') } } };
    }
    if (!found.route.roles.includes(actor.role)) return { stop: errorReply(family, 403, 'Forbidden', 'FORBIDDEN') };
    return { method, path, raw, actor, ...found };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const a = await admit(req);
    if (isStop(a)) {
      if (a.stop) send(res, a.stop, a.close);
      else res.destroy();
      return;
    }
    const fault = await faultFor(deps.faults, a);
    const early = faultBefore(fault);
    if (early === null) return void req.socket.destroy();
    if (early) return send(res, early);
    let reply: Reply;
    let body: unknown;
    try {
      body = jsonBody(req, a.route, a.raw);
      reply = await a.route.run({ actor: a.actor, body, raw: a.raw, params: a.params, req, method: a.method, path: a.path, fault });
    } catch (e) {
      reply = failureReply(a.route.family, e);
    }
    // The work is done and stored; the caller just never hears back.
    if (fault?.kind === 'dropAfterCommit') return void req.socket.destroy();
    if (fault?.kind === 'malformedJson')
      return send(res, {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"status":"SUCCESS","results":[{"id":',
      });
    send(res, shape(deps.reading, reply, fault, body));
  }

  return (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, INTERNAL);
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
