import { existsSync, renameSync } from 'node:fs';
import { makeFolder } from '../folders';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createSettings, type Settings, type SettingKey, type WorkspaceEntry } from '../settings';
import type { KeyValueStore } from '../vault/types';
import type { Logger } from '../log';

/** Where each workspace keeps its files: `<profile>/workspaces/<id>`. */
export const workspaceDir = (profileDir: string, id: string): string => join(profileDir, 'workspaces', id);

/** The demo workspace's id: there is one demo workspace. */
export const DEMO_ID = 'demo';

/** A new workspace's id: short, random, safe as a folder name. */
export const newWorkspaceId = (): string => `w-${randomBytes(4).toString('hex')}`;

/** The first of the eight workspace colors no workspace uses yet (they repeat past eight). */
export function freeColor(entries: readonly WorkspaceEntry[]): number {
  const used = new Set(entries.map((e) => e.color));
  for (let c = 0; c < 8; c++) if (!used.has(c)) return c;
  return entries.length % 8;
}

/** What a single-workspace profile kept at its root, now in the workspace's folder. */
const MOVED_ENTRIES = ['outbox', 'drafts', 'quarantine', 'attendance', 'supervisor', 'webhooks', 'offline-cache', 'vault.json'];
/** A workspace's own settings, once kept with the console's. */
const MOVED_SETTINGS: SettingKey[] = [
  'user',
  'pauseReason',
  'knowledgeBase',
  'voice',
  'webhookPort',
  'webhookSigning',
  'liveUpdatesPaused',
  'webhookTunnel',
];

/**
 * A profile from before several workspaces holds one workspace at its root: its files move into
 * that workspace's folder (renames, nothing copied or lost: a note waiting in the outbox is still
 * sent) and its settings into that workspace's store. Safe to run again after an interruption:
 * the list of workspaces is written last.
 */
export function adoptSingleWorkspace(o: {
  profileDir: string;
  settings: Settings;
  openStore(name: string, dir: string): KeyValueStore;
  raw: KeyValueStore;
  log: Pick<Logger, 'info' | 'warn'>;
}): void {
  const legacy = o.settings.get('workspace');
  if (!legacy || o.settings.get('workspaces').length) return;
  const id = legacy.kind === 'demo' ? DEMO_ID : newWorkspaceId();
  const dir = workspaceDir(o.profileDir, id);
  makeFolder(dir);
  for (const name of MOVED_ENTRIES) {
    const from = join(o.profileDir, name);
    if (existsSync(from) && !existsSync(join(dir, name))) renameSync(from, join(dir, name));
  }
  const own = createSettings(o.openStore('settings', dir), o.log);
  for (const key of MOVED_SETTINGS) {
    const value = o.raw.get(key);
    if (value !== undefined) own.set(key, o.settings.get(key));
    o.settings.delete(key);
  }
  o.settings.set('workspaces', [{ id, workspace: legacy, color: 0 }]);
  o.settings.set('activeWorkspace', id);
  o.settings.delete('workspace');
  o.log.info('the workspace moved into its own folder', { workspace: id });
}
