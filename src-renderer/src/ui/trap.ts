const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A Svelte action for a modal dialog: Tab and Shift+Tab cycle inside it, Escape closes it from
 * wherever focus is in it, and focus goes back where it was when the dialog goes away.
 */
export function trapFocus(node: HTMLElement, onEscape: () => void) {
  const before = document.activeElement as HTMLElement | null;
  let escape = onEscape;
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      escape();
      return;
    }
    if (e.key !== 'Tab') return;
    const items = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
    if (!items.length) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const at = document.activeElement;
    if (e.shiftKey && (at === first || !node.contains(at))) {
      last.focus();
      e.preventDefault();
    } else if (!e.shiftKey && (at === last || !node.contains(at))) {
      first.focus();
      e.preventDefault();
    }
  };
  node.addEventListener('keydown', onKey);
  // A dialog opens with focus inside it: its own choice (autofocus) when it made one, else its first field.
  queueMicrotask(() => {
    if (node.contains(document.activeElement)) return;
    const first = node.querySelector<HTMLElement>('[autofocus]') ?? node.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
  });
  return {
    update(next: () => void) {
      escape = next;
    },
    destroy() {
      node.removeEventListener('keydown', onKey);
      // Back where the attendant was, unless the closing action moved focus on purpose.
      if (before?.isConnected && (document.activeElement === document.body || document.activeElement === null)) before.focus();
    },
  };
}
