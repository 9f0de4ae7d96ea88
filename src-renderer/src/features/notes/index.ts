import type { ConsoleFeature } from '../../lib/feature';

/** The notes panel is shown inside the attendance view; the feature adds no view of its own. */
export const notesFeature: ConsoleFeature = { id: 'notes' };
