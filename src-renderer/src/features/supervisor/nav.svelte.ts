export const SUPERVISOR_TABS = ['tickets', 'nps', 'report', 'groups', 'explorer', 'kb'] as const;
export type SupervisorTab = (typeof SUPERVISOR_TABS)[number];

/** Which tool of the supervisor view is showing. */
class SupervisorNav {
  tab = $state<SupervisorTab>('tickets');
}

export const supNav = new SupervisorNav();
