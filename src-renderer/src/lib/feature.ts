import type { Component } from 'svelte';
import type { View } from './views.svelte';
import type { Command } from './commands.svelte';

/**
 * What a renderer feature adds to the console. Importing a feature has no effect of its own:
 * `features/index.ts` lists every feature once and `startFeatures` registers them in order.
 */
export interface ConsoleFeature {
  id: string;
  views?: View[];
  commands?: Command[];
  /** Mounted once by the shell above every view (a dialog reachable from anywhere). */
  overlays?: Component[];
  /** Runs once at start: listeners to the main process, resets on sign-out. */
  start?(): void;
}
