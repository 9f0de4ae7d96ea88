import type {
  AgentInfo,
  ClassNode,
  Entity,
  GroupInfo,
  PauseReasonInfo,
  SessionDetail,
  Suggestion,
  ThreadMessage,
} from '../../../src-shared/bridge/attendance';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import { toQueueItem } from '../../queue';
import {
  authorOf,
  idOf,
  intOf,
  mediaOf,
  record as obj,
  sentimentOf,
  sessionCustomerOf,
  sessionAddressOf,
  sessionIdOf,
  stringOf,
  text as str,
  type Parties,
} from '../../../src-shared/concepts';
import { windowClosed } from '../../../src-shared/newest';
import { slaSecondsOf, warningRatioOf } from '../../../src-shared/sla';
import type { Read } from '../../../src-shared/envelopes';
import type {
  ChatSuggestion,
  ClassificationNode,
  GroupConfiguration,
  Message,
  PauseReason,
  Session,
} from '../../../src-shared/schemas/index';
import type { Agent } from '../agents';

/**
 * Projections of service records, as their schemas read them, onto the small shapes the bridge
 * carries. Pure functions: unit-testable and shared by every handler of the attendance feature.
 */

/** A group as embedded in a session or answered by groups/unique; null without an id. */
export function toGroupInfo(group: Read<GroupConfiguration> | GroupConfiguration): GroupInfo | null {
  const id = group.id ?? null;
  if (id === null) return null;
  const channels = (group.channels ?? []).map((c) => str(c.name)).filter((c): c is string => c !== null);
  return {
    id,
    name: str(group.name) ?? `#${id}`,
    slaSeconds: slaSecondsOf(group.sla, group.timeUnit),
    warningRatio: warningRatioOf(group.warningRatio),
    mandatoryClassification: group.mandatoryClassificationTree === true,
    classificationTreeId: idOf(group.classificationTree),
    channels,
    acceptedMedias: str(group.acceptedMedias),
  };
}

/** A message as the thread shows it; null without an id or a session to put it in. */
export function toThreadMessage(m: Read<Message>, fallbackSessionId?: number, parties?: Parties): ThreadMessage | null {
  const id = m.id ?? null;
  const sessionId = sessionIdOf(m) ?? fallbackSessionId ?? null;
  if (id === null || sessionId === null) return null;
  const author = authorOf(m, parties);
  const media = mediaOf(m);
  return {
    id,
    sessionId,
    // A media message's `message` is its address, not words to show or quote (its caption is).
    text: media ? '' : (m.message ?? ''),
    caption: str(m.caption),
    contentType: str(m.contentType) ?? 'text',
    createdAt: m.createdAt ?? null,
    fromCustomer: author.role === 'customer',
    author: author.role,
    sender: author.name,
    senderUserName: author.userName,
    sentiment: sentimentOf(m.sentiment),
    bySupervisor: m.sentBySuperAgent === true,
    failed: m.errorConversation === true || (typeof m.errorConversation === 'string' && m.errorConversation.trim().length > 0),
    media,
  };
}

/** A pause reason the attendant may pick; null for one without an id or a label, or not active. */
export function toPauseReason(r: Read<PauseReason>): PauseReasonInfo | null {
  const id = r.id ?? null;
  const label = str(r.value);
  if (id === null || label === null || r.active === false) return null;
  return { id, label, minutes: r.pauseTime ?? null };
}

/** An attendant someone may transfer to; null for a virtual agent or one the record does not name. */
export function toAgentInfo(a: Agent): AgentInfo | null {
  if (a.virtual || !a.userName) return null;
  return { userName: a.userName, name: a.name ?? a.userName, status: a.status };
}

/** A reply suggestion (`forSession`: written for this session, not for any); null without an id or text. */
export function toSuggestion(s: Read<ChatSuggestion>, forSession: boolean): Suggestion | null {
  const text = str(s.suggestion);
  return s.id == null || !text ? null : { id: s.id, text, forSession };
}

/** Named entities of a message, as an NER answer or an event gives them. */
export function toEntities(raw: unknown): Entity[] {
  const list = Array.isArray(raw) ? raw : Array.isArray(obj(raw)?.entities) ? (obj(raw)?.entities as unknown[]) : [];
  const out: Entity[] = [];
  for (const e of list) {
    const r = obj(e);
    const text = stringOf(r?.text);
    const label = stringOf(r?.label);
    if (text === null || label === null) continue;
    out.push({ text, label, start: intOf(r?.start), end: intOf(r?.end) });
  }
  return out;
}

/** The classification tree under a node, its inactive branches left out. */
export function toClassNodes(node: Read<ClassificationNode> | ClassificationNode, depth = 0): ClassNode[] {
  if (depth > 12) return [];
  const out: ClassNode[] = [];
  let synthetic = -1;
  for (const child of node.children ?? []) {
    if (typeof child === 'string') {
      // v1 trees listed children as plain strings (interface §9.9): keep them as leaves.
      out.push({ id: synthetic--, label: child, children: [] });
      continue;
    }
    const id = child.id ?? null;
    if (id === null || child.active === false) continue;
    out.push({ id, label: str(child.value) ?? `#${id}`, children: toClassNodes(child, depth + 1) });
  }
  return out;
}

export function toSessionDetail(session: Read<Session>, messages: ThreadMessage[], now: number): SessionDetail | null {
  const item: QueueItem | null = toQueueItem(session);
  if (!item) return null;
  const customer = obj(session.user);
  const person = sessionCustomerOf(session);
  let topic: string | null = null;
  if (typeof session.properties === 'string') {
    try {
      const p = obj(JSON.parse(session.properties));
      topic = str(p?.topic);
    } catch {
      topic = null;
    }
  }
  return {
    item,
    customer: {
      name: person?.name ?? item.customerName,
      phone: str(customer?.phone),
      email: str(customer?.email),
      instance: sessionAddressOf(session),
    },
    attendedAt: session.attendedAt ?? null,
    lastAgent: str(session.lastAgent),
    topic,
    // As read now; the renderer recomputes it from the thread as messages arrive (same rule).
    needsTemplate: windowClosed(item.channel, messages, now),
    classification: null,
  };
}

export { fillTemplate } from '../../../src-shared/template';
