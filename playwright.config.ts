import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './test/support/chromium';

export default defineConfig({
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['./test/support/summary-reporter.ts']],
  outputDir: 'test-results',
  projects: [
    { name: 'node', testDir: 'test/node' },
    {
      name: 'web',
      testDir: 'test/web',
      use: { browserName: 'chromium', launchOptions: CHROMIUM_LAUNCH, viewport: { width: 1280, height: 800 } },
    },
    { name: 'electron', testDir: 'test/electron' },
  ],
});
