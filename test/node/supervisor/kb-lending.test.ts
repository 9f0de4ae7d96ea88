import { test, expect } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { startCaptureProxy } from '../../support/capture-proxy';
import { openConsole } from '../../support/console';

/**
 * A file of this computer lent to the service for a knowledge-base upload (interface §4.5 reads
 * a URL): its one-time address is a credential while the loan lasts. The page never sees it,
 * and the loan ends as soon as it is no longer needed.
 */

const FAQ = Buffer.from('P: Vocês entregam aos sábados?\nR: Sim, das 8h às 14h.\n\nP: Parcelam?\nR: Em até 10 vezes.\n').toString('base64');
const UPLOAD = '/transformersapi/1.0/upload_files';

/** The console signed in to the stand-in as its administrator, through a proxy that keeps what the console sent. */
async function lending(body: (o: Awaited<ReturnType<typeof setUp>>) => Promise<void>) {
  const o = await setUp(await startStandin({ port: 0, sessions: 20 }));
  try {
    await body(o);
  } finally {
    await o.c.app.close();
    await o.proxy.close();
    await o.sb.close();
  }
}

async function setUp(sb: Standin) {
  const proxy = await startCaptureProxy(sb.baseUrl);
  const c = await openConsole();
  await c.call('workspace:connect', {
    baseUrl: proxy.url,
    token: sb.tokens.admin,
    userName: sb.demoAgent.userName,
    allowWeakStorage: true,
  });
  await expect.poll(async () => (await c.call('webhooks:status', {})).state).toBe('running');
  /** The address the console gave the service for its last upload. */
  const lentUrl = () => (JSON.parse(proxy.bodiesTo(UPLOAD).at(-1)!) as { url_file: string }).url_file;
  const read = (method: 'GET' | 'HEAD' = 'GET') =>
    fetch(lentUrl(), { method }).then(
      async (r) => (await r.arrayBuffer(), r.status),
      () => 'unreachable' as const,
    );
  return { sb, proxy, c, lentUrl, read };
}

test('the lent address never reaches the page: the list names the file, the service words name it too; the loan ends once the base answers', async () => {
  await lending(async ({ c, lentUrl, read }) => {
    const base = await c.call('supervisor:kbUploadFile', {
      fileName: 'Entregas.txt',
      contentBase64: FAQ,
      name: '127.0.0.1_entregas_data_pt',
    });
    expect(lentUrl()).toMatch(/\/files\/[A-Za-z0-9_-]{43}\/Entregas\.txt$/);
    const token = new URL(lentUrl()).pathname.split('/')[2]!;
    expect(base.url).toBe('Entregas.txt');
    // The stand-in's answer names the address it will read; the page reads the file's name there.
    expect(base.message).toContain('Entregas.txt');
    await expect.poll(async () => (await c.call('supervisor:kbList', {})).bases[0]?.state, { timeout: 30_000 }).toBe('ready');
    const seen = JSON.stringify([await c.call('supervisor:kbList', {}), c.events('supervisor:kb')]);
    expect(seen).not.toContain(token);
    expect(seen).not.toContain('/files/');
    // Read and indexed: the loan is over.
    expect(await read()).toBe(404);
  });
});

test('the loan ends when the upload fails, when it is cancelled by a change of workspace, and at sign-out', async () => {
  test.setTimeout(120_000);
  await lending(async ({ sb, proxy, c, read }) => {
    // Fails: the service refuses the upload; the error does not carry the address either.
    await sb.faults.set([{ match: { path: UPLOAD }, kind: 'status', status: 503 }]);
    const failed = await c.fail('supervisor:kbUploadFile', { fileName: 'a.txt', contentBase64: FAQ, name: '127.0.0.1_a_data_pt' });
    expect(failed.message).not.toContain('/files/');
    expect(await read()).toBe(404);

    // Cancelled: the upload is still waiting on the service when the attendant's workspace changes.
    await sb.faults.set([{ match: { path: UPLOAD }, kind: 'latency', latencyMs: 20_000 }]);
    const pending = c.raw('supervisor:kbUploadFile', { fileName: 'b.txt', contentBase64: FAQ, name: '127.0.0.1_b_data_pt' });
    await expect.poll(() => proxy.bodiesTo(UPLOAD).length).toBe(2);
    expect(await read('HEAD')).toBe(200);
    await c.call('workspace:setUser', { userName: sb.demoAgent.userName });
    // Cancelled after it was sent: whether the service took it is unknown, and the file is no longer lent.
    expect(await pending).toMatchObject({ error: { kind: 'OutcomeUnknown' } });
    await expect.poll(async () => read()).toBe(404);

    // Signed out while the base is still being indexed (the service does not answer questions yet).
    await sb.faults.set([{ match: { path: '/transformersapi/1.0/questions' }, kind: 'status', status: 503 }]);
    const indexing = await c.call('supervisor:kbUploadFile', { fileName: 'c.txt', contentBase64: FAQ, name: '127.0.0.1_c_data_pt' });
    expect(indexing.state).toBe('indexing');
    // Still lent while the base has not answered (the service may read it again).
    expect(await read('HEAD')).toBe(200);
    await c.call('workspace:signOut', {});
    expect(await read()).not.toBe(200);
  });
});
