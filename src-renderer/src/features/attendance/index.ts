import type { ConsoleFeature } from '../../lib/feature';
import { t } from '../../lib/i18n.svelte';
import { frontStore } from '../../lib/scope.svelte';
import { QueueStore, VISIBLE_BUCKETS } from '../../lib/queue.svelte';
import { DeskStore } from '../../lib/desk.svelte';
import { awayWatch } from './away.svelte';
import { WrapUpStore } from './wrapup.svelte';
import { ComposerStore } from './composer.svelte';
import AttendanceView from './AttendanceView.svelte';
import { SidePanel } from './side.svelte';
import { i18n } from '../../lib/i18n.svelte';
import './attendance.css';

const ct = i18n.register('attendance');

/** The workspace in front's stores: commands act there. */
const queue = () => frontStore(QueueStore);
const desk = () => frontStore(DeskStore);
const composer = () => frontStore(ComposerStore);
const side = () => frontStore(SidePanel);

const selected = () => queue()?.selected ?? null;
const mineSelected = () => {
  const s = selected();
  if (!s) return false;
  const b = queue()?.bucketOf(s);
  return b === 'mine' || b === 'pending';
};
const focusId = (id: string) => queueMicrotask(() => document.getElementById(id)?.focus());

export const attendanceFeature: ConsoleFeature = {
  id: 'attendance',
  // Away detection watches the page for whichever workspace is in front.
  start() {
    awayWatch.start();
  },
  views: [{ id: 'attendance', title: () => t('queue.heading'), icon: '☰', order: 0, component: AttendanceView }],
  // Defaults avoid AltGr (Ctrl+Alt) and Option/Alt with printable keys: they type characters.
  commands: [
    { id: 'queue.next', title: () => ct('k.next'), group: 'Queue', shortcut: 'Alt+ArrowDown', run: () => queue()?.step(1) },
    { id: 'queue.prev', title: () => ct('k.prev'), group: 'Queue', shortcut: 'Alt+ArrowUp', run: () => queue()?.step(-1) },
    { id: 'queue.filter', title: () => ct('k.filter'), group: 'Queue', shortcut: 'Mod+Shift+F', run: () => focusId('queue-filter') },
    { id: 'queue.refresh', title: () => ct('k.refresh'), group: 'Queue', run: () => queue()?.refresh() },
    ...VISIBLE_BUCKETS.map((b) => ({
      id: `queue.show.${b}`,
      title: () => ct('k.bucket', { name: t(`queue.${b}`) }),
      group: 'Queue',
      run: () => {
        const q = queue();
        if (q) q.bucket = b;
      },
    })),
    {
      id: 'session.accept',
      title: () => ct('k.accept'),
      group: 'Session',
      shortcut: 'Alt+Enter',
      enabled: () => {
        const s = selected();
        return !!s && queue()?.bucketOf(s) === 'waiting';
      },
      run: async () => {
        const q = queue();
        const s = q?.selected;
        const item = s && (await q.accept(s.id));
        // Accepted: the session shows in Mine and the reply box takes the keyboard.
        if (item) {
          q.select(item.id);
          composer()?.requestFocus();
        }
      },
    },
    {
      id: 'session.close',
      title: () => ct('k.close'),
      group: 'Session',
      shortcut: 'Mod+Shift+X',
      enabled: mineSelected,
      run: () => {
        const s = selected();
        if (s) void frontStore(WrapUpStore)?.start(s.id);
      },
    },
    {
      id: 'session.transfer',
      title: () => ct('k.transfer'),
      group: 'Session',
      shortcut: 'Mod+Shift+H',
      enabled: mineSelected,
      run: () => {
        const s = selected();
        if (s) side()?.openTransfer(s.id);
      },
    },
    {
      id: 'session.note',
      title: () => ct('k.note'),
      group: 'Session',
      shortcut: 'Mod+Shift+L',
      enabled: () => !!selected(),
      run: () => {
        const panel = side();
        if (panel) panel.tab = 'notes';
        focusId('note-input');
      },
    },
    {
      id: 'session.composer',
      title: () => ct('k.composer'),
      group: 'Session',
      shortcut: 'Mod+Shift+E',
      enabled: mineSelected,
      run: () => {
        composer()?.requestFocus();
        focusId('composer-input');
      },
    },
    {
      id: 'session.noteMode',
      title: () => ct('k.noteMode'),
      group: 'Session',
      shortcut: 'Mod+Shift+U',
      enabled: () => !!selected(),
      run: () => {
        composer()?.toggleMode();
        focusId('composer-input');
      },
    },
    {
      id: 'session.help',
      title: () => ct('k.help'),
      group: 'Session',
      enabled: () => !!selected(),
      run: () => {
        const panel = side();
        if (panel) panel.tab = 'help';
      },
    },
    { id: 'status.resume', title: () => ct('k.resume'), group: 'Status', enabled: () => !!desk()?.paused, run: () => desk()?.resume() },
    { id: 'status.live', title: () => ct('k.live'), group: 'Status', run: () => desk()?.setLive(desk()?.live?.state !== 'running') },
  ],
};

export { chime } from './chime.svelte';
export { awayWatch, AWAY_MODES } from './away.svelte';
export { DeskStore } from '../../lib/desk.svelte';
