import { CHANNEL_NAMES, type FeatureChannel } from '../../src-shared/bridge';
import { AppError } from '../../src-shared/errors';
import type { HandlerTable, Router } from '../bridge/table';

/** The console's own channels (which workspaces, which one is in front); the rest belong to one. */
export type WorkspaceChannel = FeatureChannel<'workspace'>;
const isWorkspaceChannel = (name: string): name is WorkspaceChannel => name.startsWith('workspace:');

/** Every feature channel failing with one error: no workspace open, or the named one is gone. */
export function refusingHandlers(error: () => AppError): Omit<HandlerTable, WorkspaceChannel> {
  const table: Record<string, () => Promise<never>> = {};
  for (const name of CHANNEL_NAMES) {
    if (!isWorkspaceChannel(name)) table[name] = () => Promise.reject(error());
  }
  return table as unknown as Omit<HandlerTable, WorkspaceChannel>;
}

/**
 * The handler table for a call naming workspace `id` (null: the one in front): the console's own
 * channels with that workspace's features. A call for a workspace signed out of is refused and
 * sends nothing; with no workspace open, only the console's channels answer.
 */
export function workspaceRouter(o: {
  /** A running workspace's id and features. */
  get(id: string): { id: string; handlers: Omit<HandlerTable, WorkspaceChannel> } | undefined;
  active(): string | null;
  /** The console's own channels, for a call naming `id`. */
  own(id: string | null): Pick<HandlerTable, WorkspaceChannel>;
}): Router {
  const noWorkspace = {
    ...o.own(null),
    ...refusingHandlers(() => new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' })),
  };
  const gone = (id: string) => ({
    ...o.own(id),
    ...refusingHandlers(() => new AppError({ kind: 'NotFound', message: 'That workspace was signed out of; nothing was sent.' })),
  });
  /** Each running workspace's whole table, built once (a workspace opened again is a new one). */
  const tables = new WeakMap<object, HandlerTable>();
  return (id) => {
    const target = id ?? o.active();
    const rt = target ? o.get(target) : undefined;
    if (!rt) return id ? gone(id) : noWorkspace;
    let table = tables.get(rt);
    if (!table) tables.set(rt, (table = { ...o.own(rt.id), ...rt.handlers }));
    return table;
  };
}
