import { CHANNEL_NAMES, type FeatureChannel } from '../../src-shared/bridge';
import { AppError } from '../../src-shared/errors';
import type { HandlerTable } from '../bridge/table';

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
