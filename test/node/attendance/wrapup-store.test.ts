import { expect, test } from '@playwright/test';
import type { ClassNode } from '../../../src-shared/bridge/attendance';
import { importRunes, installFakeBridge, newScope } from '../../support/runes';
import type * as wrapupModule from '../../../src-renderer/src/features/attendance/wrapup.svelte';

type WrapUp = typeof wrapupModule;

const tree: ClassNode[] = [
  {
    id: 1,
    label: 'Financeiro',
    children: [
      { id: 11, label: 'Reembolso', children: [] },
      { id: 12, label: 'Cobrança indevida', children: [] },
    ],
  },
  { id: 2, label: 'Técnico', children: [{ id: 21, label: 'Conexão', children: [] }] },
];

test('a mandatory classification is chosen by search and keyboard before the close is sent, with the comment and the kept summary', async () => {
  const bridge = await installFakeBridge({
    'attendance:classificationTree': () => ({ mandatory: true, roots: tree }),
    'attendance:summary': () => ({ text: 'Cliente pediu reembolso de R$ 2.082,30.' }),
    'attendance:close': ({ sessionId }) => ({ id: sessionId, status: 'CLOSED' }) as never,
  });
  const { WrapUpStore } = await importRunes<WrapUp>('src-renderer/src/features/attendance/wrapup.svelte.ts');
  const wrapup = (await newScope()).use(WrapUpStore);
  await wrapup.start(7);
  expect(wrapup.canClose).toBe(false);
  expect(await wrapup.close()).toBeNull();
  expect(bridge.calls.filter((c) => c.channel === 'attendance:close')).toEqual([]);

  // Accents do not matter to the search; the keyboard moves within what is shown.
  wrapup.search = 'cobranca';
  expect(wrapup.shown.map((f) => f.node.label)).toEqual(['Cobrança indevida']);
  wrapup.search = 'financeiro';
  wrapup.move(1);
  wrapup.move(5);
  wrapup.choose();
  expect(wrapup.chosenLabels).toEqual(['Financeiro', 'Cobrança indevida']);
  expect(wrapup.canClose).toBe(true);

  await wrapup.summarise();
  expect(wrapup.keepSummary).toBe(false);
  wrapup.keepSummary = true;
  wrapup.comment = '  devolvido  ';
  expect((await wrapup.close())?.status).toBe('CLOSED');
  expect(bridge.calls.find((c) => c.channel === 'attendance:close')?.input).toEqual({
    sessionId: 7,
    classification: [1, 12],
    comment: 'devolvido',
    summaryNote: 'Cliente pediu reembolso de R$ 2.082,30.',
  });
  expect(wrapup.open).toBe(false);
});

test('a summary the attendant does not keep is not saved as a note', async () => {
  const bridge = await installFakeBridge({
    'attendance:classificationTree': () => ({ mandatory: false, roots: tree }),
    'attendance:summary': () => ({ text: 'Resumo' }),
    'attendance:close': ({ sessionId }) => ({ id: sessionId, status: 'CLOSED' }) as never,
  });
  const { WrapUpStore } = await importRunes<WrapUp>('src-renderer/src/features/attendance/wrapup.svelte.ts');
  const wrapup = (await newScope()).use(WrapUpStore);
  await wrapup.start(8);
  await wrapup.summarise();
  await wrapup.close();
  expect(bridge.calls.find((c) => c.channel === 'attendance:close')?.input).toEqual({ sessionId: 8 });
  wrapup.suspend();
  expect(wrapup.open).toBe(false);
});
