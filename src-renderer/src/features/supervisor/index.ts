import type { ConsoleFeature } from '../../lib/feature';
import { lazy, views } from '../../lib/views.svelte';
import { on } from '../../lib/bridge';
import { frontStore } from '../../lib/scope.svelte';
import { tt } from './strings';
import { SupervisorNav } from './nav.svelte';
import { SUPERVISOR_PANELS, SUPERVISOR_TABS, type SupervisorPanel, type SupervisorTab } from './tabs';
import { TicketLookupStore, ticketShortcut } from './tickets.svelte';
import { SupervisorAccess } from './access.svelte';
import TicketDialog from './TicketDialog.svelte';
import './supervisor.css';

export { linkifyTickets } from './tickets';

/**
 * Opens the ticket lookup from anywhere in the console (a session's ticketId, a reference in a
 * message); with an id or key it looks the ticket up at once.
 */
export function openTicketLookup(idOrKey?: string | number): void {
  frontStore(TicketLookupStore)?.show(idOrKey === undefined ? undefined : String(idOrKey));
}

const showTab = (tab: SupervisorTab) => () => {
  const nav = frontStore(SupervisorNav);
  if (nav) nav.tab = tab;
  views.show('supervisor');
};
/** The tools show for the role that has them (until the service says, they show). */
const allowed = () => frontStore(SupervisorAccess)?.allowed ?? false;
export const supervisorFeature: ConsoleFeature = {
  id: 'supervisor',
  views: [
    {
      id: 'supervisor',
      title: () => tt('sup.view'),
      icon: '◈',
      order: 50,
      component: lazy(() => import('./SupervisorView.svelte')),
      visible: allowed,
    },
  ],
  commands: [
    {
      id: 'ticket.lookup',
      title: () => tt('cmd.ticketLookup'),
      group: 'Supervisor',
      // One shortcut: the global one (in the desktop app it reaches the console before this does).
      shortcut: () => ticketShortcut.combo,
      rebind: (combo) => ticketShortcut.rebind(combo),
      run: () => openTicketLookup(),
    },
    ...SUPERVISOR_TABS.flatMap((tab) => {
      const { command: title }: SupervisorPanel = SUPERVISOR_PANELS[tab];
      return title ? [{ id: `supervisor.${tab}`, title, group: 'Supervisor', enabled: allowed, run: showTab(tab) }] : [];
    }),
  ],
  // One lookup dialog for the whole console, above every view.
  overlays: [TicketDialog],
  start() {
    // The global shortcut (or another feature) asks for a lookup in the workspace in front.
    on('supervisor:openTicketLookup', ({ idOrKey }) => openTicketLookup(idOrKey ?? undefined));
    void ticketShortcut.load();
  },
  open(scope) {
    void scope.use(SupervisorAccess).load();
  },
};
