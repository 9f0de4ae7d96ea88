import type { ExplorerPage, Rules } from '../../../../src-shared/bridge/supervisor';
import { RESOURCES, type ResourceKey } from '../../../../src-shared/paths';
import { idOf } from '../../../../src-shared/concepts';
import { failure, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { ServerPagedStore } from './paged.svelte';
import { saveAllowed } from './explorer-rules';
import { columnsOf, leaf, toConditions, type Node } from './conditions';
import { conditionFields as fieldsToTest, formFields, type RefTarget } from './resource-fields';
import { optionLabel, setPath } from './record-form';
import { DeskStore } from '../../lib/desk.svelte';
import { maskedJson, unmaskJson } from './explorer-cells';
import { errorText } from '../../../../src-shared/error-text';

export { group, leaf, NO_VALUE, OPERATOR_LIST, toConditions, type Group, type Leaf, type Node } from './conditions';

export const LISTABLE = (Object.keys(RESOURCES) as ResourceKey[]).filter((k) => RESOURCES[k].list !== null);

/** One choice of a reference picker. */
export interface RefOption {
  id: number;
  label: string;
}
/** A picker's list: loading, loaded, or why it could not be read. */
export type RefOptions = { state: 'loading' } | { state: 'ready'; options: RefOption[] } | { state: 'failed'; reason: Worded };
/** How many records a picker offers: the newest first. */
const PICKER_SIZE = 200;

type Rec = Record<string, unknown>;
/** The advanced view's text: documents masked there too (put back on reading it, when left as they were). */
const show = (record: Rec) => maskedJson(record);

export class ExplorerStore extends ServerPagedStore<string, ExplorerPage> {
  #resource = $state<ResourceKey>('userSession');
  #nodes = $state<Node[]>([leaf()]);
  #selected = $state<Rec | null>(null);
  /** The record being edited: the form's model, printed by the JSON view (replaced, never mutated). */
  #draft = $state.raw<Rec>({});
  /** The record as it was when editing began (emptying a field it had clears it). */
  #base = $state.raw<Rec>({});
  /** The JSON view's text, and whether that view is the one shown. */
  json = $state('{}');
  #advanced = $state(false);
  #options = $state.raw<Partial<Record<RefTarget, RefOptions>>>({});
  #saving = $state(false);
  #saveError = $state.raw<Worded | null>(null);
  #saved = $state.raw<Worded | null>(null);
  #rules = $state<Rules | null>(null);
  /** Documents the user revealed in the results and the record view (keys from `revealKey`). */
  #revealed = $state.raw<ReadonlySet<string>>(new Set());
  /** The split reading of multi-value "is one of" conditions, asked for once they found nothing. */
  #split = $state(false);

  get resource() {
    return this.#resource;
  }
  get nodes() {
    return this.#nodes;
  }
  /** Adds a condition or a group at the end of the form. */
  addNode(node: Node): void {
    this.#nodes = [...this.#nodes, node];
  }
  get selected() {
    return this.#selected;
  }
  get draft() {
    return this.#draft;
  }
  get base() {
    return this.#base;
  }
  get advanced() {
    return this.#advanced;
  }
  get saving() {
    return this.#saving;
  }
  get saveError() {
    return worded(this.#saveError);
  }
  get saved() {
    return worded(this.#saved);
  }
  get rules() {
    return this.#rules;
  }
  get split() {
    return this.#split;
  }

  readonly #scope: Scope;
  constructor(scope: Scope) {
    super({ sortColumn: null, direction: 'ASC', size: 20, clearOnError: true });
    this.#scope = scope;
  }

  columns = $derived(columnsOf(this.data?.results ?? []));
  /** The form's fields for the record being edited. */
  fields = $derived(formFields(this.#resource, this.#draft));
  /** What the condition builder offers: the resource's fields and any other key its records show. */
  queryFields = $derived(
    fieldsToTest(this.#resource, [...new Set((this.data?.results ?? []).slice(0, 20).flatMap((r) => Object.keys(r)))]),
  );

  get canSave(): boolean {
    return RESOURCES[this.#resource].save !== null;
  }

  get roleAllows(): boolean {
    return saveAllowed(this.#resource, this.#rules?.rules ?? null);
  }

  async loadRules(): Promise<void> {
    try {
      this.#rules = await this.#scope.invoke('supervisor:rules', {});
    } catch {
      this.#rules = null;
    }
  }

  /** Whether a document in a shown field was revealed; hidden until the user asks. */
  isRevealed(key: string): boolean {
    return this.#revealed.has(key);
  }

  toggleReveal(key: string): void {
    const next = new Set(this.#revealed);
    if (!next.delete(key)) next.add(key);
    this.#revealed = next;
  }

  setResource(key: ResourceKey): void {
    this.#resource = key;
    this.#revealed = new Set();
    this.#split = false;
    this.#nodes = [leaf()];
    this.resetPaging();
    this.#selected = null;
    this.edit(null);
    // Pickers list what the service has now, read again for the next resource.
    this.#options = {};
  }

  protected fetch(): Promise<ExplorerPage> {
    return this.#scope.invoke('supervisor:explore', {
      resource: this.#resource,
      conditions: toConditions(this.#nodes),
      ...(this.sortColumn ? { sortColumn: this.sortColumn, direction: this.direction } : {}),
      page: this.page,
      size: this.size,
      split: this.#split,
    });
  }

  /** Runs the conditions as the user wrote them. */
  search(): Promise<void> {
    this.#split = false;
    return this.restart();
  }

  /** The same conditions, each multi-value "is one of" read value by value (some servers need it). */
  readSplit(): Promise<void> {
    this.#split = true;
    return this.restart();
  }

  select(record: Rec): void {
    this.#selected = record;
  }

  edit(record: Rec | null): void {
    this.#base = record ?? {};
    this.#draft = record ?? {};
    this.json = show(this.#draft);
    this.#saved = null;
    this.#saveError = null;
  }

  /** One field of the form; `undefined` leaves it out of the record. */
  setField(key: string, value: unknown): void {
    this.#draft = setPath(this.#draft, key, value);
    this.#saved = null;
  }

  /**
   * Switches between the form and the JSON view, carrying the edits: the form's record is printed
   * into the JSON view, the JSON view's text read back into the form (which stays shut while the
   * text is not a JSON object, saying why).
   */
  showAdvanced(on: boolean, parseError: (reason: string) => string): void {
    if (on === this.#advanced) return;
    if (on) {
      this.json = show(this.#draft);
      this.#advanced = true;
      return;
    }
    const record = this.#readJson(parseError);
    if (!record) return;
    this.#draft = record;
    this.#advanced = false;
  }

  /** The JSON view's text as a record, or null with the reason shown. */
  #readJson(parseError: (reason: string) => string): Rec | null {
    this.#saveError = null;
    let record: unknown;
    try {
      record = JSON.parse(this.json);
    } catch (e) {
      const reason = errorText(e);
      this.#saveError = () => parseError(reason);
      return null;
    }
    if (!record || typeof record !== 'object' || Array.isArray(record)) {
      this.#saveError = () => parseError('a record is a JSON object { … }');
      return null;
    }
    // A document left masked keeps its value: the masked text is what was shown, not an edit.
    return unmaskJson(record, this.#draft) as Rec;
  }

  async save(parseError: (reason: string) => string, savedText: (id: string) => string): Promise<void> {
    this.#saved = null;
    const record = this.#advanced ? this.#readJson(parseError) : this.#draft;
    if (!record) return;
    this.#saveError = null;
    this.#draft = record;
    this.#saving = true;
    try {
      const out = await this.#scope.invoke('supervisor:save', { resource: this.#resource, record });
      this.edit(out.record);
      const id = out.record.id;
      const shown = typeof id === 'number' || typeof id === 'string' ? String(id) : '';
      this.#saved = () => savedText(shown);
      // A new record may be what a picker offers next.
      this.#options = {};
      await this.load();
    } catch (e) {
      this.#saveError = failure(e);
    } finally {
      this.#saving = false;
    }
  }

  /** A picker's list; null until a picker asks for it (`wantOptions`). */
  options(target: RefTarget): RefOptions | null {
    return this.#options[target] ?? null;
  }

  /** Reads a picker's list unless it is read or being read (once per resource shown). */
  wantOptions(target: RefTarget): void {
    if (!this.#options[target]) void this.#readOptions(target);
  }

  async #readOptions(target: RefTarget): Promise<void> {
    this.#options = { ...this.#options, [target]: { state: 'loading' } };
    let next: RefOptions;
    try {
      next = { state: 'ready', options: target === 'group' ? await this.#groupOptions() : await this.#listOptions(target) };
    } catch (e) {
      next = { state: 'failed', reason: failure(e) };
    }
    this.#options = { ...this.#options, [target]: next };
  }

  /** The newest records of a list, as picker choices. */
  async #listOptions(resource: ResourceKey): Promise<RefOption[]> {
    const page = await this.#scope.invoke('supervisor:explore', {
      resource,
      conditions: [],
      sortColumn: 'id',
      direction: 'DESC',
      page: 0,
      size: PICKER_SIZE,
    });
    const out: RefOption[] = [];
    for (const r of page.results) {
      const id = idOf(r.id);
      if (id !== null) out.push({ id, label: optionLabel(r) });
    }
    return out;
  }

  /** Groups have no list operation (interface §4.4): the ones the attendance directory found. */
  async #groupOptions(): Promise<RefOption[]> {
    const desk = this.#scope.use(DeskStore);
    await desk.ensureDirectory();
    return (desk.directory?.groups ?? []).map((g) => ({ id: g.id, label: optionLabel(g) }));
  }
}
