import { join } from 'node:path';
import type { StandinOptions } from '../src-standin/index';

/** The demo workspace's stand-in: its data in the profile, the customer simulator on. */
export const demoStandinOptions = (profileDir: string): StandinOptions => ({
  port: 0,
  dataDir: join(profileDir, 'demo-workspace'),
  simulator: true,
});
