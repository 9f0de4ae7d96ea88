import { test, expect } from '@playwright/test';
import { natsMissing } from '../../support/nats';
import { clusterBurst } from '../../support/relay-cluster';
import { tempDirs } from '../../support/temp-dirs';

test.skip(natsMissing() !== null, natsMissing() ?? '');

const tempDir = tempDirs('relay-cluster-');

test('three-node cluster, stream on three replicas: its leader killed with SIGKILL mid-burst and restarted loses nothing and applies nothing twice', async () => {
  test.setTimeout(120_000);
  const r = await clusterBurst({ dir: await tempDir(), events: 2_000, consoles: 3 });
  console.log(`cluster burst: ${JSON.stringify(r)}`);
  expect(r.gaveUp).toBe(0);
  expect(r.lost).toBe(0);
  expect(r.twice).toBe(0);
  // The consoles were on the killed node: they kept applying through the other two while it was down.
  for (const n of r.appliedWhileDown) expect(n).toBeGreaterThan(0);
  expect(r.recoverMs).toBeLessThan(45_000);
  // Back, and caught up: three current replicas.
  expect(r.replicasCurrent).toBe(3);
});
