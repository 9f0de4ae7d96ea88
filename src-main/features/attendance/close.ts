import type { ClassNode } from '../../../src-shared/bridge/attendance';
import { AppError } from '../../../src-shared/errors';
import { groupIsComplete, sessionGroupOf, text as str } from '../../../src-shared/concepts';
import type { HandlerTable } from '../../bridge/table';
import { toQueueItem } from '../../queue';
import type { ServiceClient } from '../../service';
import type { FeatureContext } from '../context';
import type { NotesFeature } from '../notes';
import type { Composer } from './composer';
import type { DirectoryCache } from './directory';
import { toClassNodes, toGroupInfo } from './project';
import type { QueueFeature } from './queue';
import { readSession } from './reads';
import { closeShortfall } from './read-back';
import type { Threads } from './thread';
import { eqNum } from '../../../src-shared/query-builder';

interface Classification {
  mandatory: boolean;
  roots: ClassNode[];
  groupId: number | null;
  treeId: number | null;
}

export interface CloseDeps {
  directory: DirectoryCache;
  composer: Composer;
  threads: Threads;
  queue: QueueFeature;
  notes: NotesFeature;
}

type CloseChannel = 'attendance:classificationTree' | 'attendance:summary' | 'attendance:close';

/** Wrapping a session up: its group's classification tree, the AI summary, and the close itself. */
export function closeHandlers(ctx: FeatureContext, d: CloseDeps): Pick<HandlerTable, CloseChannel> {
  const { directory, composer, threads, queue, notes } = d;

  return {
    'attendance:classificationTree': async ({ sessionId }) => {
      const c = await classificationOf(ctx, directory, sessionId);
      return { mandatory: c.mandatory, roots: c.roots };
    },

    'attendance:summary': async ({ sessionId, choice }) => {
      const pick = choice ?? { provider: 'local', model: 'local-extractive' };
      return { text: await composer.summary(await threads.forAi(sessionId), pick) };
    },

    'attendance:close': async ({ sessionId, classification, comment, summaryNote }) => {
      const client = ctx.client();
      const c = await classificationOf(ctx, directory, sessionId);
      if (c.mandatory && !classification) {
        throw new AppError({
          kind: 'Invalid',
          field: 'classification',
          message: 'This group asks for a classification before closing. Pick one.',
        });
      }
      if (classification) await classify(client, directory, sessionId, c, classification, comment);
      if (summaryNote) await notes.add(sessionId, summaryNote);
      await client.saveSession({ id: sessionId, status: 'CLOSED' });
      // Closed when the service then holds it closed: read back, never assumed.
      const session = await readSession(client, sessionId);
      queue.applySessions([session]);
      const shortfall = closeShortfall(session);
      if (shortfall) throw new AppError({ kind: 'Invalid', errorCode: 'NOT_APPLIED', message: shortfall });
      notes.drafts.clear(sessionId);
      const item = toQueueItem(session);
      if (!item) throw new AppError({ kind: 'BadResponse', message: 'The service answered a session without an id.' });
      return item;
    },
  };
}

/** The session's group's classification tree, and whether the group asks for one before closing. */
async function classificationOf(ctx: FeatureContext, directory: DirectoryCache, sessionId: number): Promise<Classification> {
  const session = await readSession(ctx.client(), sessionId);
  const ref = sessionGroupOf(session);
  const groupId = ref?.id ?? null;
  // A summary of the group (no tree, no mandatory flag) is completed from groups/unique:
  // a mandatory classification must never be skipped for want of the full configuration.
  const group =
    ref?.record && groupIsComplete(ref.record)
      ? toGroupInfo(ref.record)
      : groupId !== null
        ? await directory.group(groupId, { complete: true })
        : null;
  const treeId = group?.classificationTreeId ?? null;
  if (treeId === null) return { mandatory: false, roots: [], groupId, treeId };
  const page = await ctx
    .client()
    .resource('classification')
    .list({ conditions: [eqNum('id', treeId)], sort: false, page: 0, size: 1 });
  const root = page.results[0];
  return { mandatory: group?.mandatoryClassification ?? false, roots: root ? toClassNodes(root) : [], groupId, treeId };
}

/** Records the classification picked (a path of node ids) for the session. */
async function classify(
  client: ServiceClient,
  directory: DirectoryCache,
  sessionId: number,
  c: Classification,
  classification: readonly number[],
  comment: string | undefined,
): Promise<void> {
  const labels = pathLabels(c.roots, classification);
  if (!labels || c.treeId === null)
    throw new AppError({
      kind: 'Invalid',
      field: 'classification',
      message: "That classification is not in this group's tree any more. Pick again.",
    });
  const me = await directory.whoAmI().catch(() => null);
  const root = await client.resource('classification').list({ conditions: [eqNum('id', c.treeId)], sort: false, page: 0, size: 1 });
  const rootLabel = str(root.results[0]?.value);
  const leafId = classification[classification.length - 1];
  // The record reads as its field names do (schemas/README.md, "The closing classification"):
  // the agent record's id, the node chosen, the readable path. Leaves of a v1 tree have no id.
  await client.resource('classificationService').save({
    sessionId,
    ...(c.groupId !== null ? { groupConfId: c.groupId } : {}),
    ...(me?.agentId != null ? { agentId: me.agentId } : {}),
    rootId: c.treeId,
    classificationTreeSession: { ...(leafId !== undefined && leafId > 0 ? { id: leafId } : {}), value: labels[labels.length - 1] ?? '' },
    displayName: [rootLabel, ...labels].filter(Boolean).join(' > '),
    ...(comment?.trim() ? { commentClassification: comment.trim() } : {}),
  });
}

/** The labels along a path of node ids, or null when the path is not in the tree. */
function pathLabels(roots: ClassNode[], path: readonly number[]): string[] | null {
  const labels: string[] = [];
  let level = roots;
  for (const id of path) {
    const node = level.find((n) => n.id === id);
    if (!node) return null;
    labels.push(node.label);
    level = node.children;
  }
  return labels;
}
