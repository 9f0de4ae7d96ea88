import type { SupervisorTab } from './tabs';

export { SUPERVISOR_TABS, type SupervisorTab } from './tabs';

/** Which tool of the supervisor view is showing. */
class SupervisorNav {
  tab = $state<SupervisorTab>('tickets');
}

export const supNav = new SupervisorNav();
