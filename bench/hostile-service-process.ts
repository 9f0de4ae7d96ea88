// The hostile service (test/support/hostile-service.ts) as a process of its own, so that writing
// its endless answers never shares a thread with what a benchmark measures. Prints its address
// and token, then takes one behaviour per line on standard input and answers "ok <behaviour>".
import { createInterface } from 'node:readline';
import { startHostileService, type Behaviour } from '../test/support/hostile-service';

const NAMED: ReadonlySet<string> = new Set([
  'good',
  'endless',
  'huge',
  'huge-announced',
  'deep',
  'unreadable',
  'error-page',
  'redirect',
  'silent',
]);

const service = await startHostileService();
console.log(`hostile service ${service.baseUrl} ${service.token}`);
for await (const line of createInterface({ input: process.stdin })) {
  const b = line.trim();
  if (!NAMED.has(b)) {
    console.log(`unknown ${b}`);
    continue;
  }
  service.behave(b as Behaviour);
  console.log(`ok ${b} ${service.requests.length}`);
}
await service.close();
