import type { QueueItem } from '../../../src-shared/bridge/attendance';
import { samePerson, sessionAgentOf, sessionWithBot, statusKind, text as str } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import { AppError } from '../../../src-shared/errors';
import { errorText } from '../../../src-shared/error-text';
import type { Session } from '../../../src-shared/schemas/index';
import type { HandlerTable } from '../../bridge/table';
import { toQueueItem } from '../../queue';
import type { FeatureContext } from '../context';
import type { NotesFeature } from '../notes';
import type { DirectoryCache } from './directory';
import type { QueueFeature } from './queue';
import { acceptShortfall, agentTransferShortfall, groupTransferShortfall } from './read-back';
import { readSession } from './reads';

type SessionChannel = 'attendance:accept' | 'attendance:transfer' | 'attendance:seen';

/** What the attendant does to a session in the queue: accept it, transfer it, mark it seen. */
export function sessionHandlers(
  ctx: FeatureContext,
  d: { queue: QueueFeature; directory: DirectoryCache; notes: Pick<NotesFeature, 'add'> },
): Pick<HandlerTable, SessionChannel> {
  const { queue, directory, notes } = d;

  function itemOf(rec: Read<Session>): QueueItem {
    const item = toQueueItem(rec);
    if (!item) throw new AppError({ kind: 'BadResponse', message: 'The service answered a session without an id.' });
    return item;
  }

  return {
    'attendance:seen': async ({ sessionId }) => ({ ok: queue.seen(sessionId) }),

    'attendance:accept': async ({ sessionId }) => {
      const me = await directory.meRef();
      const current = await readSession(ctx.client(), sessionId);
      const holder = sessionAgentOf(current);
      const status = str(current.status);
      // Whatever its word, a session not closed and not with a bot is the attendant's to take.
      if (statusKind(status) === 'closed' || sessionWithBot(current)) {
        queue.applySessions([current]);
        throw new AppError({
          kind: 'Invalid',
          message:
            statusKind(status) === 'closed'
              ? 'This session was closed meanwhile.'
              : 'A bot is handling this session: it is not waiting for an attendant.',
        });
      }
      // Held by someone the record may not identify, still held.
      const held = holder !== null || current.agent != null;
      if (held && !samePerson(holder, me)) {
        queue.applySessions([current]);
        throw new AppError({
          kind: 'Invalid',
          message: `${holder?.name ?? holder?.userName ?? 'Another attendant'} took this session first.`,
        });
      }
      if (!held)
        await ctx.client().saveSession({ id: sessionId, lastAgent: me.userName, attendedAt: new Date(ctx.clock.now()).toISOString() });
      // Accepted when the service then names the attendant: read back, never assumed.
      const after = await readSession(ctx.client(), sessionId);
      queue.applySessions([after]);
      const shortfall = acceptShortfall(after, me);
      if (shortfall) throw new AppError({ kind: 'Invalid', errorCode: 'NOT_APPLIED', message: shortfall });
      return itemOf(after);
    },

    'attendance:transfer': async ({ sessionId, groupId, agentUserName, note }) => {
      const me = await directory.meRef();
      // To a group: the group, and no attendant (README: "What a transfer writes"), so a service
      // that keeps the attendant unless told hands the session to the group's waiting list too.
      if (groupId !== undefined) await ctx.client().saveSession({ id: sessionId, groupConf: { id: groupId }, lastAgent: null });
      else if (agentUserName) await ctx.client().saveSession({ id: sessionId, lastAgent: agentUserName });
      // The note for whoever takes the session next: once the move is made (a refused transfer
      // leaves no note behind to be sent), journaled by the notes' outbox, which sends it once.
      if (note) {
        try {
          await notes.add(sessionId, note);
        } catch (e) {
          throw new AppError({
            kind: 'Invalid',
            message: `The session was transferred, but its note could not be kept: ${errorText(e)}. Add it in the Notes tab.`,
          });
        }
      }
      // Transferred when the service then holds it so: read back the group and the attendant.
      const after = await readSession(ctx.client(), sessionId);
      queue.applySessions([after]);
      const groupName = groupId !== undefined ? (queue.groups.get(groupId)?.name ?? `group #${groupId}`) : '';
      const shortfall =
        groupId !== undefined
          ? groupTransferShortfall(after, groupId, groupName, me)
          : agentTransferShortfall(after, agentUserName ?? '', me);
      if (shortfall)
        throw new AppError({ kind: 'Invalid', errorCode: 'NOT_APPLIED', message: note ? `${shortfall} Your note was kept.` : shortfall });
      return itemOf(after);
    },
  };
}
