// The hostile service (test/support/hostile-service.ts) as a process of its own, so that writing
// its endless answers never shares a thread with what a benchmark measures. Prints its address
// and token, then takes one behaviour per line on standard input and answers "ok <behaviour>".
import { createInterface } from 'node:readline';
import { NAMED_BEHAVIOURS, startHostileService } from '../test/support/hostile-service';

type Named = (typeof NAMED_BEHAVIOURS)[number];
const isNamed = (word: string): word is Named => (NAMED_BEHAVIOURS as readonly string[]).includes(word);

const service = await startHostileService();
console.log(`hostile service ${service.baseUrl} ${service.token}`);
for await (const line of createInterface({ input: process.stdin })) {
  const b = line.trim();
  if (!isNamed(b)) {
    console.log(`unknown ${b}`);
    continue;
  }
  service.behave(b);
  console.log(`ok ${b} ${service.requests.length}`);
}
await service.close();
