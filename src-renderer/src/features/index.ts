import type { ConsoleFeature } from '../lib/feature';
import { ViewPlace, views } from '../lib/views.svelte';
import { commands } from '../lib/commands.svelte';
import { scopes } from '../lib/scope.svelte';
import { attendanceFeature } from './attendance';
import { historyFeature } from './history';
import { notesFeature } from './notes';
import { paletteFeature } from './palette';
import { supervisorFeature } from './supervisor';
import { voiceFeature } from './voice';
import { webhooksFeature } from './webhooks';
import { settingsFeature } from './settings';
import { workspaceFeature } from './workspace';

/** Every feature of the renderer, once, in palette order. The only place they are joined. */
export const FEATURES: readonly ConsoleFeature[] = [
  workspaceFeature,
  attendanceFeature,
  historyFeature,
  notesFeature,
  paletteFeature,
  supervisorFeature,
  voiceFeature,
  webhooksFeature,
  settingsFeature,
];

/** The dialogs features keep above every view. */
export const overlays = FEATURES.flatMap((f) => f.overlays ?? []);

let started = false;
/** Registers every feature's views and commands, starts its listeners, and opens its part of each workspace; once per page. */
export function startFeatures(): void {
  if (started) return;
  started = true;
  for (const f of FEATURES) {
    for (const v of f.views ?? []) views.register(v);
    if (f.commands) commands.register(...f.commands);
    f.start?.();
  }
  scopes.onOpen((scope) => {
    scope.use(ViewPlace);
    for (const f of FEATURES) f.open?.(scope);
  });
}
