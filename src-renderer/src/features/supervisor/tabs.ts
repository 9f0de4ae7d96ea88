import type { Component } from 'svelte';
import { tt } from './strings';
import TicketsPanel from './TicketsPanel.svelte';
import NpsPanel from './NpsPanel.svelte';
import ReportPanel from './ReportPanel.svelte';
import GroupsPanel from './GroupsPanel.svelte';
import ExplorerPanel from './ExplorerPanel.svelte';
import KbPanel from './KbPanel.svelte';

export interface SupervisorPanel {
  title: () => string;
  panel: Component;
  /** The palette's command opening this tab (the ticket lookup has its own dialog instead). */
  command?: () => string;
}

/**
 * The supervisor view's tabs, in order: the one list the tab bar, the panel shown and the
 * palette's commands are made from. A new tool is one entry here.
 */
export const SUPERVISOR_PANELS = {
  tickets: { title: () => tt('sup.tab.tickets'), panel: TicketsPanel },
  nps: { title: () => tt('sup.tab.nps'), panel: NpsPanel, command: () => tt('cmd.nps') },
  report: { title: () => tt('sup.tab.report'), panel: ReportPanel, command: () => tt('cmd.report') },
  groups: { title: () => tt('sup.tab.groups'), panel: GroupsPanel, command: () => tt('cmd.groups') },
  explorer: { title: () => tt('sup.tab.explorer'), panel: ExplorerPanel, command: () => tt('cmd.explorer') },
  kb: { title: () => tt('sup.tab.kb'), panel: KbPanel, command: () => tt('cmd.kb') },
} as const satisfies Record<string, SupervisorPanel>;

export type SupervisorTab = keyof typeof SUPERVISOR_PANELS;
export const SUPERVISOR_TABS = Object.keys(SUPERVISOR_PANELS) as SupervisorTab[];
