/**
 * What a caught value says went wrong, in words: an Error's message, anything else thrown as a
 * string. The one reading of a `catch (e)` for a log line or a message (eslint: house/error-text).
 */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
