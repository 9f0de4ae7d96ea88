import type { Component } from 'svelte';
import type { View } from './views.svelte';
import type { Command } from './commands.svelte';
import type { Scope } from './scope.svelte';

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
  /** Runs once at start: the console-wide listeners. */
  start?(): void;
  /**
   * Runs when a workspace's scope opens: what the feature keeps going for as long as that
   * workspace is signed in (its stores listening). The scope disposes all of it when it closes.
   */
  open?(scope: Scope): void;
}
