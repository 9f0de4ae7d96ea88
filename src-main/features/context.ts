import type { FeatureChannel, FeatureName } from '../../src-shared/bridge';
import type { EventHub, HandlerTable } from '../bridge/table';
import type { FirstView } from '../first-view';
import type { Logger } from '../log';
import type { ServiceClient } from '../service';
import type { Settings } from '../settings';
import type { Vault } from '../vault/vault';

/**
 * What every feature of the main process receives from the composition root. Features never
 * build their own clients or stores: they ask the context, so Electron and the web host wire
 * them identically.
 */
export interface FeatureContext {
  readonly log: Logger;
  readonly events: EventHub;
  readonly profileDir: string;
  readonly vault: Vault;
  /** Small persistent settings, typed and checked by one schema. */
  readonly settings: Settings;
  /** The signed-in workspace's service client; throws Unauthorized when none is open. */
  client(): ServiceClient;
  /** Whether a workspace is open (no throw). */
  hasWorkspace(): boolean;
  /** The attendant, when known. */
  me(): { userName: string; name: string } | null;
  /** The open demo workspace, served by its stand-in (the one check of the workspace's kind). */
  isDemo(): boolean;
  /** Called after a workspace opens or closes (sign-in, sign-out, switch). */
  onWorkspaceChange(listener: () => void | Promise<void>): () => void;
  /**
   * Called when the zone the service's date-times with no offset are read in changes (learned
   * from a write, or set): what was read before is off by the difference and is read again.
   */
  onServiceZoneChange(listener: () => void | Promise<void>): () => void;
  /** Says the zone changed (the setting was saved). */
  serviceZoneChanged(): void;
  registerSecret: (secret: string) => void;
  /**
   * The page's first view on screen: `shown` resolves then (at once when the console waits for
   * no page), `opened` says whether it has. What that view does not need starts behind it, so
   * the page starts sooner.
   */
  readonly firstView: Pick<FirstView, 'shown' | 'opened'>;
}

/**
 * A feature: every channel of its slice of the bridge (`src-shared/bridge/<feature>.ts`), no
 * more and no less, and optional lifecycle hooks. A channel added to the slice and not served
 * here is a type error in the feature.
 */
export interface Feature<F extends FeatureName> {
  handlers: Pick<HandlerTable, FeatureChannel<F>>;
  start?(): Promise<void>;
  stop?(): Promise<void>;
}
