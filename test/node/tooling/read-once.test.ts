import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../support/root';

/**
 * The service is read once (src-shared/schemas/README.md): an id, a number, a date or a boolean of
 * a service record is parsed by the concept readers (src-shared/concepts.ts) and the schema
 * builders made of them (src-shared/schemas/common.ts), nowhere else. This holds the rule for
 * `src-shared/schemas` and `src-main`: each pattern below parses such a value, and a file using one
 * must be the layer itself or listed here with what it parses instead (its own files, HTTP headers).
 */

const PARSERS: Array<[RegExp, string]> = [
  [/\bDate\.parse\(/, 'parses a date'],
  [/\bnew Date\(\s*[\w$#]+\.[\w$#.?]+\s*\)/, 'parses a field as a date'],
  [/\b(Number|parseInt|parseFloat)\(/, 'parses a number'],
  [/\bNumber\.is(Safe)?Integer\(/, 'tells an integer apart'],
  [/typeof [^;)]+?===? '(number|boolean)'/, 'tells a number or a boolean apart'],
  [/\bz\.(number|boolean|coerce|iso)\b/, 'declares a number, a boolean or a date outside the builders'],
  [/\.datetime\(/, 'declares a date outside the builders'],
];

/** The layer: where these patterns belong. */
const LAYER = new Set(['src-shared/concepts.ts', 'src-shared/schemas/common.ts']);

/** Files that parse what is not a service record: the console's own files and the HTTP layer. */
const NOT_SERVICE_RECORDS: Record<string, string> = {
  'src-main/settings.ts': 'the settings file the console writes',
  'src-main/cache/offline-cache.ts': 'the offline copies the console writes',
  'src-main/features/attendance/activity.ts': 'the activity file the console writes',
  'src-main/features/attendance/snooze.ts': 'the snooze file the console writes (its own times, its own ids)',
  'src-main/service/errors.ts': 'the Retry-After header (HTTP), not a record',
  'src-main/service/transport.ts': 'the Content-Length header (HTTP), not a record',
  'src-main/service/service-time.ts': "the Date header (HTTP) and the console's own instants; record times are read by wallClockOf",
  'src-main/sync/engine.ts': 'compares stamps the concept readers made instants already',
  'src-main/features/live/index.ts': "the stand-in's own hook registration and log fields",
  'src-main/features/live/listener-tally.ts': "the listener's own log fields (a refusal's reason and status)",
  'src-main/features/voice/wav.ts': 'audio bytes',
  'src-main/log.ts': 'its own log lines',
};
/** Folders of the console's own files (journals, profiles, the loopback host, the vault). */
const OWN_FOLDERS = [
  'src-main/outbox/',
  'src-main/webhooks/',
  'src-main/host/',
  'src-main/vault/',
  'src-main/security/',
  'src-main/bridge/',
  // The team relay: its command line, its own state file and the NATS address it is given.
  'src-main/relay/',
];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...sources(rel));
    else if (name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/** Each use of a pattern outside the layer and the listed files, as `file:line: why`. */
export function parsingOutsideTheLayer(files: readonly string[], read: (file: string) => string): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (LAYER.has(file) || file in NOT_SERVICE_RECORDS || OWN_FOLDERS.some((f) => file.startsWith(f))) continue;
    read(file)
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        for (const [pattern, why] of PARSERS) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${why}: ${line.trim()}`);
      });
  }
  return found;
}

/** The layer and what reads service answers: the schemas, the page and error envelopes, and the main process. */
const files = ['src-shared/concepts.ts', 'src-shared/envelopes.ts', ...sources('src-shared/schemas'), ...sources('src-main')];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

test('nothing in src-shared/schemas and src-main parses an id, a number, a date or a boolean outside the concept layer', () => {
  expect(files.length).toBeGreaterThan(50);
  for (const listed of [...Object.keys(NOT_SERVICE_RECORDS), ...LAYER]) expect(files, `${listed} exists`).toContain(listed);
  expect(parsingOutsideTheLayer(files, read)).toEqual([]);
});

test('the check finds a field parsed past the concept layer', () => {
  // What the rule exists for: a projection reading a service field with its own parser.
  const planted: Record<string, string> = {
    'src-main/features/attendance/project.ts': "  const sla = typeof group.sla === 'number' ? group.sla : null;",
    'src-main/queue.ts': '  const at = Date.parse(session.createdAt);',
    'src-shared/schemas/group.ts': '    sla: z.number().int().nullable().optional().catch(undefined),',
    'src-main/features/supervisor/views.ts': '  const id = Number(t.id);',
  };
  const found = parsingOutsideTheLayer(Object.keys(planted), (f) => planted[f]!);
  expect(found.map((f) => f.slice(0, f.indexOf(':')))).toEqual(Object.keys(planted));
});
