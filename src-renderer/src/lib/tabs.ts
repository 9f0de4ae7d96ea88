/**
 * Arrow keys move between the tabs of a tablist (wrapping) and focus the new tab, whose
 * element id is `${idPrefix}${tab}`. Returns the tab to show, or null for other keys.
 */
export function arrowTab<T extends string>(e: KeyboardEvent, tabs: readonly T[], current: T, idPrefix: string): T | null {
  const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
  if (!step) return null;
  e.preventDefault();
  const next = tabs[(tabs.indexOf(current) + step + tabs.length) % tabs.length]!;
  queueMicrotask(() => document.getElementById(`${idPrefix}${next}`)?.focus());
  return next;
}
