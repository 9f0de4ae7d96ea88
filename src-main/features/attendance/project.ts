import type { ClassNode, Entity, GroupInfo, SessionDetail, ThreadMessage } from '../../../src-shared/bridge/attendance';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import { toQueueItem } from '../../queue';
import {
  authorOf,
  idOf as int,
  instantOf,
  record as obj,
  sentimentOf,
  sessionCustomerOf,
  sessionIdOf,
  text as str,
  type Parties,
} from '../../../src-shared/concepts';
import { slaSecondsOf, warningRatioOf } from '../../../src-shared/sla';

/**
 * Projections of service records (parsed leniently) onto the small shapes the bridge carries.
 * Pure functions: unit-testable and shared by every handler of the attendance feature.
 */

type Rec = Record<string, unknown>;
export { record as obj, text as str, idOf as int } from '../../../src-shared/concepts';

/** A group as embedded in a session or answered by groups/unique; null without an id. */
export function toGroupInfo(g: unknown): GroupInfo | null {
  const group = obj(g);
  const id = int(group?.id);
  if (!group || id === null) return null;
  const channels = Array.isArray(group.channels) ? group.channels.map((c) => str(obj(c)?.name)).filter((c): c is string => c !== null) : [];
  return {
    id,
    name: str(group.name) ?? `#${id}`,
    slaSeconds: slaSecondsOf(group.sla, group.timeUnit),
    warningRatio: warningRatioOf(group.warningRatio),
    mandatoryClassification: group.mandatoryClassificationTree === true,
    classificationTreeId: int(obj(group.classificationTree)?.id),
    channels,
  };
}

/**
 * Whether a group record carries its configuration, not just who it is (`{id}` or `{id, name}`,
 * as a session may name its group): its SLA or its classification rule.
 */
export const isFullGroup = (g: unknown): boolean => {
  const group = obj(g);
  return typeof group?.name === 'string' && ('sla' in group || 'timeUnit' in group || 'mandatoryClassificationTree' in group);
};

/** A message as the thread shows it; null without an id or a session to put it in. */
export function toThreadMessage(m: Rec, fallbackSessionId?: number, parties?: Parties): ThreadMessage | null {
  const id = int(m.id);
  const sessionId = sessionIdOf(m) ?? fallbackSessionId ?? null;
  if (id === null || sessionId === null) return null;
  const author = authorOf(m, parties);
  return {
    id,
    sessionId,
    text: typeof m.message === 'string' ? m.message : '',
    caption: str(m.caption),
    contentType: str(m.contentType) ?? 'text',
    createdAt: instantOf(m.createdAt),
    fromCustomer: author.role === 'customer',
    author: author.role,
    sender: author.name,
    sentiment: sentimentOf(m.sentiment),
    bySupervisor: m.sentBySuperAgent === true,
    failed: m.errorConversation === true || (typeof m.errorConversation === 'string' && m.errorConversation.trim().length > 0),
  };
}

export function toEntities(raw: unknown): Entity[] {
  const list = Array.isArray(raw) ? raw : Array.isArray(obj(raw)?.entities) ? (obj(raw)?.entities as unknown[]) : [];
  const out: Entity[] = [];
  for (const e of list) {
    const r = obj(e);
    if (!r || typeof r.text !== 'string' || typeof r.label !== 'string') continue;
    out.push({ text: r.text, label: r.label, start: int(r.start), end: int(r.end) });
  }
  return out;
}

export function toClassNodes(node: unknown, depth = 0): ClassNode[] {
  const n = obj(node);
  if (!n || depth > 12) return [];
  const children = Array.isArray(n.children) ? n.children : [];
  const out: ClassNode[] = [];
  let synthetic = -1;
  for (const c of children) {
    if (typeof c === 'string') {
      // v1 trees listed children as plain strings (interface §9.9): keep them as leaves.
      out.push({ id: synthetic--, label: c, children: [] });
      continue;
    }
    const child = obj(c);
    const id = int(child?.id);
    if (!child || id === null || child.active === false) continue;
    out.push({ id, label: str(child.value) ?? `#${id}`, children: toClassNodes(child, depth + 1) });
  }
  return out;
}

/** The messaging window of chat apps: 24 hours after the customer's last message. */
export const WINDOW_MS = 24 * 3600 * 1000;

export function toSessionDetail(session: Rec, messages: ThreadMessage[], now: number): SessionDetail | null {
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
  const lastCustomer = [...messages].reverse().find((m) => m.fromCustomer);
  const lastAt = lastCustomer?.createdAt ? Date.parse(lastCustomer.createdAt) : NaN;
  const windowClosed = item.channel === 'chatApp' && (Number.isNaN(lastAt) ? messages.length > 0 : now - lastAt > WINDOW_MS);
  return {
    item,
    customer: {
      name: person?.name ?? item.customerName,
      phone: str(customer?.phone),
      email: str(customer?.email),
      instance: str(session.userConnectedInstance),
    },
    attendedAt: str(session.attendedAt),
    lastAgent: str(session.lastAgent),
    topic,
    needsTemplate: windowClosed,
  };
}

export { fillTemplate } from '../../../src-shared/template';
