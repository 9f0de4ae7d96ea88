/**
 * What every part of the demo data shares: the seed's constants, the record helpers (times,
 * audit fields, documents with valid check digits, money) and the context each builder writes
 * through. The builders draw from one random stream in a fixed order, so the same seed always
 * yields the same records.
 */
import { randomBytes } from 'node:crypto';
import { fillPlaceholders } from '../src-shared/template';
import { intBetween, type Rng } from './prng';
import type { Rec } from './query-engine';
import type { Store } from './store';

/** Channels a session can come from, stored in `userConnectedResource` (README: channel field). */
export const CHANNELS = ['chatApp', 'email', 'sms', 'messenger', 'social', 'voice'] as const;
export type Channel = (typeof CHANNELS)[number];
export const CHANNEL_IDS: Record<Channel, number> = { chatApp: 1, email: 2, sms: 3, messenger: 4, social: 5, voice: 6 };

export const NPS_SURVEY = 'nps-atendimento';
export const TICKET_PREFIX = 'SUP';
export const DEMO_TICKET_ID = 4711;
/** The supervisor of the seeded operation: the supervisor token is theirs. */
export const SUPERVISOR_USER_NAME = 'juliana.martins';

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export const iso = (ms: number): string => new Date(ms).toISOString();

/** What a builder writes with: the collections, the one random stream, and the seed's clock. */
export interface SeedContext {
  readonly c: Store['c'];
  readonly rng: Rng;
  /** The anchor: dates are laid out backwards from it. */
  readonly now: number;
  /** When the operation was set up: the configuration records are that old. */
  readonly setupAt: number;
  readonly seed: number;
  readonly sessions: number;
}

/** The audit fields of a record made at `ms` by `by`. */
export const created = (ms: number, by = 'admin'): Rec => ({ createdAt: iso(ms), createdBy: by, updatedAt: iso(ms), updatedBy: by });

/** CPF with valid check digits, formatted 000.000.000-00. */
export function makeCpf(rng: Rng): string {
  const d = Array.from({ length: 9 }, () => intBetween(rng, 0, 9));
  if (d.every((x) => x === d[0])) d[8] = (d[8]! + 1) % 10;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += d[i]! * (len + 1 - i);
    const r = (sum * 10) % 11;
    d.push(r === 10 ? 0 : r);
  }
  const s = d.join('');
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}

/** CNPJ with valid check digits, formatted 00.000.000/0000-00. */
export function makeCnpj(rng: Rng): string {
  const d = [...Array.from({ length: 8 }, () => intBetween(rng, 0, 9)), 0, 0, 0, 1];
  for (const weights of [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]) {
    const sum = weights.reduce((acc, w, i) => acc + w * d[i]!, 0);
    const r = sum % 11;
    d.push(r < 2 ? 0 : 11 - r);
  }
  const s = d.join('');
  return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
}

export const money = (cents: number): string =>
  `R$ ${Math.floor(cents / 100).toLocaleString('pt-BR')},${String(cents % 100).padStart(2, '0')}`;

export const ascii = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

export function fillScript(line: string, v: Record<string, string>): string {
  return fillPlaceholders(line, v);
}

/**
 * A user's token: random, never derived from the seed (a seed is public, so its tokens would be
 * too). The data set stays the same for a seed; the tokens are kept with it in the data folder.
 */
export function tokenFor(userName: string): string {
  return `sbx_${ascii(userName).replace(/[^a-z0-9]/g, '')}_${randomBytes(18).toString('base64url')}`;
}
