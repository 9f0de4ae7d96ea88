import { startStandin, type FaultRule } from '../../src-standin/index';

export type { FaultRule };

/** What the outbox tests need from the stand-in: where it is, tokens, faults, and real sessions. */
export interface StandinHandle {
  baseUrl: string;
  tokens: { agent: string; admin: string };
  /** Ids of seeded sessions (comments to an unknown session are refused with 400). */
  sessionIds: number[];
  faults: { set(rules: FaultRule[]): void };
  close(): Promise<void>;
}

export async function startOutboxStandin(): Promise<StandinHandle> {
  const sb = await startStandin({ port: 0, sessions: 40 });
  return {
    baseUrl: sb.baseUrl,
    tokens: sb.tokens,
    sessionIds: [11, 12, 13, 14, 15, 16, 17, 18],
    faults: sb.faults,
    close: () => sb.close(),
  };
}
