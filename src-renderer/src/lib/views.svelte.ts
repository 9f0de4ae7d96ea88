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
  /** The view itself, or `lazy(...)`: loaded when first shown, so the first view's bundle leaves it out. */
  component: Component | LazyComponent;
  /** Hidden when false (e.g. supervisor views for an agent token). */
  visible?: () => boolean;
  /** A count the rail shows on the view (what waits there), when above zero. */
  badge?: () => number;
}

/** A view's component kept in its own chunk until the view is first shown. */
export interface LazyComponent {
  load: () => Promise<{ default: Component }>;
}

/** Marks a view's component to be loaded on first show: `lazy(() => import('./BigView.svelte'))`. */
export function lazy(load: () => Promise<{ default: Component }>): LazyComponent {
  return { load };
}

/** Lazy components once loaded, and those that failed to load, by a key naming each once. */
class LazyComponents {
  #loaded = $state.raw<Record<string, Component>>({});
  #failed = $state.raw<Record<string, true>>({});
  #loading = new Set<string>();

  /**
   * The component to render: an eager one at once; a lazy one undefined while its chunk loads
   * (the load starts here, once), then the component. `failed` says when it could not load.
   */
  resolve(key: string, c: Component | LazyComponent): Component | undefined {
    if (typeof c === 'function') return c;
    const loaded = this.#loaded[key];
    if (!loaded && !this.#failed[key]) void this.#load(key, c);
    return loaded;
  }

  failed(key: string): boolean {
    return this.#failed[key] === true;
  }

  async #load(key: string, c: LazyComponent): Promise<void> {
    if (this.#loading.has(key)) return;
    this.#loading.add(key);
    try {
      const m = await c.load();
      this.#loaded = { ...this.#loaded, [key]: m.default };
    } catch (e) {
      console.error(`${key} could not be loaded`, e);
      this.#failed = { ...this.#failed, [key]: true };
    } finally {
      this.#loading.delete(key);
    }
  }
}
export const lazyComponents = new LazyComponents();

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

  /** The component to render for a view (see `lazyComponents.resolve`). */
  componentOf(view: View): Component | undefined {
    return lazyComponents.resolve(view.id, view.component);
  }

  failed(view: View): boolean {
    return lazyComponents.failed(view.id);
  }
}

export const views = new ViewRegistry();
