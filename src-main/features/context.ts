import type { FeatureChannel, FeatureName } from '../../src-shared/bridge';
import type { EventHub, HandlerTable } from '../bridge/table';
import type { FirstView } from '../first-view';
import type { Logger } from '../log';
import type { ServiceClient } from '../service';
import type { Settings } from '../settings';
import type { Vault } from '../vault/vault';
import type { Clock } from '../clock';

/**
 * What every feature of the main process receives from the composition root. Features never
 * build their own clients or stores: they ask the context, so Electron and the web host wire
 * them identically. A context belongs to one sign-in (`workspaces/sign-in.ts`): the features are
 * built for it when a person signs in and stopped when they sign out or someone else signs in,
 * so nothing a feature holds outlives the person it was built for.
 */
export interface FeatureContext {
  readonly log: Logger;
  /** The time and timers, passed in by the platform (src-main/clock.ts): a test's manual clock, or the system's. */
  readonly clock: Clock;
  readonly events: EventHub;
  /** The workspace's folder: what belongs to the workspace whoever is signed in (listener state, offline copies). */
  readonly profileDir: string;
  /**
   * The signed-in account's own folder in the workspace (its drafts, outbox, recent tickets):
   * the next account to sign in there gets another. Nobody identified yet: a folder emptied at
   * every such sign-in.
   */
  readonly accountDir: string;
  readonly vault: Vault;
  /** Small persistent settings, typed and checked by one schema. */
  readonly settings: Settings;
  /**
   * The sign-in's service client; throws Unauthorized when nobody is signed in, and Cancelled
   * once this sign-in has ended (what it still had running reaches nobody else's session).
   */
  client(): ServiceClient;
  /** Whether someone is signed in and this sign-in has not ended (no throw). */
  hasWorkspace(): boolean;
  /** The attendant, when known (fixed for the sign-in: another person is another sign-in). */
  me(): { userName: string; name: string } | null;
  /** The open demo workspace, served by its stand-in (the one check of the workspace's kind). */
  isDemo(): boolean;
  /**
   * Called when the zone the service's date-times with no offset are read in changes (learned
   * from a write, or set): what was read before is off by the difference and is read again.
   * A sign-in's registrations end with it.
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
