import { createHash } from 'node:crypto';
import { existsSync, renameSync } from 'node:fs';
import { makeFolder, removeFolder } from '../folders';
import { dirname, join } from 'node:path';
import type { Workspace } from '../../src-shared/bridge';
import { AppError, type ErrorInfo } from '../../src-shared/errors';
import { EventHub } from '../bridge/table';
import type { FeatureContext } from '../features/context';
import type { ServiceClient } from '../service';
import { errorText } from '../../src-shared/error-text';

export type UserRef = { userName: string; name: string };

/** One person signed in to a workspace's service: where, with which client, as whom (null: not known yet). */
export interface Session {
  workspace: Workspace;
  baseUrl: string;
  client: ServiceClient;
  user: UserRef | null;
  /** Starts the service before its first call (the demo's stand-in at launch). */
  connect?: (() => Promise<void>) | undefined;
}

/** What a feature of one sign-in is (the composition root builds them). */
export interface ScopedFeature {
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/** An account's folder name: its user name, hashed (any characters a service allows are safe as a name). */
const accountKey = (user: UserRef | null): string =>
  user ? `u-${createHash('sha256').update(user.userName.toLowerCase()).digest('hex').slice(0, 16)}` : 'unidentified';

/** An account's own folder in workspace folder `dir` (see `FeatureContext.accountDir`). */
export const accountDir = (dir: string, user: UserRef | null): string => join(dir, 'accounts', accountKey(user));

/** What an account kept in the workspace's folder before accounts had folders of their own. */
const ACCOUNT_ENTRIES = ['drafts', 'quarantine', 'outbox', join('supervisor', 'tickets.json')];

/**
 * A workspace folder from before accounts had their own: its drafts, outbox and recent tickets
 * were written by the account last signed in there (`owner`), and move into its folder (renames,
 * nothing lost). Without a known owner they stay where they are, read by nobody.
 */
export function adoptAccountFiles(dir: string, owner: UserRef | null): void {
  if (!owner) return;
  const to = accountDir(dir, owner);
  for (const name of ACCOUNT_ENTRIES) {
    const from = join(dir, name);
    if (!existsSync(from) || existsSync(join(to, name))) continue;
    makeFolder(dirname(join(to, name)));
    renameSync(from, join(to, name));
  }
}

/** The parts of a feature context that are the workspace's, whoever signs in. */
export type WorkspaceContext = Omit<FeatureContext, 'client' | 'hasWorkspace' | 'me' | 'isDemo' | 'events' | 'accountDir'>;

/**
 * One sign-in: the features of a workspace built for the person signed in (or for nobody yet),
 * with a context bound to that person's session. It ends when they sign out or someone else
 * signs in: its features stop, its events stop reaching the page, its answers are refused and
 * its client refuses to call the service, so nothing it held reaches the next person.
 */
export class SignIn<F extends { features: ScopedFeature[] }> {
  readonly session: Session | null;
  readonly features: F;
  readonly ctx: FeatureContext;
  /** The queue's first read for "Needs me", once asked for. */
  queueRead: Promise<boolean> | null = null;
  /** Why the last read of the queue for the workspace list failed (null: it did not, or none yet). */
  queueError: ErrorInfo | null = null;
  /** Still the workspace's sign-in: its events and answers reach the page. */
  #current = true;
  /** Its features stopped: its client refuses. */
  #ended = false;
  readonly #off: () => void;
  readonly #zoneOffs: Array<() => void> = [];
  readonly #dir: string;

  constructor(o: { session: Session | null; base: WorkspaceContext; relay: EventHub; build: (ctx: FeatureContext) => F }) {
    const session = o.session;
    this.session = session;
    this.#dir = accountDir(o.base.profileDir, session?.user ?? null);
    // Whoever it was, an account not identified leaves nothing for the next one.
    if (!session?.user) removeFolder(this.#dir);
    makeFolder(this.#dir);
    const events = new EventHub();
    this.#off = events.subscribe((name, payload, workspaceId) => {
      if (this.#current) o.relay.relay(name, payload, workspaceId);
    });
    this.ctx = {
      ...o.base,
      events,
      accountDir: this.#dir,
      client: () => {
        if (this.#ended) throw new AppError({ kind: 'Cancelled', message: 'Signed out, or someone else signed in: this was not sent.' });
        if (!session) throw new AppError({ kind: 'Unauthorized', message: 'Open a workspace first.' });
        return session.client;
      },
      // The sign-in's own registrations: they end with it (`end`).
      onServiceZoneChange: (listener) => {
        const off = o.base.onServiceZoneChange(listener);
        this.#zoneOffs.push(off);
        return off;
      },
      hasWorkspace: () => session !== null && !this.#ended,
      me: () => session?.user ?? null,
      isDemo: () => session?.workspace.kind === 'demo',
    };
    this.features = o.build(this.ctx);
  }

  get current(): boolean {
    return this.#current;
  }

  #started: Promise<void> | null = null;

  /** Starts its features in order, once; what is asked of them waits for it (`ready`). */
  start(): Promise<void> {
    this.#started ??= (async () => {
      for (const f of this.features.features) await f.start?.();
    })();
    return this.#started;
  }

  /** Settles once its features have started (a failed start was said where it was awaited). */
  get ready(): Promise<void> {
    return (this.#started ?? Promise.resolve()).catch(() => undefined);
  }

  /**
   * Ends the sign-in: from now on its events and answers reach nobody; its features stop (in the
   * reverse order) while its client still serves them (the listener's registration is removed
   * through it), then the client closes.
   */
  async end(log: FeatureContext['log']): Promise<void> {
    if (!this.#current) return;
    this.#current = false;
    // Features still starting stop once started (what they open is then closed too).
    await this.ready;
    for (const f of [...this.features.features].reverse()) {
      try {
        await f.stop?.();
      } catch (e) {
        log.error('a feature did not stop', { error: errorText(e) });
      }
    }
    this.#ended = true;
    this.#off();
    for (const off of this.#zoneOffs.splice(0)) off();
    await this.session?.client.close();
    if (!this.session?.user) removeFolder(this.#dir);
  }
}
