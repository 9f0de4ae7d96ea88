import type { ConsoleFeature } from '../../lib/feature';
import { lazy, views } from '../../lib/views.svelte';
import { frontStore } from '../../lib/scope.svelte';
import { VoiceStore } from './voice.svelte';
import { tt } from './strings';
import './voice.css';

/** For the attendance thread: embed these with the session's id (see each file's comment). */
export { default as VoicePanel } from './VoicePanel.svelte';
export { default as SessionCalls } from './SessionCalls.svelte';
export { default as ReadAloud } from './ReadAloud.svelte';

const voice = () => frontStore(VoiceStore);

export const voiceFeature: ConsoleFeature = {
  id: 'voice',
  views: [{ id: 'voice', title: () => tt('v.view'), icon: '◉', order: 20, component: lazy(() => import('./VoiceView.svelte')) }],
  commands: [
    { id: 'voice.open', title: () => tt('cmd.open'), group: 'Voice', run: () => views.show('voice') },
    { id: 'voice.toggle', title: () => tt('cmd.toggle'), group: 'Voice', run: () => voice()?.setEnabled(!voice()?.enabled) },
    {
      id: 'voice.record',
      title: () => tt('cmd.record'),
      group: 'Voice',
      shortcut: 'Mod+Shift+M',
      enabled: () => !!voice()?.enabled && voice()?.sessionId != null,
      run: () => voice()?.toggleRecording(),
    },
  ],
};
