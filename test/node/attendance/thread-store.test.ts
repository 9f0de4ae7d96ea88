import { expect, test } from '@playwright/test';
import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { importRunes, installFakeBridge, Refusal, newScope } from '../../support/runes';
import type * as threadModule from '../../../src-renderer/src/features/attendance/thread.svelte';
import type * as composerModule from '../../../src-renderer/src/features/attendance/composer.svelte';

type Thread = typeof threadModule;

const msg = (id: number, text: string, fromCustomer: boolean, minute: number): ThreadMessage => ({
  id,
  sessionId: 7,
  text,
  caption: null,
  contentType: 'text',
  createdAt: `2026-11-23T10:${String(minute).padStart(2, '0')}:00Z`,
  fromCustomer,
  author: fromCustomer ? 'customer' : 'agent',
  sender: null,
  sentiment: null,
  bySupervisor: false,
  failed: false,
});

test("a reply shows at once, becomes the service's message when sent, and a failure keeps it with the reason; a retry reuses its client id", async () => {
  const outcomes: Array<'ok' | 'down' | 'lost'> = ['ok', 'down', 'lost', 'ok'];
  const drafts = new Map<number, string>();
  let nextId = 100;
  const bridge = await installFakeBridge({
    'attendance:openThread': () =>
      ({
        detail: null,
        fetchedAt: '2026-11-23T10:10:00Z',
        offline: false,
        page: { messages: [msg(2, 'Oi, tudo bem?', false, 2), msg(1, 'Quero reembolso', true, 1)], hasMore: false, page: 0, skipped: 0 },
      }) as never,
    'attendance:send': ({ text }) => {
      const o = outcomes.shift();
      if (o === 'down') throw new Refusal('Unavailable', 'The service cannot be reached.');
      if (o === 'lost') throw new Refusal('OutcomeUnknown', 'Could not confirm whether it was sent.');
      return { ...msg(nextId++, text, false, 5) };
    },
    'notes:draft': ({ sessionId }) => ({ reply: drafts.get(sessionId) ?? '', note: '' }),
    'notes:setDraft': ({ sessionId, text }) => (drafts.set(sessionId, text), { ok: true }),
    'attendance:closeThread': () => ({ ok: true }),
  });
  const { ThreadStore } = await importRunes<Thread>('src-renderer/src/features/attendance/thread.svelte.ts');
  const thread = (await newScope()).use(ThreadStore);
  await thread.open(7);
  expect(thread.rows.map((r) => r.message.text)).toEqual(['Quero reembolso', 'Oi, tudo bem?']);

  expect(await thread.send('Aprovado')).toBe(true);
  expect(thread.rows.at(-1)).toMatchObject({ key: 'm100', send: { state: 'sent' } });

  expect(await thread.send('Segue o boleto')).toBe(false);
  const failed = thread.rows.at(-1)!;
  expect(failed.send).toMatchObject({ state: 'failed', kept: true });
  // The reason is kept as a wording: words in the interface language when shown.
  expect(failed.send?.state === 'failed' ? failed.send.error?.() : null).toBe('The service cannot be reached.');
  // Not lost: the reply is back in the session's saved draft.
  await expect.poll(() => drafts.get(7)).toBe('Segue o boleto');

  expect(await thread.retry(failed)).toBe(false);
  const lost = thread.rows.at(-1)!;
  expect(lost.send?.state).toBe('unconfirmed');
  expect(await thread.retry(lost)).toBe(true);
  const sends = bridge.calls.filter((c) => c.channel === 'attendance:send').map((c) => c.input as { clientId: string });
  expect(sends).toHaveLength(4);
  expect(new Set(sends.slice(1).map((s) => s.clientId)).size).toBe(1);
  expect(thread.messages.map((m) => m.text)).toEqual(['Quero reembolso', 'Oi, tudo bem?', 'Aprovado', 'Segue o boleto']);
  thread.suspend();
  expect(thread.rows).toEqual([]);
});

test('a thread read again (the service is back) keeps a reply that failed, with its warning, until it is sent', async () => {
  let down = true;
  await installFakeBridge({
    'attendance:openThread': () =>
      ({
        detail: null,
        fetchedAt: '2026-11-23T10:10:00Z',
        offline: false,
        page: { messages: [msg(1, 'Quero reembolso', true, 1)], hasMore: false, page: 0, skipped: 0 },
      }) as never,
    'attendance:send': ({ text }) => {
      if (down) throw new Refusal('Unavailable', 'The service cannot be reached.');
      return { ...msg(200, text, false, 5) };
    },
    'notes:draft': () => ({ reply: '', note: '' }),
    'notes:setDraft': () => ({ ok: true }),
    'attendance:closeThread': () => ({ ok: true }),
  });
  const { ThreadStore } = await importRunes<Thread>('src-renderer/src/features/attendance/thread.svelte.ts');
  const thread = (await newScope()).use(ThreadStore);
  await thread.open(7);
  expect(await thread.send('Segue o boleto')).toBe(false);

  // Read again on the same session: the failed reply is still shown as not sent.
  await thread.open(7);
  expect(thread.rows.map((r) => [r.message.text, r.send?.state ?? null])).toEqual([
    ['Quero reembolso', null],
    ['Segue o boleto', 'failed'],
  ]);
  // Sent once the service answers: then, and only then, the warning goes.
  down = false;
  expect(await thread.retry(thread.failedWith('Segue o boleto')!)).toBe(true);
  expect(thread.rows.map((r) => r.send?.state ?? null)).toEqual([null, 'sent']);
  // Another session opened: its thread starts without this one's replies.
  await thread.open(8);
  expect(thread.rows.some((r) => r.send)).toBe(false);
});

test("the 24-hour window follows the thread: a customer's message arriving opens it at once, in the order of time, not of arrival; the help is read again", async () => {
  const now = Date.now();
  const at = (ms: number) => new Date(ms).toISOString();
  const old: ThreadMessage = { ...msg(1, 'Oi', true, 0), createdAt: at(now - 30 * 3600 * 1000) };
  let helpReads = 0;
  const bridge = await installFakeBridge({
    'attendance:openThread': () =>
      ({
        detail: { item: { id: 7, channel: 'chatApp' }, customer: { name: 'Bia' }, needsTemplate: true, classification: null },
        fetchedAt: at(now),
        offline: false,
        page: { messages: [old], hasMore: false, page: 0, unreadable: { count: 0, first: null } },
      }) as never,
    'attendance:help': () => (helpReads++, { canned: [], suggestions: [], templates: [], failed: [] }),
    'notes:draft': () => ({ reply: '', note: '' }),
    'attendance:closeThread': () => ({ ok: true }),
  });
  const { ThreadStore } = await importRunes<Thread>('src-renderer/src/features/attendance/thread.svelte.ts');
  const { ComposerStore } = await importRunes<typeof composerModule>('src-renderer/src/features/attendance/composer.svelte.ts');
  const scope = await newScope();
  const thread = scope.use(ThreadStore);
  const composer = scope.use(ComposerStore);
  await thread.open(7);
  await composer.open(7);
  expect(thread.needsTemplate).toBe(true);
  expect(helpReads).toBe(1);

  // An attendant's line does not open it; an older customer line arriving late does not either.
  bridge.emit('attendance:messages', { sessionId: 7, messages: [{ ...msg(2, 'Olá', false, 0), createdAt: at(now - 60_000) }] });
  bridge.emit('attendance:messages', { sessionId: 7, messages: [{ ...msg(9, 'Antes', true, 0), createdAt: at(now - 40 * 3600 * 1000) }] });
  expect(thread.needsTemplate).toBe(true);
  // The customer writes now (a smaller id than the late one: time decides, not the id).
  bridge.emit('attendance:messages', { sessionId: 7, messages: [{ ...msg(3, 'Ainda preciso', true, 0), createdAt: at(now - 1000) }] });
  expect(thread.needsTemplate).toBe(false);
  await expect.poll(() => helpReads).toBe(3);
});
