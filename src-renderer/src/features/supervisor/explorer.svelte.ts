import type { ExplorerPage, Rules } from '../../../../src-shared/bridge/supervisor';
import { RESOURCES, type ResourceKey } from '../../../../src-shared/paths';
import { errorMessage, invoke } from '../../lib/bridge';
import { ServerPagedStore } from './paged.svelte';
import { saveAllowed } from './explorer-rules';
import { columnsOf, leaf, toConditions, type Node } from './conditions';

export { group, leaf, NO_VALUE, OPERATOR_LIST, toConditions, type Group, type Leaf, type Node } from './conditions';

export const LISTABLE = (Object.keys(RESOURCES) as ResourceKey[]).filter((k) => RESOURCES[k].list !== null);

export class ExplorerStore extends ServerPagedStore<string, ExplorerPage> {
  #resource = $state<ResourceKey>('userSession');
  #nodes = $state<Node[]>([leaf()]);
  #selected = $state<Record<string, unknown> | null>(null);
  #draft = $state('{}');
  #saving = $state(false);
  #saveError = $state<string | null>(null);
  #saved = $state<string | null>(null);
  #rules = $state<Rules | null>(null);

  get resource() { return this.#resource; }
  get nodes() { return this.#nodes; }
  /** Adds a condition or a group at the end of the form. */
  addNode(node: Node): void {
    this.#nodes = [...this.#nodes, node];
  }
  get selected() { return this.#selected; }
  get draft() { return this.#draft; }
  set draft(v) { this.#draft = v; }
  get saving() { return this.#saving; }
  get saveError() { return this.#saveError; }
  get saved() { return this.#saved; }
  get rules() { return this.#rules; }

  constructor() {
    super({ sortColumn: null, direction: 'ASC', size: 20, clearOnError: true });
  }

  columns = $derived(columnsOf(this.data?.results ?? []));

  get canSave(): boolean {
    return RESOURCES[this.#resource].save !== null;
  }

  get roleAllows(): boolean {
    return saveAllowed(this.#resource, this.#rules?.rules ?? null);
  }

  async loadRules(): Promise<void> {
    try {
      this.#rules = await invoke('supervisor:rules', {});
    } catch {
      this.#rules = null;
    }
  }

  setResource(key: ResourceKey): void {
    this.#resource = key;
    this.#nodes = [leaf()];
    this.resetPaging();
    this.#selected = null;
    this.#draft = '{}';
    this.#saved = null;
    this.#saveError = null;
  }

  protected fetch(): Promise<ExplorerPage> {
    return invoke('supervisor:explore', {
      resource: this.#resource,
      conditions: toConditions(this.#nodes),
      ...(this.sortColumn ? { sortColumn: this.sortColumn, direction: this.direction } : {}),
      page: this.page,
      size: this.size,
    });
  }

  search(): Promise<void> {
    return this.restart();
  }

  select(record: Record<string, unknown>): void {
    this.#selected = record;
  }

  edit(record: Record<string, unknown> | null): void {
    this.#draft = JSON.stringify(record ?? {}, null, 2);
    this.#saved = null;
    this.#saveError = null;
  }

  async save(parseError: (reason: string) => string, savedText: (id: string) => string): Promise<void> {
    this.#saveError = null;
    this.#saved = null;
    let record: unknown;
    try {
      record = JSON.parse(this.#draft);
    } catch (e) {
      this.#saveError = parseError(e instanceof Error ? e.message : String(e));
      return;
    }
    if (!record || typeof record !== 'object' || Array.isArray(record)) {
      this.#saveError = parseError('a record is a JSON object { … }');
      return;
    }
    this.#saving = true;
    try {
      const out = await invoke('supervisor:save', { resource: this.#resource, record: record as Record<string, unknown> });
      this.#saved = savedText(String(out.record.id ?? ''));
      this.#draft = JSON.stringify(out.record, null, 2);
      await this.load();
    } catch (e) {
      this.#saveError = errorMessage(e);
    } finally {
      this.#saving = false;
    }
  }

  reset(): void {
    this.setResource('userSession');
    this.#rules = null;
  }
}

export const explorer = new ExplorerStore();
