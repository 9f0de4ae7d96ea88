import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { RawPageSchema, readPage, type Read } from '../../src-shared/envelopes';
import { describeSkip, type SkippedRecord } from '../../src-shared/unreadable';
import { idOf } from '../../src-shared/concepts';
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
  /** Stop after this many records, readable or not (default 10,000). */
  cap?: number;
  /** Page size asked for when the query names none (default 500). */
  pageSize?: number;
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

/** A page read on its own, and whether the records matching may go on past it. */
export interface ListedPage<T> extends Page<T> {
  /**
   * As long as the longest page this service has answered for the resource (or as asked): more
   * may match beyond it. Servers honour less than the size asked for without saying so.
   */
  cut: boolean;
}

/**
 * Whether a page of `n` records may be followed by more: it holds records and is no shorter than
 * the longest page the server answered for the query (the page size it really honours).
 */
function pageMayContinue(n: number, longest: number): boolean {
  return n > 0 && n >= longest;
}

export interface ResourceClient<K extends ResourceKey> {
  readonly key: K;
  readonly canList: boolean;
  readonly canSave: boolean;
  /** One page, as the server answered it. */
  list(query?: QueryInput, options?: CallOptions): Promise<ListedPage<ResourceRecord<K>>>;
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

const recordId = (r: unknown): unknown => (r && typeof r === 'object' ? (r as { id?: unknown }).id : undefined);

/**
 * What tells a record of a page from the others, to see whether a page brought anything new:
 * its id where it has one, else its place on the page and its content (records that cannot be
 * read, or whose identity is a composite, are told apart by position).
 */
function markOf(r: unknown, index: number): string {
  const id = idOf(recordId(r));
  if (id !== null) return `id:${id}`;
  return `at:${index}:${createHash('sha1')
    .update(JSON.stringify(r) ?? 'undefined')
    .digest('base64')}`;
}

/** Requests per page of a longer read: the first and at most one retry. */
const PAGE_ATTEMPTS = 2;

export function createResourceClient<K extends ResourceKey>(core: Core, key: K): ResourceClient<K> {
  return new Resource(core, key);
}

/** One resource of the service: its pages, longer reads and saves. */
class Resource<K extends ResourceKey> implements ResourceClient<K> {
  readonly key: K;
  readonly canList: boolean;
  readonly canSave: boolean;
  readonly #core: Core;
  readonly #paths: (typeof RESOURCES)[K];
  readonly #label: string;
  readonly #schema: z.ZodType<ResourceRecord<K>>;
  readonly #operation: string;
  /** The longest page the server has answered for this resource: the page size it honours. */
  #honoured = 0;

  constructor(core: Core, key: K) {
    this.#core = core;
    this.key = key;
    this.#paths = RESOURCES[key];
    this.#label = RESOURCE_LABELS[key];
    this.#schema = RESOURCE_SCHEMAS[key] as unknown as z.ZodType<ResourceRecord<K>>;
    this.#operation = `${key}.list`;
    this.canList = this.#paths.list !== null;
    this.canSave = this.#paths.save !== null;
  }

  /** One page as the server answered it, with its records read one by one (`readPage`). */
  async #fetchPage(input: QueryInput | undefined, o: CallOptions): Promise<{ raw: unknown[]; page: Page<ResourceRecord<K>> }> {
    if (this.#paths.list === null) {
      throw new AppError({ kind: 'Invalid', message: `The service offers no list of ${this.#label}.`, operation: this.#operation });
    }
    const body: QueryBody = toQueryBody(input);
    const raw = await this.#core.call({
      operation: this.#operation,
      action: `list ${this.#label}`,
      write: false,
      method: 'POST',
      path: V2 + this.#paths.list,
      json: body,
      answer: { kind: 'json', schema: RawPageSchema, size: 'list' },
      signal: o.signal,
      timeoutMs: o.timeoutMs,
      attempts: o.attempts,
    });
    const page = this.#core.time.read(() => readPage(raw, this.#schema, this.key));
    if (page.skipped > 0 && page.first)
      this.#core.log?.warn('records not read', { op: this.#operation, count: page.skipped, first: describeSkip(page.first) });
    return { raw: raw.results, page };
  }

  async list(input?: QueryInput, o: CallOptions = {}): Promise<ListedPage<ResourceRecord<K>>> {
    const { raw, page } = await this.#fetchPage(input, o);
    this.#honoured = Math.max(this.#honoured, raw.length);
    const asked = toQueryBody(input).size ?? Infinity;
    return { ...page, cut: pageMayContinue(raw.length, Math.min(asked, this.#honoured)) };
  }

  #stopped(message: string): AppError {
    return new AppError({ kind: 'BadResponse', reason: 'paging', message, operation: this.#operation, field: 'page' });
  }

  /**
   * Pages until a short page, and always ends. A page that brings nothing new stops the read with
   * an error: the same page again, only records of earlier pages, or a second page in a row with
   * no record the console can read. `cap` counts every record, readable or not, so no read takes
   * more pages than the cap needs at the first page's length (and one more to see whether the
   * list goes on). Each page is asked at most twice.
   */
  async collect(input?: QueryInput, o: PageAllOptions = {}): Promise<Collected<ResourceRecord<K>>> {
    const base = toQueryBody(input);
    const cap = o.cap ?? 10_000;
    const size = base.size ?? Math.min(o.pageSize ?? STANDIN_MAX_PAGE_SIZE, STANDIN_MAX_PAGE_SIZE);
    const call: CallOptions = { ...o, attempts: Math.min(o.attempts ?? PAGE_ATTEMPTS, PAGE_ATTEMPTS) };
    const records: Read<ResourceRecord<K>>[] = [];
    const seen = new Set<string>();
    let page = base.page ?? 0;
    // The server may honour less than `size`; the longest page seen is its real page size, and
    // only a page shorter than that (or empty) ends the list.
    let longest = 0;
    let skipped = 0;
    let first: SkippedRecord | null = null;
    /** Records read so far, readable or not: what `cap` counts. */
    let positions = 0;
    let previous = '';
    let unreadablePages = 0;
    for (let pages = 1; ; pages++) {
      const { raw, page: got } = await this.#fetchPage({ ...base, page, size }, call);
      const n = raw.length;
      if (n > 0) {
        const marks = raw.map(markOf);
        const joined = marks.join('\n');
        if (joined === previous) {
          throw this.#stopped(
            `The service answered the same page twice while listing ${this.#label} (page ${page}); the list stopped there.`,
          );
        }
        if (pages > 1 && marks.every((m) => seen.has(m))) {
          throw this.#stopped(
            `The service answered page ${page} of ${this.#label} with nothing new (only records of earlier pages); the list stopped there.`,
          );
        }
        unreadablePages = got.results.length === 0 ? unreadablePages + 1 : 0;
        if (unreadablePages >= 2) {
          throw this.#stopped(
            `The service answered two pages of ${this.#label} in a row without one record the console can read (pages ${page - 1} and ${page}); the list stopped there.`,
          );
        }
        previous = joined;
        for (const m of marks) seen.add(m);
      }
      skipped += got.skipped;
      first ??= got.first;
      positions += n;
      for (const r of got.results) records.push(r);
      if (positions > cap) {
        records.length = Math.min(records.length, cap);
        return { records, truncated: true, pages, skipped, first };
      }
      if (!pageMayContinue(n, longest)) return { records, truncated: false, pages, skipped, first };
      longest = Math.max(longest, n);
      if (positions === cap) {
        // Exactly at the cap: only another page can say whether more exist.
        const more = await this.#fetchPage({ ...base, page: page + 1, size }, call);
        return { records, truncated: more.raw.length > 0, pages: pages + 1, skipped, first };
      }
      page++;
    }
  }

  async pageAll(input?: QueryInput, o?: PageAllOptions): Promise<Read<ResourceRecord<K>>[]> {
    return (await this.collect(input, o)).records;
  }

  async save(record: ResourceRecord<K>, o: WriteOptions = {}): Promise<Read<ResourceRecord<K>>> {
    const key = this.key;
    const label = this.#label;
    if (this.#paths.save === null) {
      throw new AppError({ kind: 'Invalid', message: `The service offers no way to save ${label}.`, operation: `${key}.save` });
    }
    const saved = await this.#core.call({
      operation: `${key}.save`,
      action: `save ${label}`,
      write: true,
      notFound: `The record to update no longer exists (404): it may have been removed. Reload ${label} and try again.`,
      method: 'POST',
      path: V2 + this.#paths.save,
      json: record,
      answer: { kind: 'json', schema: this.#schema },
      safeToRetry: o.safeToRetry === true,
      signal: o.signal,
      timeoutMs: o.timeoutMs,
    });
    return saved as Read<ResourceRecord<K>>;
  }
}
