import type { ConsoleFeature } from '../../lib/feature';

/** The notes panel is shown inside the attendance view; the feature adds no view of its own. */
export const notesFeature: ConsoleFeature = { id: 'notes' };

// What the attendance view shows of the notes: the feature's public entry (DESIGN.md §3).
export { NotesStore, type NoteView } from './notes.svelte';
export { default as NotesPanel } from './NotesPanel.svelte';
