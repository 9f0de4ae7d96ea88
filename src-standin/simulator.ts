/**
 * The customer simulator: on each tick a new customer opens a session (with a first message),
 * customers answer some attendant replies, and a waiting customer may nudge the queue. Every
 * write goes through the Model, so it produces the same webhook events as the console's own.
 */
import { createRng, intBetween, pick, type Rng } from './prng';
import type { Actor } from './api-error';
import type { Model } from './model';
import type { Rec } from './query-engine';
import { scalarText } from './scalar';
import { CHANNELS, fillScript, makeCnpj, money, type Channel } from './seed-base';
import { CUSTOMER_NUDGES, CUSTOMER_REPLIES, SCRIPTS, type Script } from './texts';

export const DEFAULT_SIMULATOR_INTERVAL_MS = 4000;
/** The simulator opens no new session while this many wait in the queue. */
export const MAX_WAITING = 40;

export class Simulator {
  #timer: NodeJS.Timeout | null = null;
  readonly #rng: Rng;
  #intervalMs: number;

  readonly #model: Model;
  readonly #system: Actor;
  constructor(model: Model, system: Actor, seed: number, intervalMs = DEFAULT_SIMULATOR_INTERVAL_MS) {
    this.#model = model;
    this.#system = system;
    this.#rng = createRng(seed ^ 0x51a1);
    this.#intervalMs = intervalMs;
  }

  get running(): boolean {
    return this.#timer !== null;
  }

  setInterval(ms: number): void {
    this.#intervalMs = Math.max(50, ms);
    if (this.#timer) {
      this.stop();
      this.start();
    }
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      void this.step().catch(() => undefined);
    }, this.#intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** One tick, now. */
  async step(): Promise<void> {
    const sessions = this.#model.store.c.userSession;
    const waitingForCustomer: Rec[] = [];
    const waitingInQueue: Rec[] = [];
    for (const s of sessions.values()) {
      if (s.status !== 'OPEN') continue;
      if (s.agent && s.pending === true) waitingForCustomer.push(s);
      else if (!s.agent) waitingInQueue.push(s);
    }
    // New customers stop arriving while the queue is full, as they would give up: a demo left
    // open all day keeps a queue a person can work, and its data stops growing.
    if (waitingInQueue.length < MAX_WAITING) this.#openSession();
    // Customers answer about half of the replies waiting for them, a few per tick.
    for (const s of waitingForCustomer.slice(-20)) {
      if (this.#rng() < 0.5) this.#customerSays(s, pick(this.#rng, CUSTOMER_REPLIES));
    }
    const nudge = waitingInQueue[Math.floor(this.#rng() * waitingInQueue.length)];
    if (nudge && this.#rng() < 0.2) this.#customerSays(nudge, pick(this.#rng, CUSTOMER_NUDGES));
  }

  /** One of the first 200 customers, or none when the data has no customer. */
  #pickCustomer(): Rec | undefined {
    const pool: Rec[] = [];
    for (const u of this.#model.store.c.user.values()) {
      if (u.typeUser === 'CUSTOMER') pool.push(u);
      if (pool.length >= 200) break;
    }
    return pool.length ? pick(this.#rng, pool) : undefined;
  }

  /** The script's group (the first group when it has gone) and one of its channels. */
  #routeOf(script: Script): { group: Rec | undefined; channel: Channel } {
    const groups = this.#model.store.c.group;
    const group = [...groups.values()].find((g) => g.name === script.group) ?? groups.get(1);
    const channels = ((group?.channels as Array<{ name: Channel }> | undefined) ?? []).map((c) => c.name);
    const channel: Channel = channels.length ? pick(this.#rng, channels) : pick(this.#rng, CHANNELS);
    return { group, channel };
  }

  /** The script's first line, filled in for this customer and session. */
  #openingLine(script: Script, customer: Rec | undefined, session: Rec): string {
    const first = scalarText(customer?.displayName ?? customer?.name) ?? 'Cliente';
    return fillScript(script.lines[0]!, {
      nome: first,
      cpf: scalarText(customer?.cpf) ?? '',
      cnpj: makeCnpj(this.#rng),
      email: scalarText(customer?.email) ?? '',
      valor: money(intBetween(this.#rng, 1990, 99990)),
      pedido: `PED-${intBetween(this.#rng, 100000, 999999)}`,
      protocolo: String(session.protocol),
    });
  }

  #openSession(): void {
    const customer = this.#pickCustomer();
    const script = pick(this.#rng, SCRIPTS);
    const { group, channel } = this.#routeOf(script);
    const instance = channel === 'email' ? customer?.email : customer?.phone;
    const { rec: session } = this.#model.save(
      'userSession',
      {
        groupConf: group ? { id: group.id } : undefined,
        ...(customer ? { user: { id: customer.id } } : {}),
        userConnectedResource: channel,
        userConnectedInstance: typeof instance === 'string' ? instance : null,
        properties: JSON.stringify({ topic: script.topic, simulated: true }),
      },
      this.#system,
    );
    this.#customerSays(session, this.#openingLine(script, customer, session));
  }

  #customerSays(session: Rec, text: string): void {
    this.#model.save('message', { session: { id: session.id }, message: text, fromUser: true }, this.#system);
  }
}
