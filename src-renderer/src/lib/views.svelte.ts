import type { Component } from 'svelte';
import { scopes } from './scope.svelte';

/**
 * The workspace's views (attendance, supervisor tools, event log, settings...). Features
 * register theirs at import; the shell shows them in its navigation rail.
 */
export interface View {
  id: string;
  title: () => string;
  /** A short glyph for the rail. */
  icon: string;
  order: number;
  component: Component;
  /** Hidden when false (e.g. supervisor views for an agent token). */
  visible?: () => boolean;
  /** A count the rail shows on the view (what waits there), when above zero. */
  badge?: () => number;
}

/** Which view a workspace shows: kept by its scope, so each workspace comes back to its own view. */
export class ViewPlace {
  current = $state('attendance');
}

export class ViewRegistry {
  #list = $state<View[]>([]);
  /** The place kept while no workspace is shown. */
  #own = new ViewPlace();

  get #place(): ViewPlace {
    return scopes.shown?.use(ViewPlace) ?? this.#own;
  }

  get current() {
    return this.#place.current;
  }

  register(view: View): void {
    this.#list = [...this.#list.filter((v) => v.id !== view.id), view].sort((a, b) => a.order - b.order);
  }

  get all(): View[] {
    return this.#list.filter((v) => v.visible?.() ?? true);
  }

  /** The current view, or the first one shown when the current is hidden (a role without it). */
  get active(): View | undefined {
    const shown = this.all;
    return shown.find((v) => v.id === this.#place.current) ?? shown[0];
  }

  show(id: string): void {
    this.#place.current = id;
  }
}

export const views = new ViewRegistry();
