export { startWebhookListener, newPathSecret, newSigningSecret } from './listener';
export type { WebhookListener, WebhookListenerOptions, WebhookStats } from './listener';
export { checkHead, checkRequest } from './check-request';
export { FileShare } from './file-share';
export type { LentFile } from './file-share';
export type { Verdict, RequestFacts, CheckContext } from './check-request';
export {
  startTunnel,
  detectTunnels,
  buildTunnelCommand,
  parseCommandLine,
  findPublicUrl,
  findOnPath,
  fillUrlTemplate,
  installHint,
  TUNNEL_PROGRAMS,
} from './tunnel';
export type { TunnelCommand, TunnelOptions, TunnelProvider, TunnelRunner, TunnelState } from './tunnel';
export { superviseTunnel } from './tunnel-supervisor';
export type { SupervisedTunnelState, SupervisorOptions, TunnelSupervisor } from './tunnel-supervisor';
export { checkThroughTunnel } from './tunnel-check';
export type { ReceivedEvent, EventLogEntry, EventLogFilter, SignatureState, WebhookLogger } from './types';
