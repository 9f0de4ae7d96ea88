import type { ConsoleFeature } from '../../lib/feature';
import { views } from '../../lib/views.svelte';
import { tt } from './strings';
import { supNav } from './nav.svelte';
import { SUPERVISOR_PANELS, SUPERVISOR_TABS, type SupervisorPanel, type SupervisorTab } from './tabs';
import { ticketLookup } from './tickets.svelte';
import { app } from '../workspace/app.svelte';
import { explorer } from './explorer.svelte';
import { groups } from './groups.svelte';
import { nps } from './nps.svelte';
import { report } from './report.svelte';
import SupervisorView from './SupervisorView.svelte';
import { supervisorAccess } from './access.svelte';
import TicketDialog from './TicketDialog.svelte';
import './supervisor.css';

export { linkifyTickets, type TextPart } from './tickets';

/**
 * Opens the ticket lookup from anywhere in the console (a session's ticketId, a reference in a
 * message); with an id or key it looks the ticket up at once.
 */
export function openTicketLookup(idOrKey?: string | number): void {
  ticketLookup.show(idOrKey === undefined ? undefined : String(idOrKey));
}

const showTab = (tab: SupervisorTab) => () => {
  supNav.tab = tab;
  views.show('supervisor');
};
export const supervisorFeature: ConsoleFeature = {
  id: 'supervisor',
  views: [
    {
      id: 'supervisor',
      title: () => tt('sup.view'),
      icon: '◈',
      order: 50,
      component: SupervisorView,
      visible: () => supervisorAccess.allowed,
    },
  ],
  commands: [
    {
      id: 'ticket.lookup',
      title: () => tt('cmd.ticketLookup'),
      group: 'Supervisor',
      // One shortcut: the global one (in the desktop app it reaches the console before this does).
      shortcut: () => ticketLookup.combo,
      rebind: (combo) => ticketLookup.rebind(combo),
      run: () => openTicketLookup(),
    },
    ...SUPERVISOR_TABS.flatMap((tab) => {
      const { command: title }: SupervisorPanel = SUPERVISOR_PANELS[tab];
      return title
        ? [{ id: `supervisor.${tab}`, title, group: 'Supervisor', enabled: () => supervisorAccess.allowed, run: showTab(tab) }]
        : [];
    }),
  ],
  // One lookup dialog for the whole console, above every view.
  overlays: [TicketDialog],
  start() {
    for (const store of [explorer, groups, nps, report, supNav, supervisorAccess]) app.onSignedOut(() => store.reset());
    app.onSignedIn(() => void supervisorAccess.load());
    if (app.signedIn) void supervisorAccess.load();
    // The lookup keeps listening for the global shortcut; it only forgets what it showed.
    app.onSignedOut(() => ticketLookup.clear());
    ticketLookup.listen();
  },
};
