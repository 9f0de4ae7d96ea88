/**
 * The stand-in's two readings of what the interface leaves untyped (README: readings). The
 * default reading is the shape model.ts presents. The variant reading is another legitimate
 * reading of the same document: it rewrites each answer on its way out (user references as
 * objects, sendBy as a role, a session's group as a summary, nulls for absent fields, dates with
 * an offset, extra fields, a 50-row page cap, two optional lists missing) and accepts both shapes
 * on the way in. Stored records never change shape, so both readings share one model. The
 * any-order reading ignores `sort` and lists in a fixed shuffled order (a server that does so).
 */
import { V2, V2_OPS, RESOURCES } from '../src-shared/paths';
import { DEFAULT_PAGE_SIZE } from '../src-shared/query';
import { encodeRecord, fromWallTime, withWallDates, type Encoding, type EncodingOf } from './encodings';
import { SPECS, isPlainObject, type CollectionName, type FieldType } from './fields';
import { roleOfUser } from './api-error';
import { HIDDEN, NOT_SAVABLE, type Model } from './model';
import type { Rec } from './query-engine';
import { compositeKeyOf } from './store';

/** The readings of the untyped fields' shapes. */
export const READINGS = ['default', 'variant'] as const;
/**
 * Every reading served: the shapes, and the local-time reading (date-times as a zone's wall time
 * with no offset), and the any-order reading (lists shuffled, `sort` ignored). The console reads the latter right once it knows the zone (a write's answer, or
 * the workspace's setting); a test that checks times before either runs on READINGS.
 */
export const ALL_READINGS = [...READINGS, 'local-time', 'any-order'] as const;
export type ReadingName = (typeof ALL_READINGS)[number];

/** What an answer body holds: a page envelope or one record of a collection, less `omit`. */
export interface WireShape {
  kind: 'page' | 'record';
  coll: CollectionName;
  omit?: readonly string[];
}

export interface Reading {
  readonly name: ReadingName;
  /** Page size cap of the list operations; undefined keeps the stand-in's own. */
  readonly maxPageSize: number | undefined;
  /** v2 paths this reading does not serve: they answer 404 like any unknown path. */
  readonly absentPaths: ReadonlySet<string>;
  /** A save body as the model takes it. */
  saveIn(coll: CollectionName, body: unknown): unknown;
  /** A list or lookup body as the model takes it. */
  queryIn(coll: CollectionName, body: unknown): unknown;
  /** An answer body as it goes on the wire; `request` is the parsed request body. */
  out(shape: WireShape, body: object, request: unknown): object;
  /** The order of a collection's lists when they are not sorted; undefined keeps the collection's own. */
  listOrder?(coll: CollectionName): ((rec: Rec) => number) | undefined;
}

const DEFAULT_READING: Reading = {
  name: 'default',
  maxPageSize: undefined,
  absentPaths: new Set(),
  saveIn: (_coll, body) => body,
  queryIn: (_coll, body) => body,
  out: (_shape, body) => body,
};

/** The zone of the local-time reading's date-times, unless another is given. */
export const DEFAULT_LOCAL_ZONE = 'America/Sao_Paulo';

export function createReading(name: ReadingName, model: Model, o: { zone?: string } = {}): Reading {
  if (name === 'variant') return variantReading(model);
  if (name === 'any-order') return ANY_ORDER_READING;
  if (name === 'local-time') return localTimeReading(o.zone ?? DEFAULT_LOCAL_ZONE);
  return DEFAULT_READING;
}

/**
 * The local-time reading: the default shapes, with every date-time written as the wall time of
 * `zone` and no offset, as a server on Java's `LocalDateTime` set to that zone writes them. Its
 * HTTP `Date` header stays true UTC (Node writes it). What comes in without an offset (a save's
 * date-time, a BEFORE / AFTER value) is read as wall time of `zone` too.
 */
function localTimeReading(zone: string): Reading {
  const wire = (coll: CollectionName, r: unknown): unknown => (isPlainObject(r) ? withWallDates(coll, r, zone) : r);
  /** A date-time sent with no offset, as the instant it names here. */
  const dateIn = (v: unknown): unknown => (typeof v === 'string' ? (fromWallTime(v, zone) ?? v) : v);
  const conditionsIn = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(conditionsIn);
    if (!isPlainObject(v)) return v;
    const out: Rec = { ...v };
    if (out.operator === 'BEFORE' || out.operator === 'AFTER') out.value = dateIn(out.value);
    for (const g of ['and', 'or', 'conditions']) if (Array.isArray(out[g])) out[g] = conditionsIn(out[g]);
    return out;
  };
  return {
    name: 'local-time',
    maxPageSize: undefined,
    absentPaths: new Set(),
    saveIn(coll, body) {
      if (!isPlainObject(body)) return body;
      const spec = SPECS[coll];
      return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, spec[k] === 'date' ? dateIn(v) : v]));
    },
    queryIn: (_coll, body) => conditionsIn(body),
    out(shape, body) {
      if (!isPlainObject(body)) return body;
      if (shape.kind === 'record') return wire(shape.coll, body) as object;
      const results: unknown[] = Array.isArray(body.results) ? body.results : [];
      return { ...body, results: results.map((r) => wire(shape.coll, r)) };
    },
  };
}

/**
 * A place in a shuffled list for a record, from its key alone: the same on every request (pages
 * do not overlap, a record is listed once), unrelated to its id or time.
 */
function shuffledPlace(coll: CollectionName, rec: Rec): number {
  const key = `${coll}:${compositeKeyOf(coll, rec) ?? String(rec.id)}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

/**
 * The reading of a server that lists in any order: it ignores `sort` (some do) and serves every
 * list shuffled, the same way each time, so a page asked "newest first" holds any records. The
 * shapes are the default reading's.
 */
const ANY_ORDER_READING: Reading = {
  ...DEFAULT_READING,
  name: 'any-order',
  queryIn: (_coll, body) => (isPlainObject(body) ? { ...body, sort: false } : body),
  listOrder: (coll) => (rec) => shuffledPlace(coll, rec),
};

/** The variant's page cap; the envelope still echoes the size asked for. */
export const VARIANT_MAX_PAGE_SIZE = 50;
/**
 * The variant's encoding of typed fields (encodings.ts): integers as strings of digits, dates
 * local to São Paulo with their offset, the record's own absent fields as null.
 */
const VARIANT_ENCODING: Encoding = { int: 'digits', date: 'offset', bool: 'boolean', absent: 'null', emptyList: 'empty' };
const variantEncoding: EncodingOf = (path) => (path.includes('.') ? { ...VARIANT_ENCODING, absent: 'missing' } : VARIANT_ENCODING);
const TENANT_ID = 'vila-serena';
/** Fields only the variant adds to each record; dropped again from what comes in. */
const WIRE_EXTRAS = ['_links', 'tenantId'];
/** References the variant writes as a bare id (and accepts as one, in saves and condition keys). */
const BARE_ID_REFS: Partial<Record<CollectionName, readonly string[]>> = { message: ['session'] };
export const SENDER_ROLES = ['CUSTOMER', 'AGENT', 'BOT', 'SYSTEM'] as const;

/** An integer the variant takes as digits too (it writes them so). */
const intIn = (v: unknown): unknown => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v);
/** A reference as a bare id (a number or digits) or an object whose id may be digits. */
const refIn = (v: unknown): unknown => {
  const bare = intIn(v);
  if (typeof bare === 'number') return { id: bare };
  return isPlainObject(v) && 'id' in v ? { ...v, id: intIn(v.id) } : v;
};

const listPathOf = (coll: CollectionName): string =>
  (coll in RESOURCES ? RESOURCES[coll as keyof typeof RESOURCES].list : null) ?? `/${coll}`;

const userRef = (u: Rec, withType: boolean): Rec => {
  const ref: Rec = { id: String(u.id), name: u.name ?? null, userName: u.userName ?? null };
  if (withType) ref.typeUser = u.typeUser ?? null;
  return ref;
};

/** Renames condition keys and the sort column that name a bare-id reference to its `.id`. */
const renameKeys = (v: unknown, refs: readonly string[]): unknown => {
  if (Array.isArray(v)) return v.map((x) => renameKeys(x, refs));
  if (!isPlainObject(v)) return v;
  const out: Rec = { ...v };
  for (const k of ['key', 'sortColumn']) if (typeof out[k] === 'string' && refs.includes(out[k])) out[k] = `${out[k]}.id`;
  for (const g of ['and', 'or', 'conditions']) if (Array.isArray(out[g])) out[g] = renameKeys(out[g], refs);
  return out;
};

/** The variant's record shapes, both ways: what it writes of a stored record, what it reads of a save. */
class VariantShapes {
  constructor(readonly model: Model) {}

  #userById(v: unknown): Rec | undefined {
    return isPlainObject(v) ? this.model.store.c.user.get(v.id) : undefined;
  }

  /** Nested `{id}` user references become user objects, following the spec. */
  #wireValue(v: unknown, t: FieldType | undefined): unknown {
    if (v == null || t === undefined || typeof t === 'string') return v;
    if (t.kind === 'array') return Array.isArray(v) ? v.map((x) => this.#wireValue(x, t.of)) : v;
    if (!isPlainObject(v)) return v;
    if (t.kind === 'ref' && t.collection === 'user' && Object.keys(v).length === 1) {
      const u = this.#userById(v);
      return u ? userRef(u, true) : v;
    }
    const fields = t.fields();
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.#wireValue(x, fields[k])]));
  }

  /** The role that wrote a message: its customer, an attendant, a virtual agent, or the system. */
  #senderRole(fromCustomer: boolean, sender: Rec | undefined): (typeof SENDER_ROLES)[number] {
    if (fromCustomer) return 'CUSTOMER';
    const role = sender ? roleOfUser(sender) : null;
    if (role !== 'agent' && role !== 'supervisor') return 'SYSTEM';
    return this.model.store.c.agent.get((sender?.agent as Rec | null | undefined)?.id)?.virtualAgent === true ? 'BOT' : 'AGENT';
  }

  #shapeMessage(m: Rec): void {
    const byName = (n: unknown): Rec | undefined => (typeof n === 'string' ? this.model.userByName(n) : undefined);
    const sender = byName(m.sendBy);
    const recipient = byName(m.toUser);
    const fromCustomer = m.fromUser === true;
    m.fromUser = sender ? userRef(sender, true) : null;
    m.toUser = recipient ? userRef(recipient, true) : null;
    m.sendBy = this.#senderRole(fromCustomer, sender);
    if (typeof m.sentiment === 'string') m.sentiment = { label: m.sentiment, score: null };
  }

  #shapeSession(s: Rec): void {
    // The channel word in userConnectedInstance, the customer's address in userConnectedResource.
    [s.userConnectedResource, s.userConnectedInstance] = [s.userConnectedInstance ?? null, s.userConnectedResource ?? null];
    if (isPlainObject(s.groupConf)) {
      const g = this.model.store.c.group.get(s.groupConf.id);
      s.groupConf = { id: String(s.groupConf.id), name: g?.name ?? null };
    }
    for (const k of ['agent', 'user'] as const) {
      if (!isPlainObject(s[k])) continue;
      const u = this.#userById(s[k]);
      s[k] = u ? userRef(u, false) : { id: String(s[k].id), name: null, userName: null };
    }
  }

  record(coll: CollectionName, rec: Rec, omit: readonly string[] = []): Rec {
    const spec = SPECS[coll];
    const shaped: Rec = { ...rec };
    for (const k of BARE_ID_REFS[coll] ?? []) if (isPlainObject(shaped[k])) shaped[k] = shaped[k].id;
    if (coll === 'message') this.#shapeMessage(shaped);
    if (coll === 'userSession') this.#shapeSession(shaped);
    const expanded: Rec = {};
    for (const [k, v] of Object.entries(shaped)) expanded[k] = this.#wireValue(v, spec[k]);
    const out = encodeRecord(coll, expanded, variantEncoding, [...omit, ...(HIDDEN[coll] ?? [])]);
    out._links = { self: { href: `${V2}${listPathOf(coll)}/${compositeKeyOf(coll, rec) ?? String(rec.id)}` } };
    out.tenantId = TENANT_ID;
    return out;
  }

  /** A message save in the variant's shapes, turned into the stored ones. */
  messageIn(b: Rec): void {
    const named = (v: Rec): Rec | undefined =>
      this.model.store.c.user.get(v.id) ?? (typeof v.userName === 'string' ? this.model.userByName(v.userName) : undefined);
    if (isPlainObject(b.sentiment)) b.sentiment = typeof b.sentiment.label === 'string' ? b.sentiment.label : null;
    if (isPlainObject(b.toUser)) b.toUser = named(b.toUser)?.userName ?? b.toUser;
    const role = typeof b.sendBy === 'string' ? SENDER_ROLES.find((r) => r === b.sendBy) : undefined;
    if (isPlainObject(b.fromUser)) {
      const u = named(b.fromUser);
      // Customers are the users without a staff role; an unknown user stays an object and is refused.
      if (u) b.fromUser = roleOfUser(u) === null;
    } else if (b.fromUser === undefined && role) {
      b.fromUser = role === 'CUSTOMER';
    }
    // A role is not a user name: the stand-in fills sendBy in as it does when it is absent.
    if (role) delete b.sendBy;
  }
}

function variantReading(model: Model): Reading {
  const shapes = new VariantShapes(model);
  return {
    name: 'variant',
    maxPageSize: VARIANT_MAX_PAGE_SIZE,
    absentPaths: new Set([`${V2}${RESOURCES.hsmTemplateGroup.list}`, `${V2}${V2_OPS.chatSuggestion}`]),
    saveIn(coll, body) {
      if (!isPlainObject(body)) return body;
      const spec = SPECS[coll];
      const ignored = [...WIRE_EXTRAS, ...(NOT_SAVABLE[coll] ?? [])];
      const out: Rec = {};
      for (const [k, v] of Object.entries(body)) {
        if (ignored.includes(k)) continue;
        const t = spec[k];
        if (t === 'int') out[k] = intIn(v);
        else if (t && typeof t !== 'string' && t.kind === 'ref') out[k] = refIn(v);
        else out[k] = v;
      }
      if (coll === 'message') shapes.messageIn(out);
      return out;
    },
    queryIn(coll, body) {
      const refs = BARE_ID_REFS[coll];
      return refs ? renameKeys(body, refs) : body;
    },
    out(shape, body, request) {
      if (!isPlainObject(body)) return body;
      if (shape.kind === 'record') return shapes.record(shape.coll, body, shape.omit);
      const asked = isPlainObject(request) && typeof request.size === 'number' ? request.size : DEFAULT_PAGE_SIZE;
      const results: unknown[] = Array.isArray(body.results) ? body.results : [];
      return { ...body, size: asked, results: results.map((r) => (isPlainObject(r) ? shapes.record(shape.coll, r) : r)) };
    },
  };
}
