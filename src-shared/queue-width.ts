/**
 * How wide the attendant may make the queue column, in CSS pixels: the page's separator and the
 * saved setting both hold it. Apart from the bridge's schemas so the page takes these numbers
 * without zod.
 */
export const QUEUE_WIDTH_MIN = 280;
export const QUEUE_WIDTH_MAX = 900;
