/**
 * Runs `body` as a view's setup would (inside an effect of Svelte's runtime), then destroys that
 * effect as when the view goes. For store tests: what a view made must outlive it where it should.
 */
export function asView(body: () => void): void {
  const destroy = $effect.root(body);
  destroy();
}
