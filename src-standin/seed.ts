/**
 * Deterministic demo data: a Brazilian retailer with three attendance groups, eight attendants,
 * sessions across every channel and state, and everything the console shows around them. The
 * same seed always yields the same records; dates are laid out backwards from `anchorMs`. Each
 * part is its own builder (seed-org, seed-sessions, seed-catalog); they run in a fixed order
 * because they draw from one random stream.
 */
import { createRng } from './prng';
import type { Store } from './store';
import { DAY, type SeedContext } from './seed-base';
import { seedCompany, seedCustomers, seedGroups, seedStaff, type Tokens } from './seed-org';
import { seedSessions } from './seed-sessions';
import {
  seedAttributes,
  seedBots,
  seedDirectMessages,
  seedIntegrations,
  seedPauseReasons,
  seedReplies,
  seedSchedule,
  seedTickets,
} from './seed-catalog';

// What the rest of the stand-in and its tests name the seed's fixed records by.
export { DEMO_TICKET_ID, NPS_SURVEY, SUPERVISOR_USER_NAME } from './seed-base';

export interface SeedResult {
  tokens: Tokens;
  demoAgent: { userName: string; id: number; name: string };
}

export function seedStore(store: Store, opts: { seed: number; sessions: number; anchorMs: number }): SeedResult {
  const ctx: SeedContext = {
    c: store.c,
    rng: createRng(opts.seed),
    now: opts.anchorMs,
    setupAt: opts.anchorMs - 400 * DAY,
    seed: opts.seed,
    sessions: opts.sessions,
  };
  const { company, operation } = seedCompany(ctx);
  const { tokens, attendants, demo, staffCount } = seedStaff(ctx, company);
  const groupByName = seedGroups(ctx, operation);
  const customers = seedCustomers(ctx, staffCount + 1);
  const groups = [...groupByName.values()];
  const { nextSuggestionId } = seedSessions(ctx, { groups, customers, attendants, demo });
  seedTickets(ctx, customers);
  seedReplies(ctx, groupByName, nextSuggestionId);
  seedPauseReasons(ctx);
  seedAttributes(ctx, customers);
  seedBots(ctx);
  seedSchedule(ctx);
  seedIntegrations(ctx, groups);
  seedDirectMessages(ctx, customers);
  return { tokens, demoAgent: { userName: String(demo.userName), id: Number(demo.id), name: String(demo.name) } };
}
