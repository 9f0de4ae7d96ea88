import AsksForStore from './AsksForStore.svelte';

/**
 * Runs `body` as a view's setup would (inside an effect of Svelte's runtime), then destroys that
 * effect as when the view goes. For store tests: what a view made must outlive it where it should.
 */
export function asView(body: () => void): void {
  const destroy = $effect.root(body);
  destroy();
}

/**
 * As `asView`, inside a compiled component holding `holds`: Svelte's runtime records that
 * component (and its props) in every effect and derived made during `ask`.
 */
export function asComponentView(holds: unknown, ask: () => void): void {
  // A component without markup is set up without a page: its anchor is never touched.
  asView(() => void AsksForStore(null as never, { ask, holds }));
}

/** A store with a derived value, made by a scope. */
export class DoublingStore {
  count = $state(1);
  double = $derived(this.count * 2);
}
