import type { ExplorerPage, Rules } from '../../../../src-shared/bridge/supervisor';
import { RESOURCES, type ResourceKey } from '../../../../src-shared/paths';
import type { Condition, Operator } from '../../../../src-shared/query';
import { errorMessage, invoke } from '../../lib/bridge';
import { saveAllowed } from './explorer-rules';

/** Operators of the shared query body (src-shared/query.ts), listed here to keep zod out of the bundle. */
export const OPERATOR_LIST = [
  'EQ', 'EQNUM', 'NEQ', 'NEQNUM', 'IS_FALSE', 'IS_TRUE', 'LIKE', 'NOT_LIKE', 'IN', 'NOT_IN', 'IS_NULL', 'NOT_NULL', 'BEFORE', 'AFTER',
] as const satisfies readonly Operator[];
/** Operators that ignore the value. */
export const NO_VALUE: ReadonlySet<string> = new Set(['IS_TRUE', 'IS_FALSE', 'IS_NULL', 'NOT_NULL']);

export const LISTABLE = (Object.keys(RESOURCES) as ResourceKey[]).filter((k) => RESOURCES[k].list !== null);

let nextId = 1;
export interface Leaf { kind: 'leaf'; id: number; logic: 'AND' | 'OR'; key: string; operator: Operator; value: string }
export interface Group { kind: 'group'; id: number; logic: 'AND' | 'OR'; mode: 'or' | 'and'; children: Node[] }
export type Node = Leaf | Group;

export const leaf = (key = '', operator: Operator = 'EQ', value = ''): Leaf => ({ kind: 'leaf', id: nextId++, logic: 'AND', key, operator, value });
export const group = (mode: 'or' | 'and'): Group => ({ kind: 'group', id: nextId++, logic: 'AND', mode, children: [leaf(), leaf()] });

/** The builder's tree as the shared query body's conditions. Empty leaves are skipped. */
export function toConditions(nodes: Node[], joined = true): Condition[] {
  const out: Condition[] = [];
  for (const n of nodes) {
    let c: Condition | null = null;
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
export function columnsOf(records: Array<Record<string, unknown>>, max = 8): string[] {
  const seen = new Map<string, number>();
  for (const r of records.slice(0, 50)) {
    for (const [k, v] of Object.entries(r)) {
      if (v === null || typeof v !== 'object') seen.set(k, (seen.get(k) ?? 0) + 1);
    }
  }
  const keys = [...seen.keys()];
  const idFirst = keys.includes('id') ? ['id', ...keys.filter((k) => k !== 'id')] : keys;
  return idFirst.slice(0, max);
}

export class ExplorerStore {
  resource = $state<ResourceKey>('userSession');
  nodes = $state<Node[]>([leaf()]);
  sortColumn = $state<string | null>(null);
  direction = $state<'ASC' | 'DESC'>('ASC');
  page = $state(0);
  size = $state(20);
  data = $state<ExplorerPage | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  selected = $state<Record<string, unknown> | null>(null);
  draft = $state('{}');
  saving = $state(false);
  saveError = $state<string | null>(null);
  saved = $state<string | null>(null);
  rules = $state<Rules | null>(null);

  columns = $derived(columnsOf(this.data?.results ?? []));

  get canSave(): boolean {
    return RESOURCES[this.resource].save !== null;
  }

  get roleAllows(): boolean {
    return saveAllowed(this.resource, this.rules?.rules ?? null);
  }

  async loadRules(): Promise<void> {
    try {
      this.rules = await invoke('supervisor:rules', {});
    } catch {
      this.rules = null;
    }
  }

  setResource(key: ResourceKey): void {
    this.resource = key;
    this.nodes = [leaf()];
    this.sortColumn = null;
    this.page = 0;
    this.data = null;
    this.selected = null;
    this.draft = '{}';
    this.saved = null;
    this.saveError = null;
  }

  async load(): Promise<void> {
    this.loading = true;
    this.error = null;
    try {
      this.data = await invoke('supervisor:explore', {
        resource: this.resource,
        conditions: toConditions(this.nodes),
        ...(this.sortColumn ? { sortColumn: this.sortColumn, direction: this.direction } : {}),
        page: this.page,
        size: this.size,
      });
    } catch (e) {
      this.data = null;
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
    }
  }

  search(): Promise<void> {
    this.page = 0;
    return this.load();
  }

  sortBy(column: string): Promise<void> {
    if (this.sortColumn === column) this.direction = this.direction === 'ASC' ? 'DESC' : 'ASC';
    else {
      this.sortColumn = column;
      this.direction = 'ASC';
    }
    this.page = 0;
    return this.load();
  }

  go(delta: number): Promise<void> {
    this.page = Math.max(0, this.page + delta);
    return this.load();
  }

  select(record: Record<string, unknown>): void {
    this.selected = record;
  }

  edit(record: Record<string, unknown> | null): void {
    this.draft = JSON.stringify(record ?? {}, null, 2);
    this.saved = null;
    this.saveError = null;
  }

  async save(parseError: (reason: string) => string, savedText: (id: string) => string): Promise<void> {
    this.saveError = null;
    this.saved = null;
    let record: unknown;
    try {
      record = JSON.parse(this.draft);
    } catch (e) {
      this.saveError = parseError(e instanceof Error ? e.message : String(e));
      return;
    }
    if (!record || typeof record !== 'object' || Array.isArray(record)) {
      this.saveError = parseError('a record is a JSON object { … }');
      return;
    }
    this.saving = true;
    try {
      const out = await invoke('supervisor:save', { resource: this.resource, record: record as Record<string, unknown> });
      this.saved = savedText(String(out.record.id ?? ''));
      this.draft = JSON.stringify(out.record, null, 2);
      await this.load();
    } catch (e) {
      this.saveError = errorMessage(e);
    } finally {
      this.saving = false;
    }
  }

  reset(): void {
    this.setResource('userSession');
    this.rules = null;
  }
}

export const explorer = new ExplorerStore();
