// npm run lint: every check of the house's rules (package.json lint:* and format:check), each
// run to its end so one pass shows every finding; exits 1 when any of them found something.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { enginesNode, olderNodeLine } from './setup.mjs';

const CHECKS = ['lint:code', 'format:check', 'lint:imports', 'lint:dead', 'lint:messages'];
const root = join(import.meta.dirname, '..');
// Its checks run on the Node that runs it (npm's own script, below): never an older one.
const older = olderNodeLine('scripts/lint.mjs', process.versions.node, enginesNode(root));
if (older) {
  console.error(older);
  process.exit(1);
}
// Under `npm run`, npm_execpath is npm's own script: the same npm runs each check.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

const failed = [];
for (const name of CHECKS) {
  console.log(`\n> ${name}`);
  const r = spawnSync(npm[0], [...npm.slice(1), 'run', '--silent', name], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed.push(name);
}
console.log(failed.length ? `\nlint: findings in ${failed.join(', ')}` : '\nlint: no findings');
process.exit(failed.length ? 1 : 0);
