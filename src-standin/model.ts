/**
 * What the stand-in does with a request once it is authenticated: lists, lookups, upserts and
 * their side effects (assignment, closing, pending flag, webhook events). No HTTP here; errors
 * are ApiError values the server turns into the family's answer.
 */
import type { Role } from '../src-shared/paths';
import { ApiError, roleOfUser, validationError, type Actor } from './api-error';
import { LookupBodySchema, QueryBodySchema, type LookupBody, type QueryBody } from '../src-shared/query';
import type { WebhookGroup } from '../src-shared/webhook';
import { COMPOSITE_KEYS, SPECS, isPlainObject, type CollectionName, type FieldType, type Spec } from './fields';
import { QueryError, checkConditionTree, runQuery, type PageResult, type Rec } from './query-engine';
import { scalarText, shownValue } from './scalar';
import { beforeSave, type SaveContext, type SaveHost, type SaveQuirks } from './save-effects';
import { CHANNELS, NPS_SURVEY, TICKET_PREFIX } from './seed-base';
import { compositeKeyOf, type Store } from './store';

export type EventSink = (group: WebhookGroup, type: string, data: Record<string, unknown>) => void;
/** Recognises entities in a text: the answer, or a promise of it. */
export type EntityRecognizer = (text: string) => unknown;

/** Fields a save does not accept (interface §9.8, §9.10): the session's agent, the agent's user. */
export const NOT_SAVABLE: Partial<Record<CollectionName, readonly string[]>> = {
  userSession: ['agent'],
  agent: ['user'],
};

/** Fields never shown, or shown to admins only. */
export const HIDDEN: Partial<Record<CollectionName, readonly string[]>> = { user: ['password'] };
const ADMIN_ONLY: Partial<Record<CollectionName, readonly string[]>> = { user: ['accessKey'], cognition: ['password', 'appKey'] };

/** References shown as `{id}` only, to keep long lists small (README: message shape). */
const COMPACT_REFS = new Set(['message.session', 'botTag.session', 'botAnswer.session']);

/** What an embedded copy leaves out (interface §9.8, §9.9). */
const EMBEDDED_OMIT: Partial<Record<CollectionName, readonly string[]>> = {
  group: ['defaultAgent', 'finalAgent', 'inactivityAgent'],
  userSession: ['agent', 'user'],
};

const isRefType = (t: FieldType): t is Extract<FieldType, { kind: 'ref' }> => typeof t !== 'string' && t.kind === 'ref';

type ScalarType = Extract<FieldType, string>;

/** How each scalar field type checks (and, for dates, canonicalises) a saved value. */
const SCALARS: Record<ScalarType, (v: unknown, path: string) => unknown> = {
  string: (v, path) => {
    if (typeof v !== 'string') throw validationError(path, 'a string');
    return v;
  },
  int: (v, path) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw validationError(path, 'an integer');
    return v;
  },
  number: (v, path) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw validationError(path, 'a number');
    return v;
  },
  boolean: (v, path) => {
    if (typeof v !== 'boolean') throw validationError(path, 'true or false');
    return v;
  },
  date: (v, path) => {
    const ms = typeof v === 'string' ? Date.parse(v) : NaN;
    if (Number.isNaN(ms)) throw validationError(path, 'an ISO 8601 date-time');
    return new Date(ms).toISOString();
  },
  any: (v) => v,
};

export class Model {
  #protocolSeq = 0;

  readonly #emit: EventSink;
  readonly #recognizer: () => Promise<EntityRecognizer | null>;
  readonly #now: () => number;
  readonly #host: SaveHost;
  constructor(
    readonly store: Store,
    emit: EventSink,
    recognizer: () => Promise<EntityRecognizer | null>,
    now: () => number = Date.now,
  ) {
    this.#emit = emit;
    this.#recognizer = recognizer;
    this.#now = now;
    this.#host = {
      store,
      present: (coll, rec, viewer) => this.present(coll, rec, viewer),
      userByName: (userName) => this.userByName(userName),
      nextProtocolSeq: () => ++this.#protocolSeq,
      recognize: (sessionId, messageId, text) => void this.#recognize(sessionId, messageId, text),
      agentMessageStored: (m, o) => this.onAgentMessage?.(m, o),
    };
  }

  nowIso(): string {
    return new Date(this.#now()).toISOString();
  }

  // ---- presentation ------------------------------------------------------------------------

  present(coll: CollectionName, rec: Rec, viewer: Role, depth = 0): Rec {
    const spec = SPECS[coll];
    const out: Rec = {};
    const hidden = HIDDEN[coll];
    const adminOnly = viewer === 'admin' ? undefined : ADMIN_ONLY[coll];
    const omit = depth > 0 ? EMBEDDED_OMIT[coll] : undefined;
    for (const [k, v] of Object.entries(rec)) {
      if (hidden?.includes(k) || omit?.includes(k)) continue;
      if (adminOnly?.includes(k)) {
        out[k] = v == null ? v : '********';
        continue;
      }
      const t = spec[k];
      if (t && isRefType(t) && isPlainObject(v)) {
        const target = depth >= 1 || COMPACT_REFS.has(`${coll}.${k}`) ? undefined : this.store.c[t.collection].get(v.id);
        out[k] = target ? this.present(t.collection, target, viewer, depth + 1) : { id: v.id };
      } else {
        out[k] = v;
      }
    }
    return out;
  }

  /** The user-session save answer (§4.3): no user, no agent; the group without its agent properties. */
  presentSessionPayload(rec: Rec, viewer: Role): Rec {
    const out = this.present('userSession', rec, viewer);
    delete out.user;
    delete out.agent;
    return out;
  }

  // ---- reading -----------------------------------------------------------------------------

  parseQuery(body: unknown): QueryBody {
    checkTree(body);
    const parsed = QueryBodySchema.safeParse(body);
    if (!parsed.success) throw new ApiError(400, `Invalid query body: ${describeIssues(parsed.error.issues)}`, 'INVALID_BODY');
    return parsed.data;
  }

  parseLookup(body: unknown): LookupBody {
    checkTree(body);
    const parsed = LookupBodySchema.safeParse(body);
    if (!parsed.success) throw new ApiError(400, `Invalid query body: ${describeIssues(parsed.error.issues)}`, 'INVALID_BODY');
    return parsed.data;
  }

  query(
    coll: CollectionName,
    q: QueryBody,
    extra?: (r: Rec) => boolean,
    maxSize?: number,
    unsorted?: (rec: Rec) => number,
  ): PageResult<Rec> {
    const col = this.store.c[coll];
    try {
      const all = extra ? [...col.values()].filter(extra) : col.values();
      return runQuery(all, q, {
        spec: SPECS[coll],
        ...(maxSize !== undefined ? { maxSize } : {}),
        ...(unsorted ? { unsorted } : {}),
        resolve: this.store.resolve,
        scan: (c) => this.store.c[c].values(),
        index: extra
          ? undefined
          : (key, value) => {
              if (key === 'id' && !COMPOSITE_KEYS[coll]) {
                const r = col.get(value);
                return r ? [r] : [];
              }
              return col.lookup(key, value);
            },
      });
    } catch (e) {
      if (e instanceof QueryError) throw new ApiError(400, e.message, e.errorCode);
      throw e;
    }
  }

  /** `maxSize` caps the page below the stand-in's own maximum (the variant reading's 50). */
  list(
    coll: CollectionName,
    body: unknown,
    viewer: Role,
    maxSize?: number,
    unsorted?: (rec: Rec) => number,
  ): { page: number; size: number; results: Rec[] } {
    const r = this.query(coll, this.parseQuery(body), undefined, maxSize, unsorted);
    return { page: r.page, size: r.size, results: r.results.map((x) => this.present(coll, x, viewer)) };
  }

  /** groups/unique and user-session/unique: the first match in sort order, 404 when none. */
  unique(coll: CollectionName, body: unknown): Rec {
    const q = this.parseLookup(body);
    const r = this.query(coll, { ...q, page: 0, size: 1 });
    const hit = r.results[0];
    if (!hit) throw new ApiError(404, 'Nothing matches the conditions.');
    return hit;
  }

  npsSummary(surveyName: string, body: unknown): Rec {
    const q = this.parseLookup(body);
    const known = surveyName === NPS_SURVEY || [...this.store.c.npsAnswer.values()].some((a) => a.surveyName === surveyName);
    if (!known) throw new ApiError(404, `No survey named "${surveyName}".`);
    let positive = 0,
      neutral = 0,
      negative = 0,
      sum = 0;
    const matched = this.#filterAll('npsAnswer', q, (a) => a.surveyName === surveyName);
    for (const a of matched) {
      const s = Number(a.score);
      sum += s;
      if (s >= 9) positive++;
      else if (s >= 7) neutral++;
      else negative++;
    }
    const totalCount = matched.length;
    return { averageNps: totalCount === 0 ? 0 : sum / totalCount, positive, neutral, negative, totalCount };
  }

  #filterAll(coll: CollectionName, q: LookupBody, extra: (r: Rec) => boolean): Rec[] {
    const out: Rec[] = [];
    let page = 0;
    // Bounded: each page holds up to 500 of a finite collection.
    for (;;) {
      const r = this.query(coll, { ...q, sort: false, page, size: 500 }, extra);
      out.push(...r.results);
      if (r.results.length < r.size) return out;
      page++;
    }
  }

  ticket(idOrKey: string): Rec {
    const col = this.store.c.ticket;
    const byId = /^\d+$/.test(idOrKey) ? col.get(Number(idOrKey)) : undefined;
    if (byId) return byId;
    const wanted = idOrKey.toUpperCase();
    for (const t of col.values()) if (String(t.key).toUpperCase() === wanted) return t;
    throw new ApiError(404, `No ticket ${idOrKey}.`);
  }

  userByName(userName: string): Rec | undefined {
    return this.store.c.user.lookup('userName', userName)?.[0];
  }

  userByToken(token: string): Rec | undefined {
    return this.store.c.user.lookup('accessKey', token)?.[0];
  }

  // ---- writing -----------------------------------------------------------------------------

  /** Checks a save body against the spec and returns it normalised (dates canonical, refs `{id}`). */
  validateBody(coll: CollectionName, body: unknown): Rec {
    if (!isPlainObject(body)) throw new ApiError(400, 'The body must be a JSON object.', 'INVALID_BODY');
    const spec = SPECS[coll];
    const refused = NOT_SAVABLE[coll] ?? [];
    const out: Rec = {};
    for (const [k, v] of Object.entries(body)) {
      if (v === undefined) continue;
      if (refused.includes(k)) {
        const hint = coll === 'userSession' ? " Assign a session by saving lastAgent with the attendant's userName." : '';
        throw new ApiError(400, `Field "${k}" is not accepted by this save.${hint}`, 'UNKNOWN_FIELD');
      }
      const t = spec[k];
      if (!t) throw new ApiError(400, `Unknown field "${k}".`, 'UNKNOWN_FIELD');
      out[k] = this.#normalize(v, t, k);
    }
    return out;
  }

  #normalize(v: unknown, t: FieldType, path: string): unknown {
    if (v === null) return null;
    if (typeof t === 'string') return SCALARS[t](v, path);
    if (t.kind === 'array') {
      if (!Array.isArray(v)) throw validationError(path, 'an array');
      return v.map((x, i) => this.#normalize(x, t.of, `${path}[${i}]`));
    }
    if (!isPlainObject(v)) throw validationError(path, 'an object');
    if (t.kind === 'ref') return this.#normalizeRef(v, t.collection, path);
    const fields: Spec = t.fields();
    const out: Rec = {};
    for (const [k, x] of Object.entries(v)) {
      const ft = fields[k];
      if (!ft) throw new ApiError(400, `Unknown field "${path}.${k}".`, 'UNKNOWN_FIELD');
      out[k] = this.#normalize(x, ft, `${path}.${k}`);
    }
    return out;
  }

  /** A reference names its target by id; the rest of an embedded copy is ignored. */
  #normalizeRef(v: Rec, target: CollectionName, path: string): Rec {
    if (typeof v.id !== 'number' || !Number.isSafeInteger(v.id)) throw validationError(`${path}.id`, 'an integer');
    if (!this.store.c[target].get(v.id))
      throw new ApiError(400, `"${path}" refers to id ${v.id}, which does not exist.`, 'UNKNOWN_REFERENCE');
    return { id: v.id };
  }

  /** The stored record a save updates: by composite key, by id (404 when unknown), or none (a create). */
  #previous(coll: CollectionName, input: Rec): Rec | undefined {
    const col = this.store.c[coll];
    const ck = COMPOSITE_KEYS[coll];
    if (ck) {
      const key = compositeKeyOf(coll, input);
      const parts = input[ck.field] as Rec | null | undefined;
      if (key === null || !parts || ck.parts.some((p) => typeof parts[p] !== 'number')) {
        throw new ApiError(400, `Field "${ck.field}" must hold the integers ${ck.parts.join(' and ')}.`, 'MISSING_FIELD');
      }
      return col.records.get(key);
    }
    if (input.id == null) return undefined;
    const prev = col.get(input.id);
    if (!prev) throw new ApiError(404, `No ${coll} with id ${shownValue(input.id)}.`);
    return prev;
  }

  /** The record to store: the input over what was stored, with its id and audit fields. */
  #merged(coll: CollectionName, input: Rec, prev: Rec | undefined, actor: Actor, now: string): Rec {
    const isCreate = !prev;
    const next: Rec = isCreate ? { ...input } : { ...prev, ...input };
    if (isCreate && !COMPOSITE_KEYS[coll]) next.id = this.store.c[coll].allocateId();
    const spec = SPECS[coll];
    if (isCreate && 'createdAt' in spec) next.createdAt ??= now;
    if (isCreate && 'createdBy' in spec) next.createdBy ??= actor.userName;
    if ('updatedAt' in spec) next.updatedAt = input.updatedAt ?? now;
    if ('updatedBy' in spec) next.updatedBy = actor.userName;
    return next;
  }

  /**
   * Upsert by id (DESIGN.md §2): no id creates (201), an existing id updates (200) by merging the
   * given fields over the stored record, an unknown id is 404. Composite-key resources upsert by
   * their key object.
   */
  save(coll: CollectionName, body: unknown, actor: Actor, quirks: SaveQuirks = {}): { status: 200 | 201; rec: Rec } {
    const input = this.validateBody(coll, body);
    const prev = this.#previous(coll, input);
    const isCreate = !prev;
    const now = this.nowIso();
    const next = this.#merged(coll, input, prev, actor, now);
    const events: Array<[WebhookGroup, string, Record<string, unknown>]> = [];
    const after: Array<() => void> = [];
    const ctx: SaveContext = { input, prev, next, isCreate, actor, now, events, after, quirks };
    beforeSave(this.#host, coll, ctx);
    this.store.c[coll].put(next);
    this.store.markDirty(coll);
    for (const f of after) f();
    for (const [g, type, data] of events) this.#emit(g, type, data);
    return { status: isCreate ? 201 : 200, rec: next };
  }

  /** Called with each message an attendant (not the customer) saves, once stored. */
  onAgentMessage: ((m: Rec, o: { refuse: boolean }) => void) | null = null;

  /** A message the service could not deliver (a file its URL did not give): `errorConversation`, as the interface allows. */
  markUndelivered(messageId: number): void {
    const m = this.store.c.message.get(messageId);
    if (!m) return;
    this.store.c.message.put({ ...m, errorConversation: true });
    this.store.markDirty('message');
  }

  async #recognize(sessionId: number, messageId: number, text: string): Promise<void> {
    try {
      const ner = await this.#recognizer();
      if (!ner) return;
      const result = await ner(text);
      const entities = isPlainObject(result) && Array.isArray(result.entities) ? result.entities : Array.isArray(result) ? result : [];
      this.#emit('entities', 'entities.recognized', { sessionId, messageId, entities });
    } catch {
      // Entity recognition is a bonus on top of the message: a failure must not affect the save.
    }
  }

  /** users/save/agent-supervisor, /agent, /administrator: a user of that kind, with its agent record. */
  saveUserAs(kind: 'AGENT' | 'SUPERVISOR' | 'ADMINISTRATOR', body: unknown, actor: Actor): { status: 200 | 201; rec: Rec } {
    if (!isPlainObject(body)) throw new ApiError(400, 'The body must be a JSON object.', 'INVALID_BODY');
    const profileId = { ADMINISTRATOR: 1, SUPERVISOR: 2, AGENT: 3 }[kind];
    const profile = {
      id: profileId,
      name: { ADMINISTRATOR: 'Administrador', SUPERVISOR: 'Supervisor', AGENT: 'Atendente' }[kind],
      typeUser: kind,
      visible: true,
    };
    const saved = this.save('user', { ...body, typeUser: kind, profile }, actor);
    if (kind === 'ADMINISTRATOR' || saved.rec.agent) return saved;
    const agent = this.save(
      'agent',
      {
        status: 'OFFLINE',
        superAgent: kind === 'SUPERVISOR',
        virtualAgent: false,
        maxChatChannels: 6,
        department: kind === 'SUPERVISOR' ? 'Supervisão' : 'Atendimento',
        loginAttendance: saved.rec.userName,
      },
      actor,
    );
    const linked: Rec = { ...agent.rec, user: { id: saved.rec.id } };
    this.store.c.agent.put(linked);
    this.save(
      'userAgent',
      { associationId: { userId: saved.rec.id, agentId: agent.rec.id }, user: { id: saved.rec.id }, agent: { id: agent.rec.id } },
      actor,
    );
    const user: Rec = { ...saved.rec, agent: { id: agent.rec.id } };
    this.store.c.user.put(user);
    this.store.markDirty('user');
    return { status: saved.status, rec: user };
  }

  /** users/rules: the caller's (or, for supervisors and admins, any user's) role and what it may do. */
  rules(body: unknown, actor: Actor): Rec {
    const user = this.#targetUser(body, actor);
    const role = roleOfUser(user);
    return { userName: user.userName, typeUser: user.typeUser ?? null, role, rules: role ? RULES[role] : [] };
  }

  /** users/channels: the channels a user attends, from its agent's attendanceServiceChannel. */
  channels(body: unknown, actor: Actor): Rec {
    const user = this.#targetUser(body, actor);
    const agent = this.store.c.agent.get((user.agent as Rec | null)?.id);
    const wanted = new Set((scalarText(agent?.attendanceServiceChannel) ?? CHANNELS.join(',')).split(',').map((s) => s.trim()));
    const seen = new Map<string, Rec>();
    for (const g of this.store.c.group.values()) {
      if (g.active === false) continue;
      for (const ch of (g.channels as Rec[] | null) ?? [])
        if (wanted.has(String(ch.name)) && !seen.has(String(ch.name))) seen.set(String(ch.name), { id: ch.id, name: ch.name });
    }
    return { userName: user.userName, channels: [...seen.values()].sort((a, b) => Number(a.id) - Number(b.id)) };
  }

  #targetUser(body: unknown, actor: Actor): Rec {
    if (body !== undefined && body !== null && !isPlainObject(body))
      throw new ApiError(400, 'The body must be a JSON object.', 'INVALID_BODY');
    const asked = isPlainObject(body) ? body.userName : undefined;
    if (asked === undefined || asked === actor.userName) return actor.user;
    if (typeof asked !== 'string') throw validationError('userName', 'a string');
    if (actor.role === 'agent') throw new ApiError(403, 'An agent may only ask about itself.');
    const user = this.userByName(asked);
    if (!user) throw new ApiError(404, `No user ${asked}.`);
    return user;
  }

  presentTicket(t: Rec): Rec {
    return { status: 'SUCCESS', message: `Ticket ${scalarText(t.key) ?? `${TICKET_PREFIX}-${shownValue(t.id)}`} found.`, data: t };
  }
}

/** The role table as rule names (README: roles); users/rules answers with these. */
export const RULES: Record<Role, string[]> = {
  agent: [
    'lists:read',
    'sessions:write',
    'messages:write',
    'comments:write',
    'attendance:write',
    'self:status',
    'tickets:read',
    'ai:use',
    'hooks:manage',
  ],
  supervisor: [
    'lists:read',
    'sessions:write',
    'messages:write',
    'comments:write',
    'attendance:write',
    'agents:status',
    'config:write',
    'tickets:read',
    'ai:use',
    'hooks:manage',
  ],
  admin: [
    'lists:read',
    'sessions:write',
    'messages:write',
    'comments:write',
    'attendance:write',
    'agents:status',
    'config:write',
    'admin:write',
    'kb:upload',
    'tickets:read',
    'ai:use',
    'hooks:manage',
    'standin:control',
  ],
};

function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(body)'}: ${i.message}`)
    .join('; ');
}

/** Limits on the condition tree, checked before the recursive schema reads it. */
function checkTree(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  try {
    checkConditionTree((body as { conditions?: unknown }).conditions);
  } catch (e) {
    if (e instanceof QueryError) throw new ApiError(400, e.message, e.errorCode);
    throw e;
  }
}
