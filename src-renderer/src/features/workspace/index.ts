import type { ConsoleFeature } from '../../lib/feature';
import { t } from '../../lib/i18n.svelte';
import { app } from '../../lib/app.svelte';
import { needsMe } from './needs-me.svelte';
import NeedsMeView from './NeedsMeView.svelte';

/** More than one workspace: the sidebar lists them and "Needs me" gathers what waits in each. */
export const severalWorkspaces = (): boolean => (app.state?.workspaces.length ?? 0) > 1;

export const workspaceFeature: ConsoleFeature = {
  id: 'workspace',
  views: [
    {
      id: 'needs-me',
      title: () => t('ws.needsMe'),
      icon: '◎',
      order: -1,
      component: NeedsMeView,
      // One workspace: shown while a colleague's mention waits.
      visible: () => severalWorkspaces() || needsMe.mentions.length > 0,
      badge: () => needsMe.total,
    },
  ],
};

// How a workspace is named and opened from another feature's view.
export { openIn, serviceAccountName, workspaceName } from './needs-me.svelte';
