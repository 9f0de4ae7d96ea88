export { Outbox } from './outbox';
export { DraftStore } from './drafts';
export { refOf } from './ref';
export { createCommentTransport } from './transport';
export type { OutboxStatus } from './types';
