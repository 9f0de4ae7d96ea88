import { expect, test } from '@playwright/test';
import type { GroupsOverview, NpsResult } from '../../../src-shared/bridge/supervisor';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as npsModule from '../../../src-renderer/src/features/supervisor/nps.svelte';
import type * as groupsModule from '../../../src-renderer/src/features/supervisor/groups.svelte';
import type * as navModule from '../../../src-renderer/src/features/supervisor/nav.svelte';

type Nps = typeof npsModule;
type Groups = typeof groupsModule;
type Nav = typeof navModule;

const nps = (surveyName: string): NpsResult => ({
  surveyName,
  averageNps: 8.5,
  positive: 6,
  neutral: 2,
  negative: 2,
  totalCount: 10,
  npsIndex: 40,
  fetchedAt: '2026-11-23T10:00:00Z',
});

test('NPS: a survey that answered is remembered first among the known ones; the day range reaches the service as whole days', async () => {
  const bridge = await installFakeBridge({
    'supervisor:nps': ({ surveyName }) => {
      if (surveyName === 'nope') throw new Error('No survey "nope".');
      return nps(surveyName);
    },
  });
  const { NpsStore } = await importRunes<Nps>('src-renderer/src/features/supervisor/nps.svelte.ts');
  const store = (await newScope()).use(NpsStore);
  store.surveyName = 'pos-atendimento';
  store.from = '2026-11-01';
  store.to = '2026-11-30';
  store.groupId = 3;
  await store.load();
  expect(store.result?.npsIndex).toBe(40);
  const input = bridge.calls.at(-1)?.input as { from: string; to: string; groupId: number };
  expect(new Date(input.to).getTime() - new Date(input.from).getTime()).toBe(
    new Date(2026, 11, 1).getTime() - new Date(2026, 10, 1).getTime(),
  );
  expect(input.groupId).toBe(3);

  store.surveyName = 'nope';
  await store.load();
  expect([store.result, store.error]).toEqual([null, 'No survey "nope".']);
  store.surveyName = 'satisfacao';
  await store.load();
  expect(store.known.slice(0, 2)).toEqual(['satisfacao', 'pos-atendimento']);
  // The next console (same profile) starts on the last survey that answered.
  expect((await newScope()).use(NpsStore).surveyName).toBe('satisfacao');
});

test('groups: choices are the named groups with an id, sorted; a queue change reloads the watched overview once', async () => {
  let reads = 0;
  const overview = (): GroupsOverview => ({
    groups: [
      { id: 2, name: 'Vendas' },
      { id: null, name: 'Sem grupo' },
      { id: 1, name: 'Suporte' },
    ].map((g) => ({
      ...g,
      slaSeconds: null,
      waiting: reads,
      withBot: 0,
      inAttendance: 0,
      pending: 0,
      longestWaitSeconds: null,
      overSla: false,
    })) as GroupsOverview['groups'],
    agents: [],
    fetchedAt: '2026-11-23T10:00:00Z',
    truncated: false,
    unreadable: { count: 0, first: null },
  });
  const bridge = await installFakeBridge({ 'supervisor:groups': () => (reads++, overview()) });
  const { GroupsStore } = await importRunes<Groups>('src-renderer/src/features/supervisor/groups.svelte.ts');
  const store = (await newScope()).use(GroupsStore);
  const stop = store.watch();
  try {
    await expect.poll(() => store.choices.map((c) => c.name)).toEqual(['Suporte', 'Vendas']);
    const before = reads;
    for (let i = 0; i < 5; i++) bridge.emit('attendance:queueDelta', { upsert: [], remove: [], me: null, seq: i + 1 });
    await expect.poll(() => reads, { timeout: 5_000 }).toBe(before + 1);
  } finally {
    stop();
  }
});

test("supervisor navigation starts on tickets and keeps the tool chosen; another workspace's starts on tickets", async () => {
  const { SupervisorNav } = await importRunes<Nav>('src-renderer/src/features/supervisor/nav.svelte.ts');
  const scope = await newScope('a');
  scope.use(SupervisorNav).tab = 'kb';
  expect(scope.use(SupervisorNav).tab).toBe('kb');
  expect((await newScope('b')).use(SupervisorNav).tab).toBe('tickets');
});
