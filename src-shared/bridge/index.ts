import type { z } from 'zod';
import { workspaceChannels, workspaceEvents } from './workspace';
import { attendanceChannels, attendanceEvents } from './attendance';
import { historyChannels, historyEvents } from './history';
import { liveChannels, liveEvents } from './live';
import { notesChannels, notesEvents } from './notes';
import { offlineChannels, offlineEvents } from './offline';
import { paletteChannels, paletteEvents } from './palette';
import { supervisorChannels, supervisorEvents } from './supervisor';
import { voiceChannels, voiceEvents } from './voice';
import { webhooksChannels, webhooksEvents } from './webhooks';

/**
 * The bridge's channel map: the one contract between the renderer and the main process.
 * Both transports (Electron IPC and the loopback web host) serve exactly these channels, and
 * every input and output is checked against these schemas. Each feature declares its channels
 * and events in `<feature>.ts` beside this file, every name `<feature>:<name>`; this list is
 * the only place they are joined (a name outside its feature's prefix fails the type check).
 */
export * from './workspace';
export { IPC_INVOKE, IPC_EVENT, WEB_BRIDGE_PATH, WEB_EVENTS_PATH } from '../ipc';

/**
 * A channel: its input and output schemas, and the top-level output fields it hands over on
 * purpose although their names are a secret's (every other secret field is hidden on the way out).
 */
type Spec = { input: z.ZodType; output: z.ZodType; reveals?: readonly string[] };
/** The names of `T` outside the `F:` prefix, spelled out in the type error. */
type Outside<F extends string, T> = Exclude<keyof T, `${F}:${string}`>;
type Prefixed<F extends string, T, V> = [Outside<F, T>] extends [never]
  ? Record<keyof T, V>
  : { [K in Outside<F, T> & string]: `${K} is outside the ${F}: prefix` };
/** Every feature's channels and events under its own prefix, checked by the compiler. */
const slices = <
  T extends {
    [F in keyof T & string]: { channels: Prefixed<F, T[F]['channels'], Spec>; events: Prefixed<F, T[F]['events'], z.ZodType> };
  } & Record<string, { channels: object; events: object }>,
>(
  t: T,
): T => t;

export const features = slices({
  workspace: { channels: workspaceChannels, events: workspaceEvents },
  attendance: { channels: attendanceChannels, events: attendanceEvents },
  history: { channels: historyChannels, events: historyEvents },
  live: { channels: liveChannels, events: liveEvents },
  notes: { channels: notesChannels, events: notesEvents },
  offline: { channels: offlineChannels, events: offlineEvents },
  palette: { channels: paletteChannels, events: paletteEvents },
  supervisor: { channels: supervisorChannels, events: supervisorEvents },
  voice: { channels: voiceChannels, events: voiceEvents },
  webhooks: { channels: webhooksChannels, events: webhooksEvents },
});

export type FeatureName = keyof typeof features;
/** The channel names of one feature, derived from its map (never restated by hand). */

export const channels = {
  ...workspaceChannels,
  ...attendanceChannels,
  ...historyChannels,
  ...liveChannels,
  ...notesChannels,
  ...offlineChannels,
  ...paletteChannels,
  ...supervisorChannels,
  ...voiceChannels,
  ...webhooksChannels,
} as const satisfies Record<string, Spec>;

export type Channels = typeof channels;
export type Channel = keyof Channels;
export type ChannelInput<C extends Channel> = z.input<Channels[C]['input']>;
export type ChannelOutput<C extends Channel> = z.infer<Channels[C]['output']>;
export const CHANNEL_NAMES = Object.keys(channels) as Channel[];
/** The channel names of one feature, derived from the map (never restated by hand). */
export type FeatureChannel<F extends FeatureName> = Extract<Channel, `${F}:${string}`>;

/** Events the main process pushes to the renderer. */
export const events = {
  ...workspaceEvents,
  ...attendanceEvents,
  ...historyEvents,
  ...liveEvents,
  ...notesEvents,
  ...offlineEvents,
  ...paletteEvents,
  ...supervisorEvents,
  ...voiceEvents,
  ...webhooksEvents,
} as const satisfies Record<string, z.ZodType>;
export type BridgeEvent = keyof BridgeEvents;
export type BridgeEvents = typeof events;
export type EventPayload<E extends BridgeEvent> = z.infer<BridgeEvents[E]>;
