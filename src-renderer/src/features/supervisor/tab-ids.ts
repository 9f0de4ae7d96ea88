// The supervisor view's tabs by name, in order. Apart from tabs.ts, which loads each tab's panel:
// a panel follows the view's tab (nav.svelte.ts) and must not import the list that loads it.
export const SUPERVISOR_TABS = ['tickets', 'nps', 'report', 'overview', 'groups', 'explorer', 'kb'] as const;
export type SupervisorTab = (typeof SUPERVISOR_TABS)[number];
