import { tt } from './strings';
import { ft } from './figures-strings';
import { lazy, type LazyComponent } from '../../lib/views.svelte';
import { SUPERVISOR_TABS, type SupervisorTab } from './tab-ids';

export { SUPERVISOR_TABS, type SupervisorTab };

export interface SupervisorPanel {
  title: () => string;
  /** Loaded when its tab is first shown: the console's first view does without it. */
  panel: LazyComponent;
  /** The palette's command opening this tab (the ticket lookup has its own dialog instead). */
  command?: () => string;
}

/**
 * What each of the supervisor view's tabs shows (their order is `SUPERVISOR_TABS`): the tab bar,
 * the panel shown and the palette's commands are made from it. A new tool is one entry here and
 * its name in tab-ids.ts (a name without an entry here is a type error).
 */
export const SUPERVISOR_PANELS = {
  tickets: { title: () => tt('sup.tab.tickets'), panel: lazy(() => import('./TicketsPanel.svelte')) },
  nps: { title: () => tt('sup.tab.nps'), panel: lazy(() => import('./NpsPanel.svelte')), command: () => tt('cmd.nps') },
  report: { title: () => tt('sup.tab.report'), panel: lazy(() => import('./ReportPanel.svelte')), command: () => tt('cmd.report') },
  overview: { title: () => ft('fig.tab'), panel: lazy(() => import('./FiguresPanel.svelte')), command: () => ft('fig.cmd') },
  groups: { title: () => tt('sup.tab.groups'), panel: lazy(() => import('./GroupsPanel.svelte')), command: () => tt('cmd.groups') },
  explorer: { title: () => tt('sup.tab.explorer'), panel: lazy(() => import('./ExplorerPanel.svelte')), command: () => tt('cmd.explorer') },
  kb: { title: () => tt('sup.tab.kb'), panel: lazy(() => import('./KbPanel.svelte')), command: () => tt('cmd.kb') },
} as const satisfies Record<SupervisorTab, SupervisorPanel>;
