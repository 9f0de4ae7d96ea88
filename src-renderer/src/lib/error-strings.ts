import type { ErrorInfo, ErrorReason } from '../../../src-shared/errors';
import { sizeWords } from '../../../src-shared/size-words';
import { i18n } from './i18n.svelte';

/**
 * Errors in the user's language. The main process words each error in English, naming what was
 * being done ("…to list sessions"): English shows those words as they are, and Portuguese says
 * what happened from the error's reason and its fields (status, where a redirect pointed, the
 * limit an answer passed). The English catalog's `errors.*` messages are those words' source for
 * translators, shown when the main process's own words are missing.
 */
const et = i18n.register('errors');

const KEYS: Record<ErrorReason, Parameters<typeof et>[0]> = {
  unreachable: 'err.unreachable',
  timeout: 'err.timeout',
  errorPage: 'err.errorPage',
  redirect: 'err.redirect',
  tooLarge: 'err.tooLarge',
  tooDeep: 'err.tooDeep',
  malformed: 'err.malformed',
  paging: 'err.paging',
  internal: 'err.internal',
};

/** An error value from the main process, in the user's language. */
export function errorText(info: ErrorInfo): string {
  if (i18n.locale === 'en' && info.message) return info.message;
  // Without a reason, the kind says what happened; the service's own words (Invalid) are its data.
  if (!info.reason) return info.kind === 'Invalid' ? info.message : et(`err.kind.${info.kind}`);
  let key = KEYS[info.reason];
  if (key === 'err.redirect' && !info.location) key = 'err.redirectNowhere';
  const limit = info.limit === undefined ? '' : info.reason === 'tooLarge' ? sizeWords(info.limit) : String(info.limit);
  return et(key, { status: info.status ?? '', location: info.location ?? '', limit });
}

/** A fault of this window's own code (not an error value from the main process). */
export const pageErrorText = (): string => et('err.page');
