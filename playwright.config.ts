import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './test/support/chromium';
import { SHOWN_MS, WEB_TEST_MS } from './test/support/ready';

export default defineConfig({
  timeout: 60_000,
  expect: { timeout: SHOWN_MS },
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['./test/support/summary-reporter.ts']],
  outputDir: 'test-results',
  projects: [
    { name: 'node', testDir: 'test/node' },
    {
      name: 'web',
      testDir: 'test/web',
      // Each starts the console (and a service) once or more: a busy machine is slow at that.
      timeout: WEB_TEST_MS,
      use: { browserName: 'chromium', launchOptions: CHROMIUM_LAUNCH, viewport: { width: 1280, height: 800 }, actionTimeout: SHOWN_MS },
    },
    { name: 'electron', testDir: 'test/electron' },
  ],
});
