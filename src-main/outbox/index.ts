export { Outbox, type OutboxOptions, type Backoff } from './outbox';
export { DraftStore, type DraftKind, type Draft, type DraftStoreOptions } from './drafts';
export { withRef, refOf, splitRef } from './ref';
export { createCommentTransport } from './transport';
export type { CommentTransport, Clock, NoteRecord, NoteState, OutboxEvent, OutboxProblem, OutboxStatus, SendingState } from './types';
