import { mkdirSync, rmSync } from 'node:fs';
import type { AppState, Workspace, WorkspaceInfo } from '../../src-shared/bridge';
import type { Settings, WorkspaceEntry } from '../settings';
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

  /** Reads the list and the one in front from the settings (at start, after any move). */
  load(): void {
    this.#entries = this.#o.settings.get('workspaces');
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
    mkdirSync(dir, { recursive: true, mode: 0o700 });
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
    rmSync(workspaceDir(this.#o.profileDir, id), { recursive: true, force: true });
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
