import { z } from 'zod';
import { pageEnvelope, type Read } from '../../src-shared/envelopes';
import { describeSkip, type SkippedRecord } from '../../src-shared/unreadable';
import { AppError } from '../../src-shared/errors';
import { RESOURCES, V2, type ResourceKey } from '../../src-shared/paths';
import { STANDIN_MAX_PAGE_SIZE, type QueryBody } from '../../src-shared/query';
import { toQueryBody, type QueryInput } from '../../src-shared/query-builder';
import { RESOURCE_SCHEMAS, type ResourceRecord } from '../../src-shared/schemas/resources';
import type { CallOptions, Core, WriteOptions } from './core';

/** One generic client drives list and save of all 27 resources of §4.4. */

export type { ReadPage as Page } from '../../src-shared/envelopes';
import type { ReadPage as Page } from '../../src-shared/envelopes';

export interface PageAllOptions extends CallOptions {
  /** Stop after this many records (default 10,000). */
  cap?: number;
  /** Page size asked for when the query names none (default 500). */
  pageSize?: number;
  /** Upper bound on requests (default: enough for `cap` at one record a page, at most 10,000). */
  maxPages?: number;
}

export interface Collected<T> {
  records: Read<T>[];
  /** Records that could not be read, over every page (see `Page.skipped`). */
  skipped: number;
  /** The first of them, as the log names it. */
  first: SkippedRecord | null;
  /** More records exist beyond `cap`. */
  truncated: boolean;
  pages: number;
}

export interface ResourceClient<K extends ResourceKey> {
  readonly key: K;
  readonly canList: boolean;
  readonly canSave: boolean;
  /** One page, as the server answered it. */
  list(query?: QueryInput, options?: CallOptions): Promise<Page<ResourceRecord<K>>>;
  /** Every record matching the query, paging until a short page. */
  pageAll(query?: QueryInput, options?: PageAllOptions): Promise<Read<ResourceRecord<K>>[]>;
  /** `pageAll` that also says whether the cap cut the list short. */
  collect(query?: QueryInput, options?: PageAllOptions): Promise<Collected<ResourceRecord<K>>>;
  /** Upsert: without id creates, with id updates (404 when the id is unknown). */
  save(record: ResourceRecord<K>, options?: WriteOptions): Promise<Read<ResourceRecord<K>>>;
}

/** Words for messages: "Your role cannot save agents". */
export const RESOURCE_LABELS: Record<ResourceKey, string> = {
  agent: 'agents',
  userSession: 'sessions',
  userAttribute: 'user attributes',
  userAttributeHistory: 'user attribute history',
  userAgent: 'user-agent associations',
  botTag: 'bot tags',
  sessionComment: 'session notes',
  attendanceTimeReport: 'attendance time reports',
  pauseReason: 'pause reasons',
  message: 'messages',
  messageBundleGroup: 'message bundles',
  hsmTemplate: 'message templates',
  hsmTemplateGroup: 'template groups',
  holidayOperation: 'holiday operations',
  attribute: 'attributes',
  bot: 'bots',
  botAnswer: 'bot answers',
  call: 'calls',
  callLogHistory: 'call logs',
  chatAnswer: 'chat answers',
  chatWebConfiguration: 'chat web configurations',
  classification: 'classifications',
  classificationService: 'classification services',
  cognition: 'AI connections',
  directMessage: 'direct messages',
  workSchedule: 'work schedules',
  user: 'users',
};

const pageSchemas = new Map<ResourceKey, z.ZodType>();
function pageSchemaOf<K extends ResourceKey>(key: K): z.ZodType<Page<ResourceRecord<K>>> {
  let s = pageSchemas.get(key);
  if (!s) {
    s = pageEnvelope(RESOURCE_SCHEMAS[key] as z.ZodType<ResourceRecord<K>>, key);
    pageSchemas.set(key, s);
  }
  return s as z.ZodType<Page<ResourceRecord<K>>>;
}

const recordId = (r: unknown): unknown => (r && typeof r === 'object' ? (r as { id?: unknown }).id : undefined);

export function createResourceClient<K extends ResourceKey>(core: Core, key: K): ResourceClient<K> {
  const paths = RESOURCES[key];
  const label = RESOURCE_LABELS[key];
  const schema = RESOURCE_SCHEMAS[key] as unknown as z.ZodType<ResourceRecord<K>>;

  const list = async (input?: QueryInput, o: CallOptions = {}): Promise<Page<ResourceRecord<K>>> => {
    if (paths.list === null) {
      throw new AppError({ kind: 'Invalid', message: `The service offers no list of ${label}.`, operation: `${key}.list` });
    }
    const body: QueryBody = toQueryBody(input);
    const page = await core.call({
      operation: `${key}.list`,
      action: `list ${label}`,
      write: false,
      method: 'POST',
      path: V2 + paths.list,
      json: body,
      answer: { kind: 'json', schema: pageSchemaOf(key) },
      signal: o.signal,
      timeoutMs: o.timeoutMs,
    });
    if (page.skipped > 0 && page.first)
      core.log?.warn('records not read', { op: `${key}.list`, count: page.skipped, first: describeSkip(page.first) });
    return page;
  };

  const collect = async (input?: QueryInput, o: PageAllOptions = {}): Promise<Collected<ResourceRecord<K>>> => {
    const base = toQueryBody(input);
    const cap = o.cap ?? 10_000;
    const size = base.size ?? Math.min(o.pageSize ?? STANDIN_MAX_PAGE_SIZE, STANDIN_MAX_PAGE_SIZE);
    const maxPages = o.maxPages ?? Math.min(10_000, cap + 2);
    const records: Read<ResourceRecord<K>>[] = [];
    let page = base.page ?? 0;
    // The server may honour less than `size`; the longest page seen is its real page size, and
    // only a page shorter than that (or empty) ends the list.
    let longest = 0;
    let skipped = 0;
    let first: SkippedRecord | null = null;
    let previousFirstId: unknown;
    for (let pages = 1; ; pages++) {
      const got = await list({ ...base, page, size }, o);
      // The page's length as the server answered it, unreadable records included.
      const n = got.results.length + got.skipped;
      skipped += got.skipped;
      first ??= got.first;
      const firstId = recordId(got.results[0]);
      if (pages > 1 && n > 0 && firstId !== undefined && firstId === previousFirstId) {
        throw new AppError({
          kind: 'BadResponse',
          message: `The service answered the same page twice while listing ${label}; the list cannot be trusted.`,
          operation: `${key}.list`,
          field: 'page',
        });
      }
      previousFirstId = firstId;
      for (const r of got.results) {
        if (records.length >= cap) return { records, truncated: true, pages, skipped, first };
        records.push(r);
      }
      if (n === 0 || n < longest) return { records, truncated: false, pages, skipped, first };
      longest = Math.max(longest, n);
      if (records.length >= cap) {
        // Exactly at the cap: only another page can say whether more exist.
        const more = await list({ ...base, page: page + 1, size }, o);
        return { records, truncated: more.results.length + more.skipped > 0, pages: pages + 1, skipped, first };
      }
      if (pages >= maxPages) {
        throw new AppError({
          kind: 'BadResponse',
          message: `Listing ${label} did not end after ${maxPages} pages.`,
          operation: `${key}.list`,
        });
      }
      page++;
    }
  };

  return {
    key,
    canList: paths.list !== null,
    canSave: paths.save !== null,
    list,
    collect,
    pageAll: async (input, o) => (await collect(input, o)).records,
    save: async (record, o = {}) => {
      if (paths.save === null) {
        throw new AppError({ kind: 'Invalid', message: `The service offers no way to save ${label}.`, operation: `${key}.save` });
      }
      const saved = await core.call({
        operation: `${key}.save`,
        action: `save ${label}`,
        write: true,
        notFound: `The record to update no longer exists (404): it may have been removed. Reload ${label} and try again.`,
        method: 'POST',
        path: V2 + paths.save,
        json: record,
        answer: { kind: 'json', schema },
        safeToRetry: o.safeToRetry === true,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      });
      return saved as Read<ResourceRecord<K>>;
    },
  };
}
