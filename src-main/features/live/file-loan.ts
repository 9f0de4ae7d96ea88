import { AppError } from '../../../src-shared/errors';

/** A service at one of these hosts runs on this computer and can read the listener directly. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Where the service can read what the listener serves: the tunnel's origin while one is live,
 * else the listener itself when the service runs on this computer; null when it cannot.
 */
export function fileOrigin(o: {
  publicUrl: string | null;
  listenerPath: string;
  listenerPort: number;
  serviceBaseUrl: string;
}): string | null {
  if (o.publicUrl) return o.publicUrl.endsWith(o.listenerPath) ? o.publicUrl.slice(0, -o.listenerPath.length) : new URL(o.publicUrl).origin;
  const host = new URL(o.serviceBaseUrl).hostname.replace(/^\[|\]$/g, '');
  return LOOPBACK_HOSTS.has(host) ? `http://127.0.0.1:${o.listenerPort}` : null;
}

/** Why the console cannot lend a file now (LiveFeature `lendProblem`). */
export type LendProblem = 'relay' | 'listenerOff' | 'noPublicAddress';

/** Why a file cannot be lent, in words that say what to set up. */
export function lendError(problem: LendProblem): AppError {
  switch (problem) {
    case 'relay':
      return new AppError({
        kind: 'Unavailable',
        message:
          "A file from this computer is handed to the service by this computer's listener, and this workspace takes its live events elsewhere (Settings, Developer / integration, Live source). Give a link to the file instead.",
      });
    case 'listenerOff':
      return new AppError({
        kind: 'Unavailable',
        message:
          "A file from this computer is handed to the service by the live-updates listener, which is not running (or this workspace polls only). Turn live updates on with this computer's listener in the settings, or give a link to the file.",
      });
    case 'noPublicAddress':
      return new AppError({
        kind: 'Invalid',
        field: 'file',
        message:
          'The service reads the file from a public address, and this console has none yet: start the tunnel (Settings, Developer / integration), or give a link to the file.',
      });
  }
}
