import type { NeedsMe, WorkspaceInfo } from '../../../../src-shared/bridge';
import type { Mention } from '../../../../src-shared/bridge/notes';
import { failure, invoke, invokeIn, on, onIn, type Worded, worded } from '../../lib/bridge';
import { errorText } from '../../lib/error-strings';
import { ReadRetry } from '../../lib/read-retry.svelte';
import { t } from '../../lib/i18n.svelte';
import { QueueStore } from '../../lib/queue.svelte';
import { ViewPlace } from '../../lib/views.svelte';
import { app } from '../../lib/app.svelte';

export type NeedsMeRow = NeedsMe['rows'][number];
/** A colleague's note that mentions the attendant, with its workspace and session. */
export type MentionRow = NeedsMe['mentions'][number];

/** What a workspace is called in the sidebar and on its sessions' rows: the user's name for it, or its service and account. */
export function workspaceName(w: Pick<WorkspaceInfo, 'workspace' | 'label' | 'name' | 'user'>): string {
  return w.name || serviceAccountName(w);
}

/** "Acme · ana.souza": the service's host (or "Demo") and the account signed in there, which tell two accounts of one service apart. */
export function serviceAccountName(w: Pick<WorkspaceInfo, 'workspace' | 'label' | 'user'>): string {
  const service = w.workspace.kind === 'demo' ? t('ws.demo') : w.label;
  return w.user ? `${service} · ${w.user.userName}` : service;
}

/**
 * A workspace's mark: two letters of its name in a coloured square (letters only: digits beside
 * an unread count would read as one), the first of its first two words, or of one word.
 */
export function workspaceInitials(name: string): string {
  const words = name.split(/[\s·.:@_/\\-]+/).filter((w) => /^\p{L}/u.test(w));
  const letters = words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : (words[0]?.replace(/[^\p{L}]/gu, '').slice(0, 2) ?? '');
  return letters.toUpperCase() || '◆';
}

/**
 * "Needs me": what waits for the attendant in every workspace, from the main process (which reads
 * every workspace's queue, those in the background too) and kept current by its pushes. Watched
 * only while the console has more than one workspace.
 */
export class NeedsMeStore {
  #rows = $state.raw<NeedsMeRow[]>([]);
  #more = $state(0);
  #counts = $state.raw<NeedsMe['counts']>({});
  #mentions = $state.raw<MentionRow[]>([]);
  #error = $state.raw<Worded | null>(null);
  /** Workspaces whose sessions could not be read (what needs the attendant there is not known). */
  #failed = $state.raw<NeedsMe['failed']>([]);
  #loading = $state(false);
  #off: (() => void) | null = null;
  readonly #retry = new ReadRetry();

  get rows() {
    return this.#rows;
  }
  /** Colleagues' notes mentioning the attendant, newest first, until their session is opened. */
  get mentions() {
    return this.#mentions;
  }
  get more() {
    return this.#more;
  }
  get error() {
    return worded(this.#error);
  }
  /** The workspaces whose sessions could not be read, each with why. */
  get failed() {
    return this.#failed;
  }
  /** When what could not be read is asked again by itself (ms since epoch), or null. */
  get retryAt() {
    return this.#retry.at;
  }
  get loading() {
    return this.#loading;
  }
  /** Something could not be read: an empty list would not mean that nothing needs the attendant. */
  get incomplete(): boolean {
    return this.#error !== null || this.#failed.length > 0;
  }

  /** Sessions with unread customer messages in a workspace (its sidebar badge). */
  unread(workspaceId: string): number {
    return this.#counts[workspaceId]?.unread ?? 0;
  }

  /** Sessions with unread customer messages in every workspace but `except`. */
  unreadElsewhere(except: string | null): number {
    let n = 0;
    for (const [id, c] of Object.entries(this.#counts)) if (id !== except) n += c.unread;
    return n;
  }

  /** Every row that needs the attendant, all workspaces together (the rail's badge). */
  get total(): number {
    let n = 0;
    for (const c of Object.values(this.#counts)) n += c.needsMe;
    // A colleague asking is something that needs the attendant too.
    return n + this.#mentions.length;
  }

  #apply(n: NeedsMe): void {
    this.#rows = n.rows;
    this.#more = n.more;
    this.#counts = n.counts;
    this.#mentions = n.mentions;
    this.#failed = n.failed;
    // A push with every workspace read ends the waiting; one still missing some is asked again.
    if (!n.failed.length) this.#retry.reset();
    else if (this.#retry.at === null && !this.#loading) this.#afterFailure(n.failed[0]!.error);
  }

  #afterFailure(info: NeedsMe['failed'][number]['error']): void {
    this.#retry.failed(info, () => void this.read());
  }

  /** Reads it all now (the service is read again for the workspaces that could not be). */
  async read(): Promise<void> {
    if (!this.#off) return;
    this.#retry.stop();
    this.#loading = true;
    try {
      const n = await invoke('workspace:needsMe', {});
      if (!this.#off) return;
      this.#error = null;
      this.#apply(n);
      if (n.failed.length) this.#afterFailure(n.failed[0]!.error);
    } catch (e) {
      if (!this.#off) return;
      this.#error = failure(e);
      this.#retry.failedCall(e, () => void this.read());
    } finally {
      this.#loading = false;
    }
  }

  /** What could not be read, in words: each workspace's reason (`name` names a workspace). */
  failedText(name: (workspaceId: string) => string): string {
    const parts = this.#failed.map((f) => `${name(f.workspaceId)}: ${errorText(f.error)}`);
    const e = worded(this.#error);
    return [...(e ? [e] : []), ...parts].join(' ');
  }

  /** Starts or stops watching (the console calls this as workspaces come and go). */
  async watch(on_: boolean): Promise<void> {
    if (!on_) {
      this.#off?.();
      this.#off = null;
      // Nobody looks any more: nothing is asked again.
      this.#retry.reset();
      this.#error = null;
      this.#apply({ rows: [], more: 0, counts: {}, mentions: [], failed: [] });
      return;
    }
    if (this.#off) return;
    this.#off = on('workspace:needsMe', (n) => this.#apply(n));
    await this.read();
  }

  #frontOff: (() => void) | null = null;

  /**
   * With one workspace, nothing above is watched: its mentions alone are followed (null stops,
   * several workspaces bring theirs with the rest), so a colleague asking still shows in Needs me.
   */
  async followMentions(workspaceId: string | null): Promise<void> {
    this.#frontOff?.();
    this.#frontOff = null;
    if (workspaceId === null) return;
    const take = (mentions: Mention[]) => (this.#mentions = mentions.map((mention) => ({ workspaceId, mention, item: null })));
    this.#frontOff = onIn(workspaceId, 'notes:mentions', ({ mentions }) => take(mentions));
    try {
      take((await invokeIn(workspaceId, 'notes:mentions', {})).mentions);
    } catch {
      // The next check's push brings them.
    }
  }

  /** Opens a row's session in its workspace. */
  open(row: NeedsMeRow): Promise<void> {
    return openIn(row.workspaceId, row.item.id);
  }

  /** Opens a mention's session; the mention is seen and not shown again (kept so in its account). */
  async openMention(row: MentionRow): Promise<void> {
    const { workspaceId, mention } = row;
    this.#mentions = this.#mentions.filter((m) => !(m.workspaceId === workspaceId && m.mention.sessionId === mention.sessionId));
    await invokeIn(workspaceId, 'notes:mentionSeen', { sessionId: mention.sessionId }).catch(() => undefined);
    await openIn(workspaceId, mention.sessionId);
  }
}

export const needsMe = new NeedsMeStore();

/** Opens a session in its workspace: that workspace comes to the front, its queue shows the session. */
export async function openIn(workspaceId: string, sessionId: number): Promise<void> {
  const scope = app.scopeOf(workspaceId);
  if (!scope) return;
  scope.use(QueueStore).openWhenShown(sessionId);
  scope.use(ViewPlace).current = 'attendance';
  if (app.state?.active !== workspaceId) await app.focus(workspaceId);
}
