/**
 * The demo's sessions: each one planned from the random stream (group, channel, script,
 * customer, state, times, attendant), then written as its messages, its session record and what
 * surrounds it (an internal note, a suggestion, the closing report, NPS answers, the closing
 * classification, a voice call with its events). The draws happen in one fixed order, so a seed
 * always yields the same sessions.
 */
import { intBetween, pick } from './prng';
import type { Rec } from './query-engine';
import { MEDIA, MEDIA_PATH } from './media';
import { CITIES, INTERNAL_NOTES, NPS_COMMENTS, SCRIPTS, type Script } from './texts';
import { created, fillScript, iso, makeCnpj, MIN, money, NPS_SURVEY, type Channel, type SeedContext } from './seed-base';
import type { Customer } from './seed-org';

/** Chat answers to the survey's open question are numbered from here (scores keep the NPS answers' ids). */
const COMMENT_ANSWER_IDS = 10_000_000;

/** What the sessions are drawn from. */
export interface SessionWorld {
  groups: Rec[];
  customers: Customer[];
  attendants: Rec[];
  demo: Rec;
}

/** The next id of each collection the sessions write to. */
interface Ids {
  message: number;
  comment: number;
  callSeq: number;
  report: number;
  nps: number;
  suggestion: number;
  classService: number;
  callLog: number;
}

/** The demo attendant's first conversation: the customer sends a photo, a voice note and a document in it. */
interface MediaSession {
  id: number;
  at: number;
  customer: unknown;
  agent: unknown;
}

type State = 'waiting' | 'active' | 'closed';

interface Plan {
  i: number;
  id: number;
  group: Rec;
  channel: Channel;
  script: Script;
  cust: Customer;
  state: State;
  createdAt: number;
  agentUser: Rec | null;
  tme: number | null;
  attendedAt: number | null;
  tma: number | null;
  closedAt: number | null;
  protocol: string;
  vars: Record<string, string>;
}

/** What planning needs across sessions. */
class Planner {
  readonly #scriptsByGroup = new Map<string, Script[]>();
  readonly #usesCnpj = new Set(SCRIPTS.filter((sc) => sc.lines.some((l) => l.includes('{cnpj}'))));
  readonly #workingAgents: Rec[];
  #activeCount = 0;

  constructor(
    readonly ctx: SeedContext,
    readonly world: SessionWorld,
  ) {
    for (const s of SCRIPTS) this.#scriptsByGroup.set(s.group, [...(this.#scriptsByGroup.get(s.group) ?? []), s]);
    this.#workingAgents = world.attendants.filter((a) => ctx.c.agent.get((a.agent as Rec).id)!.status !== 'OFFLINE');
  }

  plan(i: number): Plan {
    const { rng, now } = this.ctx;
    const id = i + 1;
    const group = this.world.groups[i % 3 === 0 ? 0 : intBetween(rng, 0, 2)]!;
    const channel = pick(
      rng,
      (group.channels as Array<{ name: Channel }>).map((ch) => ch.name),
    );
    const script = pick(rng, this.#scriptsByGroup.get(group.name as string)!);
    const cust = this.world.customers[intBetween(rng, 0, this.world.customers.length - 1)]!;
    const { state, ageMs } = this.#stateAndAge();
    const createdAt = now - ageMs;
    const agentUser = this.#attendant(state);
    const times = this.#times(state, ageMs, createdAt);
    const protocol = `${iso(createdAt).slice(0, 10).replace(/-/g, '')}${String(id).padStart(6, '0')}`;
    const vars = this.#vars(script, cust, agentUser, protocol);
    return { i, id, group, channel, script, cust, state, createdAt, agentUser, ...times, protocol, vars };
  }

  #stateAndAge(): { state: State; ageMs: number } {
    const { rng } = this.ctx;
    const r = rng();
    if (r < 0.15) return { state: 'waiting', ageMs: intBetween(rng, 1, 40) * MIN };
    if (r < 0.45) return { state: 'active', ageMs: intBetween(rng, 10, 180) * MIN };
    return { state: 'closed', ageMs: intBetween(rng, 200, 30 * 24 * 60) * MIN };
  }

  /** Every third active session goes to the demo agent so the demo opens with work to do. */
  #attendant(state: State): Rec | null {
    if (state === 'waiting') return null;
    if (state === 'active' && this.#activeCount++ % 3 === 0) return this.world.demo;
    return pick(this.ctx.rng, state === 'active' ? this.#workingAgents : this.world.attendants);
  }

  #times(state: State, ageMs: number, createdAt: number): Pick<Plan, 'tme' | 'attendedAt' | 'tma' | 'closedAt'> {
    const { rng } = this.ctx;
    const tme = state === 'waiting' ? null : intBetween(rng, 20, Math.min(900, Math.floor(ageMs / 1000 / 2)));
    const attendedAt = tme == null ? null : createdAt + tme * 1000;
    const tma = state === 'closed' ? intBetween(rng, 120, 2400) : null;
    const closedAt = tma != null && attendedAt != null ? attendedAt + tma * 1000 : null;
    return { tme, attendedAt, tma, closedAt };
  }

  #vars(script: Script, cust: Customer, agentUser: Rec | null, protocol: string): Record<string, string> {
    const { rng } = this.ctx;
    return {
      nome: cust.first,
      agente: agentUser ? String(agentUser.displayName) : 'Atendente',
      cpf: cust.cpf,
      cnpj: this.#usesCnpj.has(script) ? makeCnpj(rng) : '',
      email: cust.email,
      valor: money(intBetween(rng, 1990, 250000)),
      pedido: `PED-${intBetween(rng, 100000, 999999)}`,
      protocolo: protocol,
    };
  }
}

function instanceOf(channel: Channel, cust: Customer): string {
  if (channel === 'email') return cust.email;
  if (channel === 'messenger' || channel === 'social') return cust.handle;
  return cust.phone;
}

/** Waiting sessions hold only the customer's opening; others a prefix of the script. Returns the last message's time and sender. */
function writeMessages(ctx: SeedContext, p: Plan, ids: Ids, detailed: number): { t: number; lastFromUser: boolean; lineCount: number } {
  const { rng } = ctx;
  const lineCount = p.state === 'waiting' ? 1 : p.i < detailed ? intBetween(rng, 2, p.script.lines.length) : 2;
  let t = p.createdAt;
  let lastFromUser = true;
  for (let k = 0; k < lineCount; k++) {
    const fromUser = k % 2 === 0;
    t = k === 0 ? p.createdAt : k === 1 && p.attendedAt ? p.attendedAt + 15_000 : t + intBetween(rng, 20, 180) * 1000;
    ctx.c.message.put({
      id: ids.message++,
      session: { id: p.id },
      message: fillScript(p.script.lines[k]!, p.vars),
      contentType: 'text',
      fromUser,
      sendBy: fromUser ? p.cust.rec.userName : p.agentUser?.userName,
      toUser: fromUser ? (p.agentUser?.userName ?? null) : p.cust.rec.userName,
      createdAt: iso(t),
      cognition: false,
      errorConversation: false,
      sentBySuperAgent: false,
      repliedMessage: null,
      caption: null,
      sentiment: fromUser && p.script.topic === 'cobrança em duplicidade' ? 'NEGATIVE' : 'NEUTRAL',
    });
    lastFromUser = fromUser;
  }
  return { t, lastFromUser, lineCount };
}

function writeSession(ctx: SeedContext, p: Plan, t: number, lastFromUser: boolean): void {
  const { agentUser, attendedAt, closedAt } = p;
  const agentName = agentUser?.userName ?? null;
  ctx.c.userSession.put({
    id: p.id,
    protocol: p.protocol,
    status: p.state === 'closed' ? 'CLOSED' : 'OPEN',
    pending: p.state === 'active' && !lastFromUser,
    priority: ctx.rng() < 0.05,
    onlyBot: false,
    hasReservedWord: false,
    groupConf: { id: p.group.id },
    user: { id: p.cust.rec.id },
    agent: agentUser ? { id: agentUser.id } : null,
    lastAgent: agentName,
    userConnectedResource: p.channel,
    userConnectedInstance: instanceOf(p.channel, p.cust),
    agentConnectedResource: agentUser ? 'console' : null,
    groupList: String(p.group.id),
    createdAt: iso(p.createdAt),
    availableAt: iso(p.createdAt),
    attendedAt: attendedAt ? iso(attendedAt) : null,
    closedAt: closedAt ? iso(closedAt) : null,
    closedBy: closedAt ? agentName : null,
    updatedAt: iso(closedAt ?? t),
    updatedBy: agentUser?.userName ?? 'system',
    tme: p.tme,
    tma: p.tma,
    ticketId: null,
    properties: JSON.stringify({ topic: p.script.topic }),
  });
}

function writeReport(ctx: SeedContext, p: Plan, agentUser: Rec, closedAt: number, ids: Ids): void {
  ctx.c.attendanceTimeReport.put({
    id: ids.report++,
    agentName: agentUser.name,
    attendanceTime: p.tma,
    channelName: p.channel,
    groupName: p.group.name,
    protocol: p.protocol,
    createdAtProtocol: iso(p.createdAt),
    closedAtProtocol: iso(closedAt),
    lastGroup: p.group.name,
    nextGroup: null,
    lastStatus: 'CLOSED',
    operationName: 'Operação Brasil',
    protocolDuration: Math.round((closedAt - p.createdAt) / 1000),
    step: 1,
    waitingTime: p.tme,
    ...created(closedAt, 'system'),
  });
}

/** Six closed sessions in ten have an NPS answer, kept both as the summary and as the survey's chat answers. */
function writeNps(ctx: SeedContext, p: Plan, agentUser: Rec, closedAt: number, ids: Ids): void {
  const { rng, c } = ctx;
  const sr = rng();
  const score = sr < 0.55 ? intBetween(rng, 9, 10) : sr < 0.8 ? intBetween(rng, 7, 8) : intBetween(rng, 0, 6);
  c.npsAnswer.put({
    id: ids.nps++,
    surveyName: NPS_SURVEY,
    score,
    comment: pick(rng, NPS_COMMENTS),
    sessionId: p.id,
    groupConf: { id: p.group.id },
    agent: { id: agentUser.id },
    channel: p.channel,
    createdAt: iso(closedAt + 5 * MIN),
  });
  c.chatAnswer.put({
    id: ids.nps,
    questionId: 1,
    optionAnswerId: score + 1,
    sessionId: p.id,
    value: String(score),
    ...created(closedAt + 5 * MIN, 'system'),
  });
  // The survey's open question: the customer's words, when they left some (the same comment the summary's answer keeps).
  const said = c.npsAnswer.get(ids.nps - 1)?.comment;
  if (typeof said !== 'string') return;
  c.chatAnswer.put({
    id: COMMENT_ANSWER_IDS + ids.nps,
    questionId: 2,
    optionAnswerId: null,
    sessionId: p.id,
    value: said,
    ...created(closedAt + 5 * MIN + 30_000, 'system'),
  });
}

function writeClassification(ctx: SeedContext, p: Plan, agentUser: Rec, closedAt: number, ids: Ids): void {
  const { rng, c } = ctx;
  const root = c.classification.get(p.group.id)!;
  const branch = pick(rng, root.children as Rec[]);
  const leaf = pick(rng, branch.children as Rec[]);
  c.classificationService.put({
    id: ids.classService++,
    sessionId: p.id,
    groupConfId: p.group.id,
    // README: the closing classification record (agent record's id, chosen node, readable path).
    agentId: (agentUser.agent as Rec | null | undefined)?.id ?? null,
    rootId: root.id,
    classificationTreeSession: { id: leaf.id, value: leaf.value },
    displayName: [root.value, branch.value, leaf.value].join(' > '),
    commentClassification: `Cliente atendido sobre ${p.script.topic}.`,
    ...created(closedAt, agentUser.userName as string),
  });
}

function writeClosing(ctx: SeedContext, p: Plan, agentUser: Rec, closedAt: number, ids: Ids): void {
  writeReport(ctx, p, agentUser, closedAt, ids);
  if (ctx.rng() < 0.6) writeNps(ctx, p, agentUser, closedAt, ids);
  if (p.group.mandatoryClassificationTree) writeClassification(ctx, p, agentUser, closedAt, ids);
}

function writeCall(ctx: SeedContext, p: Plan, attendedAt: number, ids: Ids): void {
  const { rng, c } = ctx;
  const callId = `CALL-${String(ids.callSeq++).padStart(6, '0')}`;
  const finished = p.closedAt ?? null;
  c.call.put({
    id: ids.callSeq - 1,
    callId,
    sessionId: p.id,
    agentId: p.agentUser?.id ?? null,
    userId: p.cust.rec.id,
    groupConfId: p.group.id,
    kind: 'INBOUND',
    callMode: 'AUDIO',
    provider: 'standin-voice',
    plataformCode: 'SBX',
    city: pick(rng, CITIES),
    ringingAt: iso(p.createdAt),
    startedAt: iso(attendedAt),
    finishedAt: finished ? iso(finished) : null,
    state: finished ? 'FINISHED' : 'IN_PROGRESS',
    status: 'ANSWERED',
    tme: p.tme,
    ivrTime: intBetween(rng, 5, 40),
    attendanceTime: p.tma,
    startedByAgent: false,
    finishedByAgent: finished != null,
    classified: finished != null,
    liked: null,
    ...created(p.createdAt, 'system'),
  });
  const events: Array<[string, number]> = [
    ['RINGING', p.createdAt],
    ['ANSWERED', attendedAt],
  ];
  if (finished) events.push(['HANGUP', finished]);
  for (const [eventType, at] of events) {
    c.callLogHistory.put({
      id: ids.callLog++,
      callId,
      origCallId: callId,
      callerId: p.cust.phone,
      callerType: eventType === 'HANGUP' ? 'AGENT' : 'CUSTOMER',
      eventType,
      eventDate: iso(at),
      groupConfId: p.group.id,
      origin: 'PSTN',
      ...created(at, 'system'),
    });
  }
}

/** What surrounds a detailed session: a note, a suggestion, its closing records, its call. */
function writeSurroundings(ctx: SeedContext, p: Plan, t: number, ids: Ids): void {
  const { agentUser, attendedAt, closedAt } = p;
  if (agentUser && attendedAt && p.i % 4 === 1) {
    ctx.c.sessionComment.put({
      id: ids.comment++,
      sessionId: p.id,
      comment: pick(ctx.rng, INTERNAL_NOTES),
      createdAt: iso(attendedAt + 60_000),
      createdBy: agentUser.userName,
    });
  }
  if (p.state !== 'closed' && p.i % 2 === 0) {
    ctx.c.chatSuggestion.put({
      id: ids.suggestion++,
      session: { id: p.id },
      suggestion: fillScript(p.script.suggestion, p.vars),
      createdAt: iso(t),
    });
  }
  if (p.state === 'closed' && agentUser && closedAt) writeClosing(ctx, p, agentUser, closedAt, ids);
  if (p.channel === 'voice' && attendedAt) writeCall(ctx, p, attendedAt, ids);
}

/**
 * Media messages take the ids after all others (the rest of the seed keeps its ids), timed just
 * after the customer's opening message.
 */
function writeMedia(ctx: SeedContext, media: MediaSession, ids: Ids): void {
  MEDIA.forEach((file, k) => {
    ctx.c.message.put({
      id: ids.message++,
      session: { id: media.id },
      message: `${MEDIA_PATH}${file.name}`,
      contentType: file.kind,
      caption: file.caption,
      fromUser: true,
      sendBy: media.customer,
      toUser: media.agent,
      createdAt: iso(media.at + (k + 1) * 1000),
      cognition: false,
      errorConversation: false,
      sentBySuperAgent: false,
      repliedMessage: null,
      sentiment: 'NEUTRAL',
    });
  });
}

/** All sessions; returns the next free suggestion id (the general suggestions follow). */
export function seedSessions(ctx: SeedContext, world: SessionWorld): { nextSuggestionId: number } {
  const ids: Ids = { message: 1, comment: 1, callSeq: 1, report: 1, nps: 1, suggestion: 1, classService: 1, callLog: 1 };
  const planner = new Planner(ctx, world);
  let media: MediaSession | null = null;
  const detailed = Math.min(ctx.sessions, 2000);
  for (let i = 0; i < ctx.sessions; i++) {
    const p = planner.plan(i);
    const { t, lastFromUser, lineCount } = writeMessages(ctx, p, ids, detailed);
    if (!media && p.state === 'active' && p.agentUser === world.demo && lineCount >= 2)
      media = { id: p.id, at: p.createdAt, customer: p.cust.rec.userName, agent: world.demo.userName };
    writeSession(ctx, p, t, lastFromUser);
    if (i < detailed) writeSurroundings(ctx, p, t, ids);
  }
  if (media) writeMedia(ctx, media, ids);
  return { nextSuggestionId: ids.suggestion };
}
