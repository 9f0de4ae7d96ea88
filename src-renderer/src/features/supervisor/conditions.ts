import { OPERATORS, NO_VALUE_OPERATORS, type Condition, type Operator } from '../../../../src-shared/operators';

/** The condition builder's tree and its translation to the shared query body. Pure. */

export const OPERATOR_LIST = OPERATORS;
/** Operators that ignore the value. */
export const NO_VALUE: ReadonlySet<string> = NO_VALUE_OPERATORS;

let nextId = 1;
export interface Leaf {
  kind: 'leaf';
  id: number;
  logic: 'AND' | 'OR';
  key: string;
  operator: Operator;
  value: string;
}
export interface Group {
  kind: 'group';
  id: number;
  logic: 'AND' | 'OR';
  mode: 'or' | 'and';
  children: Node[];
}
export type Node = Leaf | Group;

export const leaf = (key = '', operator: Operator = 'EQ', value = ''): Leaf => ({
  kind: 'leaf',
  id: nextId++,
  logic: 'AND',
  key,
  operator,
  value,
});
export const group = (mode: 'or' | 'and'): Group => ({ kind: 'group', id: nextId++, logic: 'AND', mode, children: [leaf(), leaf()] });

/** The builder's tree as the shared query body's conditions. Empty leaves are skipped. */
export function toConditions(nodes: Node[], joined = true): Condition[] {
  const out: Condition[] = [];
  for (const n of nodes) {
    let c: Condition;
    if (n.kind === 'leaf') {
      if (!n.key.trim()) continue;
      c = { key: n.key.trim(), operator: n.operator };
      if (!NO_VALUE.has(n.operator)) c.value = n.value;
    } else {
      const inner = toConditions(n.children, false);
      if (!inner.length) continue;
      c = n.mode === 'or' ? { or: inner } : { and: inner };
    }
    // Inside an OR/AND group the group itself says how members join.
    if (joined && out.length) c.logic = n.logic;
    out.push(c);
  }
  return out;
}

/** Columns worth a table column: scalar fields, `id` first, in the order records carry them. */
const LEADING_COLUMNS = [
  'id',
  'protocol',
  'name',
  'userName',
  // A person's document tells two of the same name apart (shown masked until clicked).
  'cpf',
  'displayName',
  'value',
  'code',
  'status',
  'message',
  'comment',
  'description',
  'createdAt',
];

export function columnsOf(records: Array<Record<string, unknown>>, max = 8): string[] {
  const seen = new Map<string, number>();
  for (const r of records.slice(0, 50)) {
    for (const [k, v] of Object.entries(r)) {
      if (v === null || typeof v !== 'object') seen.set(k, (seen.get(k) ?? 0) + 1);
    }
  }
  // Fields that tell records apart come first; the rest keep the order the records give them.
  const rank = (k: string) => {
    const i = LEADING_COLUMNS.indexOf(k);
    return i >= 0 ? i : LEADING_COLUMNS.length;
  };
  return [...seen.keys()]
    .map((k, i) => ({ k, i }))
    .sort((a, b) => rank(a.k) - rank(b.k) || a.i - b.i)
    .map((x) => x.k)
    .slice(0, max);
}
