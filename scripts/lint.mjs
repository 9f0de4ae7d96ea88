// npm run lint: every check of the house's rules (package.json lint:* and format:check), each
// run to its end so one pass shows every finding; exits 1 when any of them found something.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const CHECKS = ['lint:code', 'format:check', 'lint:imports', 'lint:dead'];
const root = join(import.meta.dirname, '..');
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
