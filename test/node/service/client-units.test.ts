import { test, expect } from '@playwright/test';
import { query, toLookupBody, toQueryBody } from '../../../src-shared/query-builder';
import { QueryBodySchema } from '../../../src-shared/query';
import { ClassificationNodeSchema, RESOURCE_SCHEMAS, NpsSummarySchema, isKnowledgeBaseName } from '../../../src-shared/schemas/index';
import { RESOURCE_KEYS } from '../../../src-shared/paths';
import { createLogger } from '../../../src-main/log';
import { parseRetryAfter } from '../../../src-main/service/errors';

test.describe('query builder', () => {
  test('builds every operator, logic, nested groups, sort and paging', () => {
    const body = query()
      .where('status')
      .eq('OPEN')
      .and('groupConf.id')
      .eqNum(7)
      .or('lastAgent')
      .like('ana%')
      .and('pending')
      .isTrue()
      .and('onlyBot')
      .isFalse()
      .and('protocol')
      .notLike('X_%')
      .and('status')
      .in(['OPEN', 'CLOSED'])
      .and('id')
      .notIn([1, 2])
      .and('closedAt')
      .isNull()
      .and('agent')
      .notNull()
      .and('createdAt')
      .before(new Date('2024-05-01T00:00:00Z'))
      .and('createdAt')
      .after('2024-01-01T00:00:00Z')
      .and('status')
      .neq('CLOSED')
      .and('ticketId')
      .neqNum(0)
      .anyOf((g) => g.where('userConnectedResource').eq('email').or('userConnectedResource').eq('sms'))
      .group((g) => g.where('priority').isTrue(), 'OR')
      .allOf((g) => g.where('tma').eqNum(1).and('tme').eqNum(2))
      .sortBy('createdAt', 'DESC')
      .page(2)
      .size(50)
      .build();
    expect(QueryBodySchema.safeParse(body).success).toBe(true);
    expect(body.sort).toBe(true);
    expect(body).toMatchObject({ sortColumn: 'createdAt', direction: 'DESC', page: 2, size: 50 });
    const ops = body.conditions.filter((c) => c.operator).map((c) => c.operator);
    expect(new Set(ops)).toEqual(
      new Set([
        'EQ',
        'EQNUM',
        'NEQ',
        'NEQNUM',
        'IS_FALSE',
        'IS_TRUE',
        'LIKE',
        'NOT_LIKE',
        'IN',
        'NOT_IN',
        'IS_NULL',
        'NOT_NULL',
        'BEFORE',
        'AFTER',
      ]),
    );
    expect(body.conditions[0]).toEqual({ key: 'status', operator: 'EQ', value: 'OPEN' });
    expect(body.conditions[1]).toEqual({ key: 'groupConf.id', operator: 'EQNUM', value: '7', logic: 'AND' });
    expect(body.conditions[2]).toMatchObject({ logic: 'OR', operator: 'LIKE' });
    expect(body.conditions.find((c) => c.operator === 'IN')?.value).toBe('OPEN,CLOSED');
    expect(body.conditions.find((c) => c.operator === 'BEFORE')?.value).toBe('2024-05-01T00:00:00.000Z');
    expect(body.conditions.find((c) => c.operator === 'IS_TRUE')).not.toHaveProperty('value');
    const anyOf = body.conditions.find((c) => c.or);
    expect(anyOf).toEqual({
      logic: 'AND',
      or: [
        { key: 'userConnectedResource', operator: 'EQ', value: 'email' },
        { key: 'userConnectedResource', operator: 'EQ', value: 'sms', logic: 'OR' },
      ],
    });
    expect(body.conditions.find((c) => c.conditions)).toEqual({ logic: 'OR', conditions: [{ key: 'priority', operator: 'IS_TRUE' }] });
    expect(body.conditions.find((c) => c.and)?.and).toHaveLength(2);
  });

  test('refuses EQ on numbers and on digit-only ids, pointing at eqNum', () => {
    expect(() =>
      query()
        .where('id')
        .eq(7 as unknown as string),
    ).toThrow(/eqNum/);
    expect(() => query().where('id').eq('7')).toThrow(/eqNum\(7\)/);
    expect(() => query().where('groupConf.id').neq('3')).toThrow(/neqNum/);
    expect(() => query().where('sessionId').eq('12')).toThrow(/eqNum/);
    expect(() => query().where('id').eqNum(Number.NaN)).toThrow();
    expect(() => query().where('status').in([])).toThrow();
    expect(() => query().where('status').in(['a,b'])).toThrow(/comma/);
    // Text that merely looks numeric on a non-id key stays allowed.
    expect(query().where('protocol').eq('2024').build().conditions[0]?.value).toBe('2024');
  });

  test('plain bodies get the required fields; lookups drop paging', () => {
    expect(toQueryBody(undefined)).toEqual({ conditions: [], sort: false });
    expect(toQueryBody({ size: 10 })).toEqual({ conditions: [], sort: false, size: 10 });
    expect(toLookupBody({ conditions: [], sort: false, page: 3, size: 9 } as never)).toEqual({ conditions: [], sort: false });
    expect(query().sortBy('name').page(1).size(5).buildLookup()).toEqual({
      conditions: [],
      sort: true,
      sortColumn: 'name',
      direction: 'ASC',
    });
  });
});

test.describe('logger', () => {
  test('redacts registered secrets, bearer headers, credential fields and documents', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'debug', stream: { write: (l: string) => lines.push(l) } });
    log.registerSecret('s3cr3t-provider-key');
    log.info('calling with s3cr3t-provider-key', {
      headers: { Authorization: 'Bearer abc.def.ghi' },
      note: 'Bearer xyz123',
      password: 'hunter22',
      user: { cpf: '123.456.789-09' },
    });
    log.debug('plain', { count: 3 });
    const text = lines.join('');
    expect(text).not.toContain('s3cr3t-provider-key');
    expect(text).not.toContain('abc.def.ghi');
    expect(text).not.toContain('xyz123');
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('123.456.789-09');
    expect(text).toContain('***.***.789-09');
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({ level: 'info', msg: 'calling with [redacted]' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'debug', msg: 'plain', count: 3 });
  });

  test('drops lines below its level', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'warn', stream: { write: (l: string) => lines.push(l) } });
    log.info('no');
    log.warn('yes');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"yes"');
  });
});

test.describe('schemas', () => {
  test('one schema per resource, lenient on unknown and null fields; a field of the wrong type is dropped, not the record', () => {
    expect(Object.keys(RESOURCE_SCHEMAS).sort()).toEqual([...RESOURCE_KEYS].sort());
    for (const key of RESOURCE_KEYS) {
      const s = RESOURCE_SCHEMAS[key];
      expect(s.safeParse({ id: 1, somethingNew: { a: 1 } }).success, key).toBe(true);
      expect(s.safeParse({ id: null }).success, key).toBe(true);
      const odd = s.safeParse({ id: 1.5, createdAt: 12, somethingNew: 'kept' });
      expect(odd.success, key).toBe(true);
      // Typed ids drop a fraction; the few the interface leaves untyped keep it for concepts.ts.
      expect([undefined, 1.5], key).toContain((odd.data as { id?: unknown }).id);
      expect((odd.data as { somethingNew?: unknown }).somethingNew, key).toBe('kept');
      expect(s.safeParse('not a record').success, key).toBe(false);
    }
    const tree = ClassificationNodeSchema.parse({ id: 1, children: [{ id: 2, children: [{ id: 3, value: 'leaf' }] }], extra: true });
    expect(tree).toMatchObject({ extra: true, children: [{ children: [{ value: 'leaf' }] }] });
    expect(NpsSummarySchema.safeParse({ averageNps: 8.1, negative: 1, neutral: 2, positive: 3 }).success).toBe(false);
  });

  test('knowledge-base names follow {hostname}_{identifier}_data_pt', () => {
    expect(isKnowledgeBaseName('acme.com.br_faq_data_pt')).toBe(true);
    expect(isKnowledgeBaseName('faq_data_pt')).toBe(false);
    expect(isKnowledgeBaseName('acme.com_faq_data_en')).toBe(false);
  });

  test('Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
