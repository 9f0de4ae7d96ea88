// `node out/main/host.js`: the console without Electron, served on 127.0.0.1.
import { join } from 'node:path';
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { startHost } from './start-host';

const { values } = parseArgs({
  options: {
    profile: { type: 'string' },
    port: { type: 'string' },
  },
});

const profileDir = values.profile ?? process.env.CONSOLE_PROFILE ?? join(homedir(), '.config', 'agent-console');
const host = await startHost({
  profileDir,
  rendererDir: join(import.meta.dirname, '../renderer'),
  port: values.port ? Number(values.port) : 0,
});

process.stdout.write(
  `\nAgent console is running without Electron.\nOpen this address in Chromium (it carries this launch's secret):\n\n  ${host.url}\n\nProfile: ${profileDir}\nPress Ctrl+C to stop.\n`,
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void host.close().finally(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
