import type { SupervisorTab } from './tab-ids';

/** Which tool of the supervisor view is showing. */
export class SupervisorNav {
  tab = $state<SupervisorTab>('tickets');
}
