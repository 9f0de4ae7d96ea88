import { test, expect } from '@playwright/test';
import { startStandin } from '../../../src-standin/index';
import { createServiceClient } from '../../../src-main/service/index';
import { DirectoryCache } from '../../../src-main/features/attendance/directory';
import { GroupRegistry } from '../../../src-main/features/attendance/groups';
import type { FeatureContext } from '../../../src-main/features/context';

/**
 * The groups a transfer offers are every group of the service, found one lookup at a time (the
 * interface lists none). Asked twice at once (the desk starting while a view asks for the same
 * directory), both answers hold every group: two lookups side by side used to find each other's
 * groups and stop early, and a transfer dialog offered one group.
 */
for (const reading of ['default', 'variant'] as const) {
  test(`two directory reads at once both list every group (${reading} reading)`, async () => {
    const sb = await startStandin({ port: 0, ...(reading === 'variant' ? { reading } : {}) });
    const client = createServiceClient({ baseUrl: sb.baseUrl, getToken: async () => sb.tokens.agent });
    try {
      // What the service holds, read on its own: each group by its id, until none is left.
      const names: string[] = [];
      for (let id = 1; id <= 50; id++) {
        const res = await fetch(`${sb.baseUrl}/chatapi/1.0/api/v2/groups/unique`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sb.tokens.agent}`, 'content-type': 'application/json' },
          body: JSON.stringify({ conditions: [{ key: 'id', operator: 'EQNUM', value: String(id) }], sort: false }),
        });
        if (res.status === 404) continue;
        names.push(String(((await res.json()) as { name: unknown }).name));
      }
      expect(names.length, 'the stand-in holds several groups').toBeGreaterThan(2);

      const ctx = { client: () => client, me: () => ({ userName: sb.demoAgent.userName }) } as unknown as FeatureContext;
      const directory = new DirectoryCache(ctx, new GroupRegistry());
      const [a, b] = await Promise.all([directory.groups(), directory.groups()]);
      const sorted = [...names].sort((x, y) => x.localeCompare(y));
      expect(a.map((g) => g.name)).toEqual(sorted);
      expect(b.map((g) => g.name)).toEqual(sorted);
    } finally {
      await client.close();
      await sb.close();
    }
  });
}
