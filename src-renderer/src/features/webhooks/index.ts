import type { ConsoleFeature } from '../../lib/feature';
import { frontStore } from '../../lib/scope.svelte';
import { EventLogStore } from './event-log.svelte';
import { ListenerStore } from './listener.svelte';
import { tt } from './strings';
import { showEvents } from './show';
import './webhooks.css';

/** For the shell: the standing warning while the listener accepts unsigned events. */
export { default as ListenerWarning } from './ListenerWarning.svelte';
/** For the live indicator: the tunnel's state while one runs. */
export { default as TunnelIndicator } from './TunnelIndicator.svelte';
/** Integration plumbing, not attendance: the settings view shows it under "Developer / integration". */
export { default as EventsView } from './EventsView.svelte';
const showTab = (tab: 'log' | 'listener' | 'source') => () => showEvents(tab);
export const webhooksFeature: ConsoleFeature = {
  id: 'webhooks',
  commands: [
    { id: 'events.open', title: () => tt('cmd.open'), group: 'Developer', run: showTab('log') },
    { id: 'events.listener', title: () => tt('cmd.listener'), group: 'Developer', run: showTab('listener') },
    { id: 'events.source', title: () => tt('cmd.source'), group: 'Developer', run: showTab('source') },
    {
      id: 'events.tunnel',
      title: () => tt('cmd.tunnel'),
      group: 'Developer',
      enabled: () => {
        const status = frontStore(ListenerStore)?.status;
        return !!status && status.tunnel.provider !== 'none' && status.state === 'running';
      },
      run: async () => {
        const listener = frontStore(ListenerStore);
        if (!listener) return;
        const s = listener.status?.tunnel.status;
        if (s === 'running' || s === 'starting' || s === 'restarting') await listener.stopTunnel();
        else await listener.startTunnel();
      },
    },
  ],
  // Rows arrive from the workspace's start, so its log is current whenever the view opens.
  open(scope) {
    scope.use(EventLogStore).listen();
  },
};
