import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectToService } from '../../support/web';
import { launchHost, usedConsoleProfile } from '../../support/host';
import { startStandin } from '../../../src-standin/index';

/**
 * A workspace's settings file turned unreadable between two runs: the console starts, the
 * workspace opens signed in, and the page says in one line what was set aside and where it is.
 */
test("a workspace's unreadable settings file is set aside, said in one line, and the console works", async ({ page }) => {
  const sb = await startStandin({ port: 0 });
  try {
    const profile = await usedConsoleProfile(page, async (p, host) => {
      await p.goto(host.url);
      await connectToService(p, { baseUrl: sb.baseUrl, token: sb.tokens.agent });
      await expect(p.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
    });
    const [id] = readdirSync(join(profile, 'workspaces'));
    const file = join(profile, 'workspaces', id!, 'settings.json');
    expect(existsSync(file)).toBe(true);
    writeFileSync(file, '{{{');

    const host = await launchHost(profile);
    try {
      await page.goto(host.url);
      const notice = page.getByRole('status').filter({ hasText: 'could not read' });
      await expect(notice).toHaveCount(1);
      await expect(notice).toHaveText(
        new RegExp(
          `^The console could not read workspaces/${id}/settings\\.json and set it aside as workspaces/${id}/settings\\.json\\.unreadable-[0-9TZ.-]+; it started without it\\.$`,
        ),
      );
      const keptAs = /as (\S+);/.exec((await notice.textContent())!)![1]!;
      expect(existsSync(join(profile, keptAs))).toBe(true);
      // The workspace still works: signed in, its queue read from the service.
      await expect(page.getByRole('tablist', { name: 'Sessions' })).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
    } finally {
      await host.close();
    }
  } finally {
    await sb.close();
  }
});
