import type { z } from 'zod';
import { coreChannels, coreEvents } from './core';
import { attendanceChannels, attendanceEvents } from './attendance';
import { notesChannels, notesEvents } from './notes';
import { supervisorChannels, supervisorEvents } from './supervisor';
import { voiceChannels, voiceEvents } from './voice';
import { offlineChannels, offlineEvents } from './offline';
import { webhooksChannels, webhooksEvents } from './webhooks';

/**
 * The bridge's channel map: the one contract between the renderer and the main process.
 * Both transports (Electron IPC and the loopback web host) serve exactly these channels, and
 * every input and output is checked against these schemas. Each feature declares its own
 * channels in a file beside this one; they are merged here.
 */
export * from './core';
export { IPC_INVOKE, IPC_EVENT, WEB_BRIDGE_PATH, WEB_EVENTS_PATH } from '../ipc';

export const channels = {
  ...coreChannels,
  ...attendanceChannels,
  ...notesChannels,
  ...supervisorChannels,
  ...voiceChannels,
  ...offlineChannels,
  ...webhooksChannels,
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export type Channels = typeof channels;
export type Channel = keyof Channels;
export type ChannelInput<C extends Channel> = z.input<Channels[C]['input']>;
export type ChannelOutput<C extends Channel> = z.infer<Channels[C]['output']>;
export const CHANNEL_NAMES = Object.keys(channels) as Channel[];

/** Events the main process pushes to the renderer. */
export const events = {
  ...coreEvents,
  ...attendanceEvents,
  ...notesEvents,
  ...supervisorEvents,
  ...voiceEvents,
  ...offlineEvents,
  ...webhooksEvents,
} as const satisfies Record<string, z.ZodType>;
export type BridgeEvents = typeof events;
export type BridgeEvent = keyof BridgeEvents;
export type EventPayload<E extends BridgeEvent> = z.infer<BridgeEvents[E]>;
