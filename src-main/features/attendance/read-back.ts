import { samePerson, sessionAgentOf, sessionGroupOf, statusKind, text, type PersonRef } from '../../../src-shared/concepts';
import type { Read } from '../../../src-shared/envelopes';
import type { Session } from '../../../src-shared/schemas/index';

/**
 * A write is done when the service then holds it: each session write reads the session back and
 * compares what matters (assignment, group, status). These say, in plain words, what the service
 * holds when it is not what was asked, and the next step; null when it holds what was asked.
 */

/**
 * Who the session's record names as its attendant: its agent when the record carries that field
 * (lastAgent may keep naming whoever had it last), else its lastAgent login.
 */
function holderOf(rec: Read<Session>): PersonRef | null {
  if ('agent' in rec && rec.agent !== undefined) return sessionAgentOf(rec);
  const last = text(rec.lastAgent);
  return last ? { id: null, userName: last, name: last, role: 'agent' } : null;
}

const nameOf = (p: PersonRef | null): string => p?.name ?? p?.userName ?? (p?.id != null ? `#${p.id}` : 'nobody');

/** A transfer to a group: the session is in that group and no longer the attendant's. */
export function groupTransferShortfall(rec: Read<Session>, groupId: number, groupName: string, me: PersonRef): string | null {
  const group = sessionGroupOf(rec);
  const holder = holderOf(rec);
  const inGroup = group?.id === groupId;
  const stillMine = samePerson(holder, me);
  if (inGroup && !stillMine) return null;
  const where = inGroup
    ? `it is in ${groupName}`
    : `it is still in ${group?.name ?? (group ? `group #${group.id}` : 'no group')}, not ${groupName}`;
  return stillMine
    ? `The transfer was not fully applied: the service still lists you as this session's attendant (${where}), so it stays in Mine and is not in ${groupName}'s waiting list. Transfer it again, or ask a supervisor to take you off it.`
    : `The transfer was not applied: ${where}. Transfer it again.`;
}

/** A transfer to an attendant: the service names them as the session's attendant. */
export function agentTransferShortfall(rec: Read<Session>, userName: string, me: PersonRef): string | null {
  const holder = holderOf(rec);
  const target: PersonRef = { id: null, userName, name: userName, role: 'agent' };
  if (samePerson(holder, target)) return null;
  // A holder named by id only: the lastAgent login says who it is.
  if (
    holder !== null &&
    holder.userName == null &&
    !samePerson(holder, me) &&
    text(rec.lastAgent)?.toLowerCase() === userName.toLowerCase()
  )
    return null;
  return `The transfer was not applied: the service lists ${nameOf(holder)} as this session's attendant, not ${userName}. Transfer it again.`;
}

/** An accept: the service names the attendant as the session's attendant. */
export function acceptShortfall(rec: Read<Session>, me: PersonRef): string | null {
  const holder = holderOf(rec);
  if (samePerson(holder, me)) return null;
  return holder
    ? `The service gave this session to ${nameOf(holder)}, not to you.`
    : "The service did not record you as this session's attendant: it is still waiting. Accept it again.";
}

/** A close: the service holds the session as closed. */
export function closeShortfall(rec: Read<Session>): string | null {
  const status = text(rec.status);
  if (statusKind(status) === 'closed') return null;
  return `The service did not close this session: it still reads "${status ?? 'no status'}". Close it again.`;
}
