import { untrack } from 'svelte';

/**
 * Runs `action` each time what `watch` reads changes (and once at first), for as long as the
 * component that calls this lives. Only `watch` is followed: what the action reads (a store's own
 * state, which it may also write, such as a notice list or a loading flag) never makes it run
 * again. An `$effect` that called the action itself would be re-run by those writes: a failed
 * load retried at once without end, a notice that adds a notice.
 */
export function onChange<T>(watch: () => T, action: (value: T) => void): void {
  $effect(() => {
    const value = watch();
    untrack(() => action(value));
  });
}
