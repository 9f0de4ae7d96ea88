import { z } from 'zod';
import { ErrorInfoSchema, type ErrorInfo } from '../../src-shared/errors';
import { REF_PATTERN } from './ref';
import { NOTE_STATE_NAMES, type LocalNote } from '../../src-shared/bridge/notes';

/**
 * pending: journaled, not yet sent (or known not to have been stored).
 * sending: a request is on its way; on disk this state means "may have reached the service".
 * outcome-unknown: sent, answer never came; read the session back before any resend.
 * confirmed: the service stored it (kept in memory only; its journal entry is deleted).
 * failed: the service refused it for good (its reason in `error`); waits for edit or discard.
 */
export const NOTE_STATES = NOTE_STATE_NAMES;
export type NoteState = (typeof NOTE_STATES)[number];

/** What the journal holds for one note. Strict: we own this shape (DESIGN.md §4). */
export const JournalEntrySchema = z.strictObject({
  v: z.literal(1),
  id: z.string().regex(/^[0-9a-f-]{36}$/),
  ref: z.string().regex(REF_PATTERN),
  sessionId: z.number().int().positive(),
  text: z.string().min(1),
  seq: z.number().int().nonnegative(),
  /** Only states worth surviving a restart; `sending` is read back as outcome-unknown. */
  state: z.enum(['pending', 'sending', 'failed']),
  createdAt: z.number(),
  updatedAt: z.number(),
  attempts: z.number().int().nonnegative(),
  lastAttemptAt: z.number().optional(),
  error: ErrorInfoSchema.optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** What the outbox shows of a note: the bridge's own shape, so it crosses as it is (bridge -> renderer). */
export type NoteRecord = LocalNote;

/**
 * Whether notes are going out: offline follows the console's connectivity monitor; paused is the
 * outbox's own hold after the service refused the token.
 */
export type SendingState = 'online' | 'offline' | 'paused';

export interface OutboxProblem {
  kind: 'quarantined';
  file: string;
  movedTo: string;
  message: string;
  at: number;
}

export interface OutboxStatus {
  connectivity: SendingState;
  /** Why the outbox is paused (Unauthorized) or offline (the last network error). */
  reason?: ErrorInfo;
  /** Earliest time a retry or probe is scheduled, if one is waiting. */
  nextAttemptAt?: number;
  counts: Record<NoteState, number>;
  problems: OutboxProblem[];
}

export type OutboxEvent =
  | { type: 'note'; note: NoteRecord }
  | { type: 'removed'; id: string; sessionId: number }
  | { type: 'status'; status: OutboxStatus }
  | { type: 'problem'; problem: OutboxProblem };

/** The service operations the outbox needs; errors thrown are AppError (src-shared/errors.ts). */
export interface CommentTransport {
  save(c: { sessionId: number; comment: string }, signal: AbortSignal): Promise<{ id: number }>;
  listForSession(sessionId: number, signal: AbortSignal): Promise<Array<{ id: number; comment: string }>>;
  probe(signal: AbortSignal): Promise<void>;
}
