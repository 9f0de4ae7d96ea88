import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type ConsoleApp } from '../../../src-main/app';
import { KeyFileCipher } from '../../../src-main/vault/node-cipher';
import { createConfStore } from '../../../src-main/vault/conf-store';
import { createLogger, type RootLogger } from '../../../src-main/log';
import { dispatch, EventHub, type HandlerTable } from '../../../src-main/bridge/table';
import { AppError } from '../../../src-shared/errors';
import { startHostileService, type Behaviour, type HostileService } from '../../support/hostile-service';

/**
 * No secret in any text the console produces: a service that echoes the Authorization header
 * into its error bodies (401, 403, 400, 5xx, an unreadable 200), a network failure, and the
 * console's own wording carrying the token; every bridge answer and event, and the log, are swept
 * for the token in every form it could take.
 */

let service: HostileService;
let app: ConsoleApp;
let log: RootLogger;
let logFile: string;
/** Every envelope and event that left the main process during the test. */
const left: unknown[] = [];

test.beforeEach(async () => {
  left.length = 0;
  closed = false;
  service = await startHostileService();
  const profileDir = mkdtempSync(join(tmpdir(), 'console-secrets-'));
  logFile = join(profileDir, 'logs', 'console.log');
  log = createLogger({ file: logFile, level: 'debug' });
  app = createApp({
    profileDir,
    cipher: new KeyFileCipher(profileDir),
    openStore: (name, dir) => createConfStore(dir ?? profileDir, name),
    locale: 'en-US',
    log,
    registerSecret: (s) => log.registerSecret(s),
  });
  app.events.subscribe((name, payload) => left.push({ name, payload }));
  await app.start();
});
let closed = false;
/** Stops the console and closes its log (every line written), once. */
async function stop(): Promise<void> {
  if (closed) return;
  closed = true;
  await app.close();
  await log.close();
}
test.afterEach(async () => {
  await stop();
  await service.close();
});

const call = async (channel: string, input: unknown) => {
  const env = await dispatch(app.handlers, channel, input, log);
  left.push(env);
  return env;
};

/** The token as it could appear: whole, a long piece of it, in a URL, base64 in a Basic header. */
const formsOf = (token: string) => [token, token.slice(0, 12), encodeURIComponent(token), Buffer.from(token).toString('base64')];

function sweep(token: string): void {
  const text = JSON.stringify(left);
  for (const form of formsOf(token)) expect(text, `"${form}" crossed the bridge`).not.toContain(form);
  const logged = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  // The log did record the calls: its sweep is not of an empty file.
  expect(logged).toContain('"op":"userSession.list"');
  for (const form of formsOf(token)) expect(logged, `"${form}" reached the log`).not.toContain(form);
}

const CASES: Array<{ name: string; behaviour: Behaviour; says: RegExp }> = [
  { name: '401', behaviour: { echo: 401 }, says: /token \(401\)/ },
  { name: '403', behaviour: { echo: 403 }, says: /\(403\)/ },
  { name: '400 with an ERROR envelope', behaviour: { echo: 400 }, says: /refused to .*Refused the credentials sent/ },
  { name: '500', behaviour: { echo: 500 }, says: /\(500\)/ },
  { name: 'a malformed answer', behaviour: { echo: 200 }, says: /with data the console cannot read/ },
  { name: 'a network failure', behaviour: 'reset', says: /Could not reach/ },
];

for (const c of CASES) {
  test(`${c.name}: the service's answer echoes the token, and no bridge answer, event or log line holds it`, async () => {
    service.behave(c.behaviour);
    const env = await call('workspace:connect', { baseUrl: service.baseUrl, token: service.token, allowWeakStorage: true });
    // The error is said, as the console words it.
    expect(env).toHaveProperty('error');
    const error = (env as { error: { message: string } }).error;
    expect(error.message).toMatch(c.says);
    // The page reads the state after a failed connect, and the log is flushed before it is read.
    await call('workspace:state', {});
    await stop();
    sweep(service.token);
  });
}

test("the console's own wording with the token in it (an error it throws, an internal error, an event) is hidden before it leaves", async () => {
  // The token becomes a secret the console knows the way it always does: a connect that signs in.
  service.behave('good');
  const env = await call('workspace:connect', { baseUrl: service.baseUrl, token: service.token, allowWeakStorage: true });
  expect(env).toHaveProperty('result');
  const token = service.token;
  const planted = {
    'workspace:state': () =>
      Promise.reject(new AppError({ kind: 'Unauthorized', message: `The service refused the token (401). Token used: ${token}` })),
    'workspace:needsMe': () => Promise.reject(new Error(`internal failure while holding Bearer ${token}`)),
  } as unknown as HandlerTable;
  const refused = await dispatch(planted, 'workspace:state', {}, log);
  left.push(refused);
  expect(refused).toEqual({
    error: expect.objectContaining({ kind: 'Unauthorized', message: 'The service refused the token (401). Token used: [hidden]' }),
  });
  const internal = await dispatch(planted, 'workspace:needsMe', {}, log);
  left.push(internal);
  expect(internal).toEqual({ error: expect.objectContaining({ kind: 'Internal' }) });
  // An event whose words carry it (a customer's preview quoting a header, say).
  const hub = new EventHub();
  hub.subscribe((name, payload) => left.push({ name, payload }));
  hub.emit('workspace:customerMessage', { workspaceId: 'w1', sessionId: 1, customerName: 'Ana', preview: `my key is ${token}` });
  expect(left.at(-1)).toEqual({ name: 'workspace:customerMessage', payload: expect.objectContaining({ preview: 'my key is [hidden]' }) });
  await stop();
  sweep(token);
});
