// The console without Electron, served on 127.0.0.1: what `node out/main/host.js` runs (see cli.ts).
import { join } from 'node:path';
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { startHost, type Host } from './start-host';
import { liveOwner, ProfileInUse } from './profile-lock';
import { PortTaken } from './server';
import { FIRST_VIEW_WITHIN_MS } from '../first-view';
import { errorText } from '../../src-shared/error-text';

/** A launch that cannot go ahead says why in one line and exits non-zero, having touched nothing. */
function refuse(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/**
 * Parses the command line, starts the services and serves the console until a signal stops it.
 * A function, not top-level code: its own module has finished loading before the services' modules
 * (which share chunks with it) are imported.
 */
export async function launch(rendererDir: string): Promise<void> {
  let values: { profile?: string | undefined; port?: string | undefined; check?: boolean | undefined };
  try {
    ({ values } = parseArgs({ options: { profile: { type: 'string' }, port: { type: 'string' }, check: { type: 'boolean' } } }));
  } catch (e) {
    refuse(`${errorText(e)}. Options: --profile DIR --port N`);
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) refuse(`--port needs a port number (0-65535), not "${values.port}".`);

  const profileDir = values.profile ?? process.env.CONSOLE_PROFILE ?? join(homedir(), '.config', 'agent-console');
  // `--check`: only say whether the profile is free (npm start asks before it rebuilds anything).
  if (values.check) {
    const owner = liveOwner(profileDir);
    if (owner) refuse(new ProfileInUse(profileDir, owner).message);
    process.exit(0);
  }
  let host: Host;
  try {
    // The address is printed while a remembered workspace still starts: the page loads meanwhile.
    // ...and what the first view does not need waits for that view.
    host = await startHost({ profileDir, rendererDir, port, serveWhileStarting: true, firstViewWithinMs: FIRST_VIEW_WITHIN_MS });
  } catch (e) {
    if (e instanceof ProfileInUse || e instanceof PortTaken) refuse(e.message);
    throw e;
  }

  process.stdout.write(
    `\nAgent console is running without Electron.\nOpen this address in Chromium (it carries this launch's secret):\n\n  ${host.url}\n\nProfile: ${profileDir}\nPress Ctrl+C to stop.\n`,
  );

  host.ready.catch((e: unknown) => {
    // The page is up but its calls fail with this reason; say it where the user started the console.
    process.stderr.write(`The console could not start its services: ${errorText(e)}\n`);
  });

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void host.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
