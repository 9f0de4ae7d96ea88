import { test, expect } from '@playwright/test';
import { AppError } from '../../../src-shared/errors';
import { ConnectivityMonitor } from '../../../src-main/cache/connectivity';
import { Outbox } from '../../../src-main/outbox/outbox';
import { splitRef } from '../../../src-main/outbox/ref';
import { FakeService } from '../../support/outbox-fake';
import { tempDirs } from '../../support/temp-dirs';

const freshDir = tempDirs('outbox-connectivity-');
let dir: string;
test.beforeEach(async () => {
  dir = await freshDir();
});

// The console has one connectivity: the outbox given the console's monitor holds its notes while
// it says offline, tells it about its own network errors, and never probes on its own.
test('an outbox on the console monitor: its network error turns the console offline, the console probe brings the note through', async () => {
  const svc = new FakeService();
  let consoleProbes = 0;
  const monitor = new ConnectivityMonitor({
    probe: async () => {
      consoleProbes++;
      if (svc.down) throw new AppError({ kind: 'Unavailable', message: 'connection refused' });
    },
    canProbe: () => true,
    backoff: { baseMs: 5, maxMs: 40 },
    idleProbeMs: null,
  });
  monitor.start();
  const box = new Outbox({
    dir,
    transport: svc,
    connectivity: monitor,
    settleMs: 20,
    requestTimeoutMs: 300,
    retry: { baseMs: 5, maxMs: 40 },
  });
  await box.start();

  svc.down = true;
  await box.add(3, 'written while the network is gone');
  await expect.poll(() => monitor.status().state).toBe('offline');
  expect(box.status().connectivity).toBe('offline');
  expect(box.status().reason?.kind).toBe('Unavailable');
  await expect.poll(() => consoleProbes).toBeGreaterThan(1);
  // Offline, a note written now waits rather than being tried.
  const savesWhileOffline = svc.calls.filter((c) => c.op === 'save').length;
  await box.add(3, 'and a second one');
  // Two more console probes take long enough for a send to have been tried, had it been.
  const probesSoFar = consoleProbes;
  await expect.poll(() => consoleProbes).toBeGreaterThan(probesSoFar + 1);
  expect(svc.calls.filter((c) => c.op === 'save').length).toBe(savesWhileOffline);

  svc.down = false;
  await expect.poll(() => box.outstanding).toBe(0);
  expect(monitor.status().state).toBe('online');
  expect(box.status().connectivity).toBe('online');
  expect(svc.savedTexts(3).map((c) => splitRef(c).text)).toEqual(['written while the network is gone', 'and a second one']);
  expect(svc.calls.filter((c) => c.op === 'probe')).toEqual([]);
  await box.stop();
  monitor.stop();
});
