import { test, expect } from '@playwright/test';
import { TICKET } from '../../../src-shared/paths';
import { openConsole, openDemoSession } from '../../support/console';

// The supervisor's ticket lookup falls back to its stored copy when the service does not answer
// (the console's one notion of a network error), and only then.
test('a ticket looked up before is shown from the stored copy when the service cannot be reached', async () => {
  const { app } = await openConsole();
  try {
    const { call, fail, sb } = await openDemoSession(app);
    const fresh = await call('supervisor:ticket', { idOrKey: '4711' });
    expect(fresh.source).toBe('service');

    await sb.faults.set([{ kind: 'reset', match: { path: TICKET } }]);
    const copy = await call('supervisor:ticket', { idOrKey: '4711' });
    expect(copy.source).toBe('cache');
    expect(copy.notice).toBeTruthy();
    expect(copy.id).toBe(fresh.id);
    // No copy of a ticket never looked up: the network error itself is the answer.
    expect((await fail('supervisor:ticket', { idOrKey: '4712' })).kind).toBe('Unavailable');
  } finally {
    await app.close();
  }
});
