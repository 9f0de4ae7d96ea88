import type { EventHub, HandlerTable } from '../../bridge/table';
import type { Logger } from '../../log';
import { checkAccelerator } from './accelerator';
import { errorText } from '../../../src-shared/error-text';

/**
 * The global ticket shortcut, as a thin adapter: Electron's `globalShortcut` and the window come
 * in as parameters (only src-main/index.ts imports electron). It reads the accelerator from the
 * supervisor feature, re-registers when the user changes it, and on press brings the window
 * forward and asks the renderer to open the lookup.
 */

export interface GlobalShortcutLike {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export interface WindowLike {
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

export interface TicketShortcutOptions {
  globalShortcut: GlobalShortcutLike;
  window: () => WindowLike | null;
  app: { handlers: Pick<HandlerTable, 'supervisor:ticketShortcut'>; events: EventHub };
  log: Logger;
}

export function bindTicketShortcut(o: TicketShortcutOptions): () => void {
  let current: string | null = null;

  const fire = () => {
    const w = o.window();
    if (w) {
      if (w.isMinimized()) w.restore();
      w.show();
      w.focus();
    }
    o.app.events.emit('supervisor:openTicketLookup', { idOrKey: null });
  };

  const apply = (accelerator: string) => {
    const checked = checkAccelerator(accelerator);
    if (!checked.ok) {
      o.log.warn('ticket shortcut refused', { accelerator, reason: checked.reason });
      return;
    }
    if (current === checked.accelerator) return;
    if (current) o.globalShortcut.unregister(current);
    current = null;
    // register() answers false when another program already holds the combination.
    if (o.globalShortcut.register(checked.accelerator, fire)) current = checked.accelerator;
    else o.log.warn('ticket shortcut is taken by another program', { accelerator: checked.accelerator });
  };

  // Read through the workspace in front (none yet at a first start: read again when one opens).
  const read = () =>
    void o.app.handlers['supervisor:ticketShortcut']({}).then(
      (s) => apply(s.accelerator),
      (e: unknown) => {
        o.log.warn('ticket shortcut not read', { error: errorText(e) });
      },
    );
  read();
  const unsubscribe = o.app.events.subscribe((name, payload) => {
    if (name === 'supervisor:ticketShortcut') apply((payload as { accelerator: string }).accelerator);
    if (name === 'workspace:state' && current === null && (payload as { signedIn: boolean }).signedIn) read();
  });

  return () => {
    unsubscribe();
    if (current) o.globalShortcut.unregister(current);
    current = null;
  };
}
