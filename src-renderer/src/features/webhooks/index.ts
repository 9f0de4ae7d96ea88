import { views } from '../../lib/views.svelte';
import { commands } from '../../lib/commands.svelte';
import { app } from '../../state/app.svelte';
import { eventLog } from './event-log.svelte';
import { listener } from './listener.svelte';
import { tt } from './strings';
import EventsView from './EventsView.svelte';
import './webhooks.css';

/** For the shell: the standing warning while the listener accepts unsigned events. */
export { default as ListenerWarning } from './ListenerWarning.svelte';
/** For the live indicator: the tunnel's state while one runs. */
export { default as TunnelIndicator } from './TunnelIndicator.svelte';
export { listener } from './listener.svelte';
export { eventLog } from './event-log.svelte';

views.register({ id: 'events', title: () => tt('wh.view'), icon: '⇄', order: 40, component: EventsView });

const showTab = (tab: 'log' | 'listener') => () => {
  listener.tab = tab;
  views.show('events');
};
commands.register(
  { id: 'events.open', title: () => tt('cmd.open'), group: 'Events', run: showTab('log') },
  { id: 'events.listener', title: () => tt('cmd.listener'), group: 'Events', run: showTab('listener') },
  {
    id: 'events.tunnel',
    title: () => tt('cmd.tunnel'),
    group: 'Events',
    enabled: () => listener.status !== null && listener.status.tunnel.provider !== 'none' && listener.status.state === 'running',
    run: async () => {
      const s = listener.status?.tunnel.status;
      if (s === 'running' || s === 'starting' || s === 'restarting') await listener.stopTunnel();
      else await listener.startTunnel();
    },
  },
);

// Rows arrive from the start, so the log is current whenever the view opens.
eventLog.listen();
app.onSignedOut(() => {
  eventLog.reset();
  listener.reset();
});
