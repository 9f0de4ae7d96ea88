/**
 * `npm run standin -- [--port N] [--data-dir DIR] [--sessions N] [--simulator] [--reading default|variant|local-time|any-order] [--zone IANA] [--json]`
 * The reading may also come from STANDIN_READING (the flag wins), so a whole test run can switch it;
 * the local-time reading's zone from STANDIN_ZONE or `--zone`.
 */
import { startStandin, type StandinOptions } from './index';
import { ALL_READINGS, type ReadingName } from './reading';

function readingOf(v: string, from: string): ReadingName {
  const hit = ALL_READINGS.find((r) => r === v);
  if (!hit) throw new Error(`${from} must be one of ${ALL_READINGS.join(', ')} (got "${v}")`);
  return hit;
}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): { opts: StandinOptions; json: boolean } {
  const opts: StandinOptions = {};
  if (env.STANDIN_READING) opts.reading = readingOf(env.STANDIN_READING, 'STANDIN_READING');
  if (env.STANDIN_ZONE) opts.zone = env.STANDIN_ZONE;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const int = (): number => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) throw new Error(`${arg} needs a whole number`);
      return n;
    };
    switch (arg) {
      case '--port':
        opts.port = int();
        break;
      case '--data-dir':
        opts.dataDir = value();
        break;
      case '--sessions':
        opts.sessions = int();
        break;
      case '--seed':
        opts.seed = int();
        break;
      case '--simulator':
        opts.simulator = true;
        break;
      case '--reading':
        opts.reading = readingOf(value(), '--reading');
        break;
      case '--zone':
        opts.zone = value();
        break;
      case '--json':
        json = true;
        break;
      default:
        throw new Error(
          `Unknown flag ${arg}. Flags: --port N --data-dir DIR --sessions N --seed N --simulator --reading default|variant|local-time|any-order --zone IANA --json`,
        );
    }
  }
  return { opts, json };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(process.argv.slice(2), process.env);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const standin = await startStandin(parsed.opts);
  const { baseUrl, tokens, demoAgent } = standin;
  if (parsed.json) {
    process.stdout.write(`${JSON.stringify({ baseUrl, tokens, demoAgent })}\n`);
  } else {
    console.log(`Service stand-in listening on ${baseUrl}`);
    console.log(`  agent token      ${tokens.agent}  (${demoAgent.name}, ${demoAgent.userName})`);
    console.log(`  supervisor token ${tokens.supervisor}`);
    console.log(`  admin token      ${tokens.admin}`);
    console.log(`Reading: ${parsed.opts.reading ?? 'default'}`);
    console.log(parsed.opts.simulator ? 'Customer simulator: on' : 'Customer simulator: off (--simulator turns it on)');
  }
  const stop = (): void => {
    void standin.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
