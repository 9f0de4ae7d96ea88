import { expect, test } from '@playwright/test';
import type { KbBase } from '../../../src-shared/bridge/supervisor';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as reportModule from '../../../src-renderer/src/features/supervisor/report.svelte';
import type * as kbModule from '../../../src-renderer/src/features/supervisor/kb.svelte';
import type * as appModule from '../../../src-renderer/src/lib/app.svelte';
import type * as explorerModule from '../../../src-renderer/src/features/supervisor/explorer.svelte';

type Report = typeof reportModule;
type Kb = typeof kbModule;
type App = typeof appModule;

test('report: filters reach the service trimmed, a column sorts up then down from the first page, a failed export is said', async () => {
  const bridge = await installFakeBridge({
    'supervisor:report': () => ({ rows: [], total: 0 }) as never,
    'supervisor:reportAll': () => {
      throw new Error('Too many rows to export: narrow the dates.');
    },
  });
  const { ReportStore } = await importRunes<Report>('src-renderer/src/features/supervisor/report.svelte.ts');
  const report = (await newScope()).use(ReportStore);
  report.agentName = '  Ana ';
  report.protocol = '';
  await report.apply();
  await report.go(2);
  expect(report.page).toBe(2);
  await report.sortBy('agentName');
  expect([report.sortColumn, report.direction, report.page]).toEqual(['agentName', 'ASC', 0]);
  await report.sortBy('agentName');
  expect(report.direction).toBe('DESC');
  const last = bridge.calls.filter((c) => c.channel === 'supervisor:report').at(-1)?.input as {
    filter: unknown;
    sortColumn: string;
    direction: string;
    page: number;
  };
  expect(last).toMatchObject({ filter: { agentName: 'Ana' }, sortColumn: 'agentName', direction: 'DESC', page: 0 });

  expect(await report.sheet()).toBeNull();
  expect(report.error).toBe('Too many rows to export: narrow the dates.');
  expect(report.exporting).toBe(false);
});

test('knowledge base: the base name follows the file until the user types one; an upload becomes the base asked; another workspace has bases of its own', async () => {
  const base = (name: string): KbBase =>
    ({ name, url: 'https://files.example/faq.csv', uploadedAt: '2026-11-23T10:00:00Z', state: 'ready', readyAt: null }) as KbBase;
  const bridge = await installFakeBridge({
    'workspace:state': () => ({
      workspaces: [],
      active: 'w-1',
      workspace: { kind: 'remote', baseUrl: 'https://vilaserena.com.br' },
      baseUrl: 'https://vilaserena.com.br',
      signedIn: true,
      tokenRefused: false,
      vault: { state: 'encrypted', detail: '' },
      user: null,
      locale: 'en',
      setAside: [],
    }),
    'supervisor:kbList': () => ({ bases: [] }),
    'supervisor:kbUpload': ({ name }) => base(name),
    'supervisor:kbAsk': ({ question }) => ({ answers: [{ text: `About ${question}`, score: 0.9 }] }),
  });
  const { app } = await importRunes<App>('src-renderer/src/lib/app.svelte.ts');
  await app.load();
  const { KbStore } = await importRunes<Kb>('src-renderer/src/features/supervisor/kb.svelte.ts');
  const kb = (await newScope()).use(KbStore);
  await kb.start();
  kb.setUrl('https://files.example/faq.csv');
  const suggested = kb.name;
  expect(suggested).not.toBe('');
  kb.typeName('my_base_pt');
  kb.setUrl('https://files.example/other.csv');
  expect(kb.name).toBe('my_base_pt');
  kb.typeName('');
  kb.setUrl('https://files.example/faq.csv');
  expect(kb.name).toBe(suggested);

  await kb.upload();
  expect(kb.uploadError).toBeNull();
  expect([kb.bases.map((b) => b.name), kb.askBase]).toEqual([[suggested], suggested]);
  kb.question = 'refund';
  await kb.ask();
  expect(kb.answers).toEqual([{ text: 'About refund', score: 0.9 }]);

  // The main process pushes a base's progress; another workspace's scope has a knowledge-base store of its own.
  bridge.emit('supervisor:kb', { ...base('outra_base_pt'), state: 'indexing' });
  expect(kb.bases.map((b) => b.name)).toEqual(['outra_base_pt', suggested]);
  const other = (await newScope('w-2')).use(KbStore);
  expect([other.bases.length, other.answers, other.name, other.question]).toEqual([0, null, '', '']);
});

type Explorer = typeof explorerModule;

test('explorer: a draft that is not a JSON object never reaches the service; a saved record shows as saved and the page reloads', async () => {
  const bridge = await installFakeBridge({
    'supervisor:explore': () => ({ results: [{ id: 9, name: 'Suporte' }], skipped: 0 }) as never,
    'supervisor:save': ({ record }) => ({ record: { ...record, id: 9 } }),
  });
  const { ExplorerStore } = await importRunes<Explorer>('src-renderer/src/features/supervisor/explorer.svelte.ts');
  const explorer = (await newScope()).use(ExplorerStore);
  explorer.setResource('pauseReason');
  await explorer.search();
  expect(explorer.columns).toEqual(['id', 'name']);

  const notSaved = (why: string) => `Not saved: ${why}`;
  explorer.showAdvanced(true, notSaved);
  explorer.json = '[1, 2]';
  await explorer.save(notSaved, (id) => `Saved ${id}`);
  expect(explorer.saveError).toBe('Not saved: a record is a JSON object { … }');
  explorer.json = '{"name": ';
  await explorer.save(notSaved, (id) => `Saved ${id}`);
  expect(explorer.saveError).toMatch(/^Not saved: /);
  // The form stays shut while the JSON view holds no record.
  explorer.showAdvanced(false, notSaved);
  expect([explorer.advanced, explorer.saveError]).toEqual([true, expect.stringMatching(/^Not saved: /)]);
  expect(bridge.calls.filter((c) => c.channel === 'supervisor:save')).toEqual([]);

  explorer.edit({ name: 'Suporte N2' });
  await explorer.save(notSaved, (id) => `Saved ${id}`);
  expect([explorer.saveError, explorer.saved]).toEqual([null, 'Saved 9']);
  expect(bridge.calls.filter((c) => c.channel === 'supervisor:explore')).toHaveLength(2);
});
