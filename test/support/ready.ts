/**
 * The longest the console may take to become ready for the user: its services start, a
 * workspace opens (the demo's stand-in seeds its data in a thread of its own), the first reads
 * answer. The one limit of every such wait, generous because a busy machine is slow at this; a
 * test still waits only as long as the console takes. A web test may wait so more than once (a
 * restart, a second workspace): its own limit is a few of these.
 */
export const READY_MS = 60_000;

/** A web test's limit: a few starts of the console and what the test does between them. */
export const WEB_TEST_MS = 3 * READY_MS;

/**
 * How long a test waits for what the user sees to follow an action (a row, a status, a toast,
 * an element to click): playwright's expect and action limit, the one such limit. Generous, so
 * that a machine under a CPU hog is slower, never failing; a test still waits only as long as the
 * console takes. Waits for a console to start use READY_MS.
 */
export const SHOWN_MS = 30_000;
