import type { ConsoleFeature } from '../../lib/feature';
import { app } from '../workspace/app.svelte';
import { eventLog } from './event-log.svelte';
import { listener } from './listener.svelte';
import { liveSource } from './live-source.svelte';
import { tt } from './strings';
import { showEvents } from './show';
import './webhooks.css';

/** For the shell: the standing warning while the listener accepts unsigned events. */
export { default as ListenerWarning } from './ListenerWarning.svelte';
/** For the live indicator: the tunnel's state while one runs. */
export { default as TunnelIndicator } from './TunnelIndicator.svelte';
export { listener } from './listener.svelte';
export { eventLog } from './event-log.svelte';
/** Integration plumbing, not attendance: the settings view shows it under "Developer / integration". */
export { default as EventsView } from './EventsView.svelte';
export { showEvents } from './show';
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
      enabled: () => listener.status !== null && listener.status.tunnel.provider !== 'none' && listener.status.state === 'running',
      run: async () => {
        const s = listener.status?.tunnel.status;
        if (s === 'running' || s === 'starting' || s === 'restarting') await listener.stopTunnel();
        else await listener.startTunnel();
      },
    },
  ],
  start() {
    // Rows arrive from the start, so the log is current whenever the view opens.
    eventLog.listen();
    app.onSignedOut(() => {
      eventLog.reset();
      listener.reset();
      liveSource.reset();
    });
  },
};
