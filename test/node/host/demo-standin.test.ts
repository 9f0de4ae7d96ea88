import { test, expect } from '@playwright/test';
import { DemoStandin } from '../../../src-main/demo-standin';
import type { Logger } from '../../../src-main/log';
import { takePort } from '../../support/port-taker';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('demo-standin-');

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, error() {}, warn: (message) => void warnings.push(message) };
}

const portOf = (address: string): number => Number(new URL(address).port);

test('the demo service starts where the workspace was told it would answer, whether the system shares the kept port or not', async () => {
  for (const sharePort of [true, false]) {
    const log = recordingLog();
    const demo = new DemoStandin(await tempDir(), log, { sharePort });
    try {
      const address = await demo.address();
      expect(portOf(address)).toBeGreaterThan(0);
      const sb = await demo.ensure();
      expect(sb.baseUrl).toBe(address);
      expect(await demo.address()).toBe(address);
      expect(log.warnings).toEqual([]);
    } finally {
      await demo.stop();
    }
  }
});

test('without port sharing, a port another program took meanwhile moves the demo service to another one, and the log says so', async () => {
  const log = recordingLog();
  const demo = new DemoStandin(await tempDir(), log, { sharePort: false });
  const address = await demo.address();
  const taker = await takePort(portOf(address));
  try {
    const sb = await demo.ensure();
    expect(sb.baseUrl).not.toBe(address);
    expect(await demo.address()).toBe(sb.baseUrl);
    expect(log.warnings).toEqual(['demo workspace moved to another port']);
  } finally {
    await demo.stop();
    await taker.close();
  }
});
