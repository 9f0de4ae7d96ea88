import { startMiniStandin, type FaultRule } from './outbox-mini-standin';

/** What the outbox tests need from a stand-in: where it is, a token, faults, and sessions. */
export interface StandinHandle {
  baseUrl: string;
  tokens: { agent: string; admin: string };
  sessionIds: number[];
  faults: { set(rules: FaultRule[]): void };
  close(): Promise<void>;
}

export async function startOutboxStandin(): Promise<StandinHandle> {
  const sb = await startMiniStandin();
  return {
    baseUrl: sb.baseUrl,
    tokens: sb.tokens,
    sessionIds: [101, 102, 103, 104, 105, 106, 107, 108],
    faults: sb.faults,
    close: () => sb.close(),
  };
}
