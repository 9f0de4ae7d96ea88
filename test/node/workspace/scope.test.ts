import { expect, test } from '@playwright/test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AppState, WorkspaceInfo } from '../../../src-shared/bridge';
import type { QueueItem } from '../../../src-shared/bridge/attendance';
import type { KbBase } from '../../../src-shared/bridge/supervisor';
import { importRunes, installFakeBridge } from '../../support/runes';
import type * as appModule from '../../../src-renderer/src/lib/app.svelte';
import type * as scopeModule from '../../../src-renderer/src/lib/scope.svelte';
import type * as queueModule from '../../../src-renderer/src/lib/queue.svelte';
import type * as kbModule from '../../../src-renderer/src/features/supervisor/kb.svelte';
import type * as voiceModule from '../../../src-renderer/src/features/voice/voice.svelte';
import type * as eventLogModule from '../../../src-renderer/src/features/webhooks/event-log.svelte';
import type * as viewEffectModule from '../../support/view-effect.svelte';

type App = typeof appModule;
type ScopeModule = typeof scopeModule;
type Queue = typeof queueModule;
type Kb = typeof kbModule;
type Voice = typeof voiceModule;
type EventLog = typeof eventLogModule;

/**
 * A workspace is a scope in the renderer: it makes its stores, keeps them while another
 * workspace is in front, and throws them all away when it closes; a call never hangs.
 */

const ws = (id: string, userName = 'ana'): WorkspaceInfo => ({
  id,
  workspace: { kind: 'remote', baseUrl: `https://${id}.example` },
  label: `${id}.example`,
  name: null,
  color: 0,
  baseUrl: `https://${id}.example`,
  signedIn: true,
  tokenRefused: false,
  user: { userName, name: userName },
});
const stateOf = (workspaces: WorkspaceInfo[], active: string | null): AppState => {
  const front = workspaces.find((w) => w.id === active) ?? null;
  return {
    workspaces,
    active,
    workspace: front?.workspace ?? null,
    baseUrl: front?.baseUrl ?? null,
    signedIn: front?.signedIn ?? false,
    tokenRefused: false,
    vault: { state: 'encrypted', detail: '' },
    user: front?.user ?? null,
    locale: 'en-US',
    setAside: [],
  };
};
const session = (id: number, agent: string | null): QueueItem => ({
  id,
  status: 'OPEN',
  pending: false,
  agentUserName: agent,
  agentName: agent,
  customerName: `Cliente ${id}`,
  groupId: 1,
  groupName: 'Suporte',
  channel: 'whatsapp',
  createdAt: '2026-11-23T10:00:00Z',
  slaSeconds: 600,
  protocol: `P-${id}`,
  ticketId: null,
  withBot: false,
});
const base = (name: string): KbBase =>
  ({ name, url: 'https://files.example/faq.csv', uploadedAt: '2026-11-23T10:00:00Z', state: 'ready', readyAt: null }) as KbBase;

/** A console with workspaces A and B (A in front), whose transfers answer only when the test says. */
async function console2() {
  let current = stateOf([ws('a'), ws('b')], 'a');
  const held: Array<{ workspaceId: string | null; answer: () => void }> = [];
  const bridge = await installFakeBridge({
    'workspace:state': () => current,
    'workspace:focus': ({ id }) => (current = stateOf(current.workspaces, id)),
    'workspace:signOut': ({ id }) =>
      (current = stateOf(
        current.workspaces.filter((w) => w.id !== id),
        current.active === id ? 'b' : current.active,
      )),
    'attendance:queue': () => ({
      items: [session(7, 'ana')],
      fetchedAt: '2026-11-23T10:10:00Z',
      me: 'ana',
      unreadable: { count: 0, first: null },
      seq: 0,
    }),
    'attendance:transfer': ({ sessionId }) =>
      new Promise<QueueItem>((resolve) =>
        held.push({ workspaceId: bridge.calls.at(-1)!.workspaceId, answer: () => resolve(session(sessionId, 'bruno')) }),
      ),
    'supervisor:kbList': () => ({ bases: [] }),
    'supervisor:kbUpload': ({ name }) => base(name),
    'voice:speak': () => ({ audio: 'UklGRg==', bytes: 4, seconds: 0.1 }),
    'webhooks:log': () => ({ entries: [] }),
    // A read the service never answers.
    'attendance:directory': () => new Promise<never>(() => undefined),
  });
  const { AppStore } = await importRunes<App>('src-renderer/src/lib/app.svelte.ts');
  const { Scopes } = await importRunes<ScopeModule>('src-renderer/src/lib/scope.svelte.ts');
  const app = new AppStore(new Scopes());
  await app.load();
  await expect.poll(() => app.shown?.workspaceId).toBe('a');
  return { app, bridge, held, setState: (s: AppState) => bridge.emit('workspace:state', (current = s)) };
}

test('a call pending when another workspace comes to the front settles in its own workspace, which keeps its state in the back', async () => {
  const { app, held } = await console2();
  const { QueueStore } = await importRunes<Queue>('src-renderer/src/lib/queue.svelte.ts');
  const a = app.shown!;
  const queueA = a.use(QueueStore);
  await queueA.start();
  queueA.bucket = 'mine';
  queueA.select(7);

  // A transfer goes out in A; B comes to the front before the service answers.
  const transfer = queueA.transfer(7, { agentUserName: 'bruno' });
  await expect.poll(() => held.length).toBe(1);
  expect(held[0]!.workspaceId).toBe('a');
  expect(await app.focus('b')).toBe(true);
  await expect.poll(() => app.shown?.workspaceId).toBe('b');
  expect(app.shown!.use(QueueStore)).not.toBe(queueA);

  // The answer settles the call in A (never a promise left hanging), and A's next transfer goes out.
  held[0]!.answer();
  expect(await transfer).toBe(true);
  expect(queueA.item(7)?.agentUserName).toBe('bruno');
  const next = queueA.transfer(7, { agentUserName: 'carla' });
  await expect.poll(() => held.length).toBe(2);
  held[1]!.answer();
  expect(await next).toBe(true);

  // Back to A: the same scope, its place kept.
  expect(await app.focus('a')).toBe(true);
  await expect.poll(() => app.shown).toBe(a);
  expect([a.open, a.use(QueueStore).bucket, a.use(QueueStore).selectedId]).toEqual([true, 'mine', 7]);
});

test('closing a workspace disposes every store its scope made, its listeners stop, and a call still on its way settles with WorkspaceClosed', async () => {
  const { app, bridge, held, setState } = await console2();
  const { WorkspaceClosed } = await importRunes<ScopeModule>('src-renderer/src/lib/scope.svelte.ts');
  const { QueueStore } = await importRunes<Queue>('src-renderer/src/lib/queue.svelte.ts');
  const { KbStore } = await importRunes<Kb>('src-renderer/src/features/supervisor/kb.svelte.ts');
  const { VoiceStore } = await importRunes<Voice>('src-renderer/src/features/voice/voice.svelte.ts');
  const { EventLogStore } = await importRunes<EventLog>('src-renderer/src/features/webhooks/event-log.svelte.ts');
  const revoked: string[] = [];
  const revoke = URL.revokeObjectURL.bind(URL);
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url);
    revoke(url);
  };
  try {
    const a = app.shown!;
    // A's stores, in use: its queue listening, a knowledge base uploaded, speech made, its log read.
    const queue = a.use(QueueStore);
    await queue.start();
    const kb = a.use(KbStore);
    await kb.start();
    kb.typeName('a.example_faq_data_pt');
    kb.setUrl('https://files.example/faq.csv');
    await kb.upload();
    expect(kb.bases.map((b) => b.name)).toEqual(['a.example_faq_data_pt']);
    const voice = a.use(VoiceStore);
    await voice.speak('Bom dia');
    const audio = voice.speech!.url;
    const log = a.use(EventLogStore);
    await log.load();
    const made = a.size;
    expect(made).toBeGreaterThanOrEqual(4);
    const transfer = queue.transfer(7, { agentUserName: 'bruno' });
    await expect.poll(() => held.length).toBe(1);
    let settled: unknown = 'pending';
    const direct = a.invoke('attendance:directory', {});
    bridge.calls.length = 0;

    // A is signed out (from another window): B comes to the front; A's scope closes.
    setState(stateOf([ws('b')], 'b'));
    await expect.poll(() => app.shown?.workspaceId).toBe('b');
    expect([a.open, a.size]).toEqual([false, 0]);
    // Every store it made is gone: the next ask is refused, nothing of A's is made again.
    expect(() => a.use(QueueStore)).toThrow(WorkspaceClosed);
    // What the stores held is let go: the speech's audio is freed.
    expect(revoked).toContain(audio);
    // The calls on their way settle, the views ignore them; the transfer reports it did not finish.
    await direct.then(
      () => (settled = 'answered'),
      (e: unknown) => (settled = e),
    );
    expect(settled).toBeInstanceOf(WorkspaceClosed);
    expect(await transfer).toBe(false);
    held[0]!.answer();
    // A's listeners hear nothing more; B's stores are B's own.
    bridge.emit('attendance:queueDelta', { upsert: [session(9, 'ana')], remove: [], me: 'ana', seq: 1 }, 'a');
    bridge.emit('attendance:queueDelta', { upsert: [session(9, 'ana')], remove: [], me: 'ana', seq: 1 });
    expect(queue.item(9)).toBeUndefined();
    const kbB = app.shown!.use(KbStore);
    await kbB.start();
    expect([kbB.bases.length, kbB.name]).toEqual([0, '']);
    expect(bridge.calls.filter((c) => c.workspaceId === 'a')).toEqual([]);
  } finally {
    URL.revokeObjectURL = revoke;
  }
});

test("seeing a workspace as someone else is a scope of its own: nothing of the first person's voice stays", async () => {
  const { app, setState } = await console2();
  const { VoiceStore } = await importRunes<Voice>('src-renderer/src/features/voice/voice.svelte.ts');
  const ana = app.shown!;
  const voice = ana.use(VoiceStore);
  await voice.open(7);
  voice.transcript = 'O cliente quer trocar o produto';
  await voice.speak('Bom dia');
  expect(voice.speech).not.toBeNull();

  // The same workspace, now signed in as Juliana.
  setState(stateOf([ws('a', 'juliana'), ws('b')], 'a'));
  await expect.poll(() => app.shown !== ana && app.shown?.workspaceId === 'a').toBe(true);
  expect(ana.open).toBe(false);
  const juliana = app.shown!.use(VoiceStore);
  expect([juliana.sessionId, juliana.transcript, juliana.speech, juliana.error]).toEqual([null, '', null, null]);
});

test('a store made while a view showed keeps following its state after that view is gone', async () => {
  await installFakeBridge({
    'attendance:queue': () => ({
      items: [session(7, 'ana'), session(8, null)],
      fetchedAt: '2026-11-23T10:10:00Z',
      me: 'ana',
      unreadable: { count: 0, first: null },
      seq: 0,
    }),
  });
  const { Scope } = await importRunes<ScopeModule>('src-renderer/src/lib/scope.svelte.ts');
  const { QueueStore } = await importRunes<Queue>('src-renderer/src/lib/queue.svelte.ts');
  const { asView } = await importRunes<typeof viewEffectModule>('test/support/view-effect.svelte.ts');
  const scope = new Scope('a');
  // A view asks for the store first (and reads it), then goes.
  let queue!: InstanceType<typeof QueueStore>;
  asView(() => {
    queue = scope.use(QueueStore);
    void queue.visible;
  });
  await queue.start();
  expect(queue.visible.map((s) => s.id)).toEqual([8]);
  queue.bucket = 'mine';
  expect(queue.visible.map((s) => s.id)).toEqual([7]);
  scope.close();
});

test('a store first asked for while a view starts does not keep that view once it has gone', async () => {
  await installFakeBridge({});
  const { Scope } = await importRunes<ScopeModule>('src-renderer/src/lib/scope.svelte.ts');
  const { asComponentView, DoublingStore } = await importRunes<typeof viewEffectModule>('test/support/view-effect.svelte.ts');
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const scope = new Scope('a');
  // What the view holds stands for its elements (held through its props' getters).
  const view = showAndClose((holds) => {
    let store!: InstanceType<typeof DoublingStore>;
    asComponentView(holds, () => (store = scope.use(DoublingStore)));
    return store;
  });
  await new Promise((r) => setImmediate(r));
  gc();
  expect(view.held.deref(), 'the view is gone, and nothing of it is kept').toBeUndefined();
  // The store lives on and still follows its state.
  const store = view.store;
  store.count = 4;
  expect(store.double).toBe(8);
  expect(scope.use(DoublingStore)).toBe(store);
  scope.close();
});

test('a store that fails to make itself says why, and the scope can make it again', async () => {
  await installFakeBridge({});
  const { Scope } = await importRunes<ScopeModule>('src-renderer/src/lib/scope.svelte.ts');
  const { asComponentView } = await importRunes<typeof viewEffectModule>('test/support/view-effect.svelte.ts');
  const scope = new Scope('a');
  let fail = true;
  class Flaky {
    constructor() {
      if (fail) throw new Error('not yet');
    }
  }
  asComponentView(null, () => {
    expect(() => scope.use(Flaky)).toThrow('not yet');
  });
  fail = false;
  expect(scope.use(Flaky)).toBeInstanceOf(Flaky);
  scope.close();
});

/** Shows a view holding a large value, which `setUp` hands to it; the view then goes. */
function showAndClose<T>(setUp: (holds: unknown) => T): { held: WeakRef<object>; store: T } {
  const holds = { elements: new Array(1000).fill('row') };
  return { held: new WeakRef(holds), store: setUp(holds) };
}
