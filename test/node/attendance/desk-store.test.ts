import { expect, test } from '@playwright/test';
import { importRunes, installFakeBridge, liveStatus, newScope } from '../../support/runes';
import type * as deskModule from '../../../src-renderer/src/lib/desk.svelte';
import type * as sideModule from '../../../src-renderer/src/features/attendance/side.svelte';

type Desk = typeof deskModule;
type Side = typeof sideModule;

test('status: a pause sent once while on its way, resumed after; what needs the attendant counts on the badge and shows in the window', async () => {
  // A window that is not focused, as when the attendant works in another program.
  const page = { title: 'Console', hasFocus: () => false };
  Object.assign(globalThis, { document: page, window: { addEventListener() {}, removeEventListener() {}, focus() {} } });
  try {
    const badges: number[] = [];
    const bridge = await installFakeBridge({
      'attendance:directory': () =>
        ({
          myStatus: 'ONLINE',
          myPauseReason: null,
          groups: [],
          agents: [],
          pauseReasons: [{ id: 3, label: 'Almoço', minutes: 60 }],
        }) as never,
      'live:status': () => liveStatus('running'),
      'attendance:pause': () => ({ status: 'PAUSED', reason: 'Almoço' }),
      'attendance:resume': () => ({ status: 'ONLINE', reason: null }),
      'attendance:badge': ({ count }) => (badges.push(count), { count }),
    });
    const { DeskStore } = await importRunes<Desk>('src-renderer/src/lib/desk.svelte.ts');
    const desk = (await newScope()).use(DeskStore);
    await desk.start();
    expect([desk.status, desk.paused, desk.live?.state]).toEqual(['ONLINE', false, 'running']);

    await Promise.all([desk.pause(3), desk.pause(3)]);
    expect(bridge.calls.filter((c) => c.channel === 'attendance:pause')).toHaveLength(1);
    expect([desk.paused, desk.pauseReason]).toEqual([true, 'Almoço']);
    expect(Date.now() - desk.pausedSince!).toBeLessThan(5_000);
    await desk.resume();
    expect([desk.paused, desk.pausedSince]).toEqual([false, null]);

    desk.attend('Carla', 'Meu CPF é 123.456.789-09', 7);
    desk.setUnreadSessions(2);
    expect(page.title).toBe('(3) Console');
    expect(badges.at(-1)).toBe(3);
    // No system notifications here: the notice shows in the window, the document masked.
    expect(desk.toasts.map((t) => t.text)).toEqual([expect.stringMatching(/^Carla: Meu CPF é (?!123\.456)/)]);
    for (let i = 0; i < 6; i++) desk.toast(`n${i}`, null);
    expect(desk.toasts).toHaveLength(4);
    desk.suspend();
  } finally {
    Reflect.deleteProperty(globalThis, 'document');
    Reflect.deleteProperty(globalThis, 'window');
  }
});

test("the side panel shows help first, and keeps the tab chosen; another workspace's starts on help", async () => {
  const { SidePanel } = await importRunes<Side>('src-renderer/src/features/attendance/side.svelte.ts');
  const scope = await newScope('a');
  scope.use(SidePanel).tab = 'notes';
  expect(scope.use(SidePanel).tab).toBe('notes');
  expect((await newScope('b')).use(SidePanel).tab).toBe('help');
});

test('a pause sent while the directory was being read is not taken back by the older answer', async () => {
  let answer: (() => void) | null = null;
  let status = 'ONLINE';
  await installFakeBridge({
    'attendance:directory': () =>
      new Promise((resolve) => {
        // What the service said when asked: the status of that moment.
        const said = {
          myStatus: status,
          myPauseReason: null,
          groups: [],
          agents: [],
          pauseReasons: [{ id: 3, label: 'Almoço', minutes: 60 }],
        };
        answer = () => resolve(said as never);
      }),
    'attendance:pause': () => ((status = 'PAUSED'), { status, reason: 'Almoço' }),
  });
  const { DeskStore } = await importRunes<Desk>('src-renderer/src/lib/desk.svelte.ts');
  const desk = (await newScope()).use(DeskStore);
  const reading = desk.loadDirectory();
  await expect.poll(() => answer !== null).toBe(true);
  // The console pauses the attendant (away) while the directory read is on its way back.
  await desk.pause(3);
  answer!();
  await reading;
  expect([desk.paused, desk.pauseReason]).toEqual([true, 'Almoço']);
  // Read again with nothing sent meanwhile: the service's word shows.
  answer = null;
  status = 'ONLINE';
  const again = desk.loadDirectory();
  await expect.poll(() => answer !== null).toBe(true);
  answer!();
  await again;
  expect(desk.paused).toBe(false);
});

test('the views that need the directory and ask for it at once share one read; once it is here they read nothing', async () => {
  const bridge = await installFakeBridge({
    'attendance:directory': async () =>
      ({ myStatus: 'ONLINE', myPauseReason: null, groups: [{ id: 4, name: 'Suporte' }], agents: [], pauses: [] }) as never,
  });
  const { DeskStore } = await importRunes<Desk>('src-renderer/src/lib/desk.svelte.ts');
  const desk = (await newScope()).use(DeskStore);
  // The transfer dialog, the settings and the explorer open while nothing was read yet.
  await Promise.all([desk.ensureDirectory(), desk.ensureDirectory(), desk.ensureDirectory()]);
  expect(bridge.calls.filter((c) => c.channel === 'attendance:directory')).toHaveLength(1);
  expect(desk.directory?.groups).toEqual([{ id: 4, name: 'Suporte' }]);
  await desk.ensureDirectory();
  expect(bridge.calls.filter((c) => c.channel === 'attendance:directory')).toHaveLength(1);
});
