// Zod-free, so the renderer can use it without bundling the schemas.

/** Words or segments recognised below this confidence are marked for the attendant's review. */
export const LOW_CONFIDENCE = 0.5;
