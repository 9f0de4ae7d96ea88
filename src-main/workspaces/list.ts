import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { makeFolder, removeFolder } from '../folders';
import { join, relative } from 'node:path';
import { setAsideUnder } from '../set-aside';
import type { AppState, Workspace, WorkspaceInfo } from '../../src-shared/bridge';
import { WorkspaceEntrySchema, type Settings, type WorkspaceEntry } from '../settings';
import type { SecretCipher } from '../vault/types';
import { workspaceDir } from './registry';
import type { WorkspaceRuntime } from './runtime';

export interface WorkspaceListOptions {
  profileDir: string;
  settings: Settings;
  /** The platform's cipher: the vault state shown while no workspace is open. */
  cipher: SecretCipher;
  locale: string;
  /** Builds a workspace's runtime in its own folder (the composition root's part). */
  build(id: string, dir: string): WorkspaceRuntime;
}

/** In each workspace's folder: a copy of its entry in the list. */
const ENTRY_FILE = 'entry.json';

/** The label a workspace goes by: "Demo", or its service's host (and port when not the usual). */
function labelOf(workspace: Workspace): string {
  if (workspace.kind === 'demo') return 'Demo';
  try {
    return new URL(workspace.baseUrl).host;
  } catch {
    return workspace.baseUrl;
  }
}

/**
 * The console's workspaces: the list kept in the settings (in sidebar order), those running, and
 * the one in front. This is the list's only writer, so it is read from the settings once.
 */
export class WorkspaceList {
  readonly #o: WorkspaceListOptions;
  readonly #runtimes = new Map<string, WorkspaceRuntime>();
  #entries: WorkspaceEntry[] = [];
  #active: string | null = null;

  constructor(o: WorkspaceListOptions) {
    this.#o = o;
  }

  /**
   * Reads the list and the one in front from the settings (at start, after any move). A
   * workspace whose folder is there but not in the list (the settings file was unreadable and set
   * aside) comes back from the copy of its entry kept in its folder: its token and files are there.
   */
  load(): void {
    const listed = this.#o.settings.get('workspaces');
    const found = this.#unlisted(listed);
    this.#entries = listed;
    if (found.length) this.save([...listed, ...found]);
    else for (const e of listed) this.#keepEntry(e);
    const stored = this.#o.settings.get('activeWorkspace');
    this.#active = this.#entries.find((e) => e.id === stored)?.id ?? this.#entries[0]?.id ?? null;
  }

  get active(): string | null {
    return this.#active;
  }

  entries(): WorkspaceEntry[] {
    return this.#entries;
  }

  save(next: WorkspaceEntry[]): void {
    this.#o.settings.set('workspaces', next);
    this.#entries = next;
    for (const e of next) this.#keepEntry(e);
  }

  /** A copy of a workspace's entry in its own folder, so that losing the list never loses the workspace. */
  #keepEntry(e: WorkspaceEntry): void {
    const dir = workspaceDir(this.#o.profileDir, e.id);
    if (!existsSync(dir)) return;
    const file = join(dir, ENTRY_FILE);
    const text = JSON.stringify(e);
    try {
      if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
      writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch {
      // The list in the settings still holds it; the copy is only a spare.
    }
  }

  /** Workspace folders with a readable entry that the list does not hold, in folder-name order. */
  #unlisted(listed: readonly WorkspaceEntry[]): WorkspaceEntry[] {
    const root = join(this.#o.profileDir, 'workspaces');
    let names: string[];
    try {
      names = readdirSync(root).sort();
    } catch {
      return [];
    }
    const out: WorkspaceEntry[] = [];
    for (const name of names) {
      if (listed.some((e) => e.id === name)) continue;
      try {
        const entry = WorkspaceEntrySchema.safeParse(JSON.parse(readFileSync(join(root, name, ENTRY_FILE), 'utf8')));
        if (entry.success && entry.data.id === name) out.push(entry.data);
      } catch {
        // No copy of its entry (a folder from before copies were kept, or not a workspace's).
      }
    }
    return out;
  }

  /** Names a workspace; a blank name gives it back its service and account's name. */
  rename(id: string, name: string): void {
    const trimmed = name.trim();
    this.save(
      this.#entries.map((e) => {
        if (e.id !== id) return e;
        const { name: _old, ...rest } = e;
        return trimmed ? { ...rest, name: trimmed } : rest;
      }),
    );
  }

  focus(id: string | null): void {
    this.#active = id;
    this.#o.settings.set('activeWorkspace', id);
  }

  front(): WorkspaceRuntime | null {
    return this.#active ? (this.#runtimes.get(this.#active) ?? null) : null;
  }

  get(id: string): WorkspaceRuntime | undefined {
    return this.#runtimes.get(id);
  }

  running(): WorkspaceRuntime[] {
    return [...this.#runtimes.values()];
  }

  /** Builds and starts a workspace's features; its session opens separately. */
  async add(id: string): Promise<WorkspaceRuntime> {
    const dir = workspaceDir(this.#o.profileDir, id);
    makeFolder(dir);
    const entry = this.#entries.find((e) => e.id === id);
    if (entry) this.#keepEntry(entry);
    const rt = this.#o.build(id, dir);
    this.#runtimes.set(id, rt);
    await rt.start();
    return rt;
  }

  /** Stops a workspace and removes what it kept: its token, its folder, its place in the list. */
  async remove(id: string): Promise<void> {
    const rt = this.#runtimes.get(id);
    this.#runtimes.delete(id);
    if (rt) {
      await rt.stop();
      rt.vault.wipe();
    }
    // Its entry's copy first: a folder only half removed is never taken back into the list.
    rmSync(join(workspaceDir(this.#o.profileDir, id), ENTRY_FILE), { force: true });
    removeFolder(workspaceDir(this.#o.profileDir, id));
    this.save(this.#entries.filter((e) => e.id !== id));
  }

  /** Stops every workspace, the last opened first. */
  async stopAll(): Promise<void> {
    for (const rt of [...this.#runtimes.values()].reverse()) await rt.stop();
    this.#runtimes.clear();
  }

  state(): AppState {
    const rt = this.front();
    const entry = this.#entries.find((e) => e.id === this.#active) ?? null;
    const vault = rt?.vault;
    return {
      workspaces: this.#entries.map((e) => this.#info(e)),
      active: entry ? entry.id : null,
      workspace: rt?.workspace ?? entry?.workspace ?? null,
      baseUrl: rt?.baseUrl ?? null,
      signedIn: rt?.signedIn ?? false,
      tokenRefused: vault?.tokenRefused ?? false,
      vault: { state: vault?.state ?? this.#o.cipher.state(), detail: vault?.detail ?? this.#o.cipher.detail() },
      user: rt?.user ?? null,
      locale: this.#o.locale,
      setAside: setAsideUnder(this.#o.profileDir).map((e) => ({
        file: relative(this.#o.profileDir, e.file),
        keptAs: relative(this.#o.profileDir, e.keptAs),
      })),
    };
  }

  #info(e: WorkspaceEntry): WorkspaceInfo {
    const rt = this.#runtimes.get(e.id);
    return {
      id: e.id,
      workspace: rt?.workspace ?? e.workspace,
      label: labelOf(e.workspace),
      name: e.name ?? null,
      color: e.color,
      baseUrl: rt?.baseUrl ?? (e.workspace.kind === 'remote' ? e.workspace.baseUrl : null),
      signedIn: rt?.signedIn ?? false,
      tokenRefused: rt?.vault.tokenRefused ?? false,
      user: rt?.user ?? null,
      signIn: rt?.signInCount ?? 0,
    };
  }
}
