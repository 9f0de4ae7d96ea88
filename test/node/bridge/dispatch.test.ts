import { test, expect } from '@playwright/test';
import { registerIpcBridge, type IpcEventLike } from '../../../src-main/bridge/electron';
import { dispatch, EventHub, type HandlerTable } from '../../../src-main/bridge/table';
import { IPC_EVENT, IPC_INVOKE, type AppState } from '../../../src-shared/bridge';
import { APP_ORIGIN } from '../../../src-shared/ipc';
import { AppError, internalError } from '../../../src-shared/errors';

const state: AppState = {
  workspaces: [],
  active: null,
  workspace: null,
  baseUrl: null,
  signedIn: false,
  tokenRefused: false,
  vault: { state: 'weak', detail: 'x' },
  user: null,
  locale: 'en',
  setAside: [],
};

/** The core channels only: other features' channels are not called here. */
function table(calls: string[]): HandlerTable {
  const core: Partial<HandlerTable> = {
    'workspace:state': async () => {
      calls.push('workspace:state');
      return state;
    },
    'workspace:openDemo': async () => state,
    'workspace:connect': async (input) => {
      calls.push(`connect:${input.baseUrl}`);
      throw new AppError({ kind: 'Unauthorized', message: 'The service refused this token (401).' });
    },
    'workspace:signOut': async () => state,
    'attendance:queue': async () => ({
      items: [],
      fetchedAt: new Date(0).toISOString(),
      me: null,
      unreadable: { count: 0, first: null },
      seq: 0,
    }),
  };
  return core as HandlerTable;
}

function fakeIpc() {
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>>();
  return {
    handlers,
    ipcMain: {
      handle: (c: string, l: (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>) => void handlers.set(c, l),
      removeHandler: (c: string) => void handlers.delete(c),
    },
  };
}

test('IPC calls from the app main frame reach the handler', async () => {
  const calls: string[] = [];
  const { ipcMain, handlers } = fakeIpc();
  registerIpcBridge({ ipcMain, route: () => table(calls), events: new EventHub(), appOrigin: APP_ORIGIN, target: () => null });
  const invoke = handlers.get(IPC_INVOKE)!;
  const answer = await invoke({ senderFrame: { url: 'app://console/index.html', parent: null } }, 'workspace:state', {});
  expect(answer).toEqual({ result: state });
  expect(calls).toEqual(['workspace:state']);
});

test('an IPC call naming its workspace is served by that workspace; a malformed name is refused', async () => {
  const calls: string[] = [];
  const routed: Array<string | null> = [];
  const { ipcMain, handlers } = fakeIpc();
  registerIpcBridge({
    ipcMain,
    route: (ws) => (routed.push(ws), table(calls)),
    events: new EventHub(),
    appOrigin: APP_ORIGIN,
    target: () => null,
  });
  const invoke = handlers.get(IPC_INVOKE)!;
  const frame = { senderFrame: { url: 'app://console/index.html', parent: null } };
  expect(await invoke(frame, 'workspace:state', {}, 'w-1a2b')).toEqual({ result: state });
  expect(await invoke(frame, 'workspace:state', {}, null)).toEqual({ result: state });
  expect(await invoke(frame, 'workspace:state', {}, '../etc')).toMatchObject({ error: { kind: 'Invalid' } });
  expect(routed).toEqual(['w-1a2b', null]);
});

test('IPC calls from a sub-frame or a foreign page are refused before any handler runs', async () => {
  const calls: string[] = [];
  const { ipcMain, handlers } = fakeIpc();
  registerIpcBridge({ ipcMain, route: () => table(calls), events: new EventHub(), appOrigin: APP_ORIGIN, target: () => null });
  const invoke = handlers.get(IPC_INVOKE)!;
  const fromSubFrame = await invoke({ senderFrame: { url: 'app://console/index.html', parent: {} } }, 'workspace:state', {});
  const fromForeign = await invoke({ senderFrame: { url: 'https://evil.example/', parent: null } }, 'workspace:state', {});
  const fromGone = await invoke({ senderFrame: null }, 'workspace:state', {});
  for (const a of [fromSubFrame, fromForeign, fromGone]) expect(a).toMatchObject({ error: { kind: 'Forbidden' } });
  expect(calls).toEqual([]);
});

test('inputs are checked against the channel schema; errors cross as values, never stacks', async () => {
  const calls: string[] = [];
  const t = table(calls);
  expect(await dispatch(t, 'no:such', {})).toMatchObject({ error: { kind: 'Invalid' } });
  expect(await dispatch(t, 'workspace:connect', { baseUrl: 'not a url', token: 'x' })).toMatchObject({
    error: { kind: 'Invalid', field: 'baseUrl' },
  });
  expect(await dispatch(t, 'workspace:state', { extra: 1 })).toMatchObject({ error: { kind: 'Invalid' } });
  const refused = await dispatch(t, 'workspace:connect', { baseUrl: 'http://127.0.0.1:1', token: 'abc' });
  expect(refused).toEqual({ error: { kind: 'Unauthorized', message: 'The service refused this token (401).' } });
  const boom = await dispatch(
    {
      ...t,
      'workspace:state': async () => {
        throw new Error('secret internals at /home/x');
      },
    },
    'workspace:state',
    {},
  );
  expect(JSON.stringify(boom)).not.toContain('/home/x');
  expect(boom).toMatchObject({ error: { kind: 'Internal' } });
  expect(calls).toEqual(['connect:http://127.0.0.1:1']);
});

test('a handler that never answers gives a clear timeout at the deadline, and the next call is served', async () => {
  const t = table([]);
  const warned: unknown[] = [];
  const log = { warn: (m: string, f?: Record<string, unknown>) => warned.push({ m, ...f }), error: () => undefined };
  const hanging = { ...t, 'workspace:state': () => new Promise<never>(() => undefined) };
  const started = performance.now();
  const late = await dispatch(hanging, 'workspace:state', {}, log, { deadlineMs: 80 });
  expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  expect(late).toEqual({
    error: { kind: 'Timeout', message: 'The console did not finish this within 80 ms. It may still complete; try again in a moment.' },
  });
  expect(warned).toEqual([{ m: 'bridge call passed its deadline', channel: 'workspace:state', ms: 80 }]);
  expect(await dispatch(t, 'workspace:state', {}, log, { deadlineMs: 80 })).toHaveProperty('result');
});

test('pushed events are checked and sent to the window', () => {
  const { ipcMain } = fakeIpc();
  const hub = new EventHub();
  const sent: unknown[][] = [];
  registerIpcBridge({
    ipcMain,
    route: () => table([]),
    events: hub,
    appOrigin: APP_ORIGIN,
    target: () => ({ send: (...a: unknown[]) => void sent.push(a), isDestroyed: () => false }),
  });
  hub.emit('workspace:state', state);
  hub.emit('workspace:state', state, 'w-1');
  expect(sent).toEqual([
    [IPC_EVENT, 'workspace:state', state, null],
    [IPC_EVENT, 'workspace:state', state, 'w-1'],
  ]);
  expect(() => hub.emit('workspace:state', { ...state, signedIn: 'yes' } as unknown as AppState)).toThrow();
});

test('a fault inside a handler answers "the details are in the log", and the log has them: the error and its stack, once', async () => {
  const logged: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const log = {
    warn: () => undefined,
    error: (message: string, fields?: Record<string, unknown>) => void logged.push({ message, fields }),
  };
  const faulty = {
    ...table([]),
    'workspace:state': async () => {
      throw new TypeError('cannot read properties of undefined');
    },
    // An internal error already wrapped as an error value, with what caused it.
    'workspace:openDemo': async () => {
      throw new AppError(internalError(), { cause: new RangeError('stack exhausted') });
    },
  } as HandlerTable;
  for (const channel of ['workspace:state', 'workspace:openDemo'] as const) {
    expect(await dispatch(faulty, channel, {}, log)).toEqual({
      error: { kind: 'Internal', reason: 'internal', message: 'Something went wrong inside the console. The details are in the log.' },
    });
  }
  expect(logged.map((l) => [l.message, l.fields?.channel])).toEqual([
    ['internal error', 'workspace:state'],
    ['internal error', 'workspace:openDemo'],
  ]);
  expect(String(logged[0]!.fields?.stack)).toMatch(/^TypeError: cannot read properties of undefined\n\s+at .*dispatch\.test\.ts/);
  expect(String(logged[1]!.fields?.stack)).toContain('Caused by: RangeError: stack exhausted');
  // Refusals and other error values the user can act on are not internal: nothing logged for them.
  await dispatch(faulty, 'workspace:connect', { baseUrl: 'http://127.0.0.1:9', token: 't' }, log);
  expect(logged).toHaveLength(2);
});
