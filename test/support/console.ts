import { expect } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type ConsoleApp, type PlatformAdapters } from '../../src-main/app';
import { KeyFileCipher } from '../../src-main/vault/node-cipher';
import { createConfStore } from '../../src-main/vault/conf-store';
import { silentLogger } from '../../src-main/log';
import { dispatch } from '../../src-main/bridge/table';
import type { BridgeEvent, Channel, ChannelInput, ChannelOutput, EventPayload } from '../../src-shared/bridge';
import type { ErrorInfo } from '../../src-shared/errors';

/**
 * The console's main process as the renderer sees it: bridge calls through the real handler
 * table (validated in and out) and the events it pushes. No browser, no transport. `platform`:
 * what a platform would hand it besides (the badge, the microphone grant).
 */
export async function openConsole(
  profileDir = mkdtempSync(join(tmpdir(), 'console-main-')),
  platform: Pick<PlatformAdapters, 'badge' | 'microphone' | 'pollPace'> = {},
) {
  const app: ConsoleApp = createApp({
    profileDir,
    cipher: new KeyFileCipher(profileDir),
    openStore: (name, dir) => createConfStore(dir ?? profileDir, name),
    locale: 'en-US',
    log: silentLogger,
    registerSecret: () => undefined,
    ...platform,
  });
  const seen: Array<{ name: string; payload: unknown }> = [];
  app.events.subscribe((name, payload) => seen.push({ name, payload }));
  await app.start();
  const events = <E extends BridgeEvent>(name: E) => seen.filter((e) => e.name === name).map((e) => e.payload as EventPayload<E>);
  return { app, ...bridgeCalls(app), events, profileDir };
}

/** Bridge calls through an app's real handler table, as the renderer makes them. */
export function bridgeCalls(app: Pick<ConsoleApp, 'handlers'>) {
  const raw = <C extends Channel>(channel: C, input: ChannelInput<C>) => dispatch(app.handlers, channel, input);
  const call = async <C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> => {
    const env = await raw(channel, input);
    if ('error' in env) throw new Error(`${channel}: ${env.error.kind}: ${env.error.message}`);
    return env.result as ChannelOutput<C>;
  };
  const fail = async <C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ErrorInfo> => {
    const env = await raw(channel, input);
    if (!('error' in env)) throw new Error(`${channel} succeeded where it should have failed`);
    return env.error;
  };
  return { call, raw, fail };
}

/**
 * Opens the demo workspace through the bridge as the renderer does, stops its customer simulator
 * so the test sets the scene, and picks a session the demo agent attends.
 */
export async function openDemoSession(app: ConsoleApp) {
  const bridge = bridgeCalls(app);
  await bridge.call('workspace:openDemo', {});
  const sb = app.standin!;
  await sb.simulator.stop();
  const sessionId = (await bridge.call('attendance:queue', {})).items.find((i) => i.agentUserName === sb.demoAgent.userName)!.id;
  return { ...bridge, sb, sessionId };
}

/** The console with the demo workspace open, its simulator stopped and its listener running. */
export async function openDemoConsole() {
  const c = await openConsole();
  await c.call('workspace:openDemo', {});
  await c.app.standin!.simulator.stop();
  await expect.poll(async () => (await c.call('webhooks:status', {})).state).toBe('running');
  return { ...c, standin: c.app.standin! };
}
