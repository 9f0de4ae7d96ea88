import type { KbBase } from '../../../../src-shared/bridge/supervisor';
import { KB_FILE_MAX_BYTES } from '../../../../src-shared/kb-name';
import { BridgeError, failure, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { checkKbUpload, KB_FILE_TYPES, suggestKbName, type KbCheck } from './kb-check';

/** A problem with the upload as shown: its field, and its words when shown (they follow the language). */
export type KbProblem = { field: 'url' | 'name' | 'file'; message: Worded };
const wordedChecks = (checks: KbCheck[]): KbProblem[] => checks.map((c) => ({ field: c.field, message: () => tt(c.key, c.params) }));
import { tt } from './strings';
import { app } from '../../lib/app.svelte';
import { SupervisorAccess } from './access.svelte';

/**
 * A workspace's knowledge bases: the upload form, the bases uploaded from this console (with
 * their indexing state, pushed by the main process) and the test question.
 */
export class KbStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  /** This workspace's service address: base names are built from its host. */
  get #baseUrl(): string | null {
    return app.state?.workspaces.find((w) => w.id === this.#scope.workspaceId)?.baseUrl ?? app.state?.baseUrl ?? null;
  }

  #url = $state('');
  #name = $state('');
  /** The user typed a name of their own: the file no longer renames it. */
  #nameTyped = $state(false);

  /** Where the file comes from: a public link, or a file on this computer lent to the service. */
  #source = $state<'link' | 'file'>('link');
  #file = $state.raw<File | null>(null);

  /** A new file address: the base name follows it until the user types one. */
  setUrl(url: string): void {
    this.#url = url;
    if (!this.#nameTyped) this.#name = suggestKbName(this.#baseUrl, url.trim()) ?? '';
  }

  get source() {
    return this.#source;
  }
  set source(v) {
    this.#source = v;
    this.#problems = [];
    if (!this.#nameTyped)
      this.#name =
        (v === 'file' ? this.#file && suggestKbName(this.#baseUrl, this.#file.name) : suggestKbName(this.#baseUrl, this.#url.trim())) ?? '';
  }
  get file() {
    return this.#file;
  }

  /** A file picked or dropped: the base name follows it until the user types one. */
  setFile(file: File | null): void {
    this.#file = file;
    this.#source = 'file';
    this.#problems = file ? this.#fileProblems(file) : [];
    if (file && !this.#nameTyped) this.#name = suggestKbName(this.#baseUrl, file.name) ?? '';
  }

  #fileProblems(file: File): KbProblem[] {
    const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
    if (!(KB_FILE_TYPES as readonly string[]).includes(ext))
      return [
        { field: 'file', message: () => tt('kb.fileType', { name: file.name, types: KB_FILE_TYPES.map((t) => `.${t}`).join(', ') }) },
      ];
    if (file.size > KB_FILE_MAX_BYTES)
      return [{ field: 'file', message: () => tt('kb.fileTooBig', { name: file.name, max: KB_FILE_MAX_BYTES / 1024 / 1024 }) }];
    if (file.size === 0) return [{ field: 'file', message: () => tt('kb.fileEmpty', { name: file.name }) }];
    return [];
  }
  separator = $state('');
  idColumn = $state('');
  #problems = $state<KbProblem[]>([]);
  #uploading = $state(false);
  #uploadError = $state.raw<Worded | null>(null);
  #bases = $state<KbBase[]>([]);
  /** Every base this workspace knows by name (uploaded before, searched by its attendants, or set). */
  #known = $state<string[]>([]);
  askBase = $state('');
  question = $state('');
  #asking = $state(false);
  #askError = $state.raw<Worded | null>(null);
  #answers = $state<Array<{ text: string; score: number }> | null>(null);
  #listening = false;

  /** Whether this account may upload (null: the service has not said): see SupervisorAccess. */
  get mayUpload(): boolean | null {
    return this.#scope.use(SupervisorAccess).mayUploadKb;
  }

  /** A base the user picked from the list, to ask it a question. */
  pick(name: string): void {
    this.askBase = name;
  }

  /** An uploaded base already has this name: sending replaces it (interface §4.5). */
  get replaces(): boolean {
    const name = this.#name.trim();
    return name !== '' && this.#bases.some((b) => b.name === name);
  }

  async start(): Promise<void> {
    const access = this.#scope.use(SupervisorAccess);
    if (access.role === undefined) await access.load();
    if (!this.#listening) {
      this.#listening = true;
      this.#scope.on('supervisor:kb', (b) => this.#merge(b));
    }
    try {
      const got = await this.#scope.invoke('supervisor:kbList', {});
      for (const b of got.bases) this.#merge(b);
      this.#known = got.known ?? [];
      if (!this.askBase && this.#known[0]) this.askBase = this.#known[0];
    } catch (e) {
      this.#uploadError = failure(e);
    }
  }

  #merge(b: KbBase): void {
    this.#bases = [b, ...this.#bases.filter((x) => x.name !== b.name)];
    if (!this.askBase) this.askBase = b.name;
  }

  /** Set when the service client refused a link carrying a CPF/CNPJ: the user may confirm. */
  #documentInLink = $state(false);

  get url() {
    return this.#url;
  }
  get name() {
    return this.#name;
  }
  get nameTyped() {
    return this.#nameTyped;
  }
  /** The base name typed by the user (empty goes back to the one built for them). */
  typeName(name: string): void {
    this.#name = name;
    this.#nameTyped = name !== '';
  }
  get problems() {
    return this.#problems;
  }
  get uploading() {
    return this.#uploading;
  }
  get uploadError() {
    return worded(this.#uploadError);
  }
  get bases() {
    return this.#bases;
  }
  /** The known bases not uploaded in this run (those are listed with their state). */
  get known(): string[] {
    return this.#known.filter((n) => !this.#bases.some((b) => b.name === n));
  }
  get asking() {
    return this.#asking;
  }
  get askError() {
    return worded(this.#askError);
  }
  get answers() {
    return this.#answers;
  }
  get documentInLink() {
    return this.#documentInLink;
  }

  async upload(revealDocuments = false): Promise<void> {
    this.#uploadError = null;
    this.#documentInLink = false;
    const file = this.#source === 'file' ? this.#file : null;
    if (this.#source === 'file') {
      const nameProblems = wordedChecks(checkKbUpload('https://example.com/x.csv', this.#name).filter((p) => p.field === 'name'));
      // Without a file there is no name to check yet: the name is built from the file.
      this.#problems = file ? [...this.#fileProblems(file), ...nameProblems] : [{ field: 'file', message: () => tt('kb.noFile') }];
    } else this.#problems = wordedChecks(checkKbUpload(this.#url, this.#name));
    if (this.#problems.length) return;
    this.#uploading = true;
    const rest = {
      name: this.#name.trim(),
      ...(this.separator ? { separator: this.separator } : {}),
      ...(this.idColumn.trim() ? { idColumn: this.idColumn.trim() } : {}),
    };
    try {
      const base = file
        ? await this.#scope.invoke('supervisor:kbUploadFile', { fileName: file.name, contentBase64: await base64Of(file), ...rest })
        : await this.#scope.invoke('supervisor:kbUpload', {
            url: this.#url.trim(),
            ...rest,
            ...(revealDocuments ? { revealDocuments: true } : {}),
          });
      this.#merge(base);
      this.askBase = base.name;
    } catch (e) {
      this.#uploadError = failure(e);
      if (e instanceof BridgeError && e.info.status === 403) this.#scope.use(SupervisorAccess).refusedKbUpload();
      this.#documentInLink = e instanceof BridgeError && e.info.field === 'url_file';
    } finally {
      this.#uploading = false;
    }
  }

  async ask(): Promise<void> {
    const name = this.askBase.trim();
    const question = this.question.trim();
    if (!name || !question) return;
    this.#asking = true;
    this.#askError = null;
    try {
      this.#answers = (await this.#scope.invoke('supervisor:kbAsk', { name, question, size: 5 })).answers;
    } catch (e) {
      this.#answers = null;
      this.#askError = failure(e);
    } finally {
      this.#asking = false;
    }
  }
}

/** A file's bytes as base64 (the bridge carries JSON), read by the browser without copying them into a string first. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read.`));
    reader.readAsDataURL(file);
  });
}
