/**
 * Older pages of a thread one bridge call reads at most: a reader scrolling back fast asks for
 * more pages at once (the renderer doubles its batch up to this), the bridge refuses more. No
 * imports: the renderer reads it without the schemas.
 */
export const OLDER_PAGES_MAX = 32;
