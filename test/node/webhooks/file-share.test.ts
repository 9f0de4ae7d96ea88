import { test, expect } from '@playwright/test';
import { request } from 'undici';
import { startWebhookListener } from '../../../src-main/webhooks/listener';
import { FileShare } from '../../../src-main/webhooks/file-share';
import { fileOrigin } from '../../../src-main/features/live/index';
import { tempDirs } from '../../support/temp-dirs';

const stateDir = tempDirs('file-share-test-');

test('a lent file is readable at its one-time path a few times, then gone; other types, tokens and expiry are refused', () => {
  let now = 1_000_000;
  const share = new FileShare({ ttlMs: 60_000, maxDownloads: 2, maxFiles: 2, now: () => now });
  const path = share.offer('Perguntas frequentes.csv', Buffer.from('p;r\n'));
  expect(path).toMatch(/^\/files\/[A-Za-z0-9_-]{43}\/Perguntas%20frequentes\.csv$/);
  expect(share.take(path)).toMatchObject({ name: 'Perguntas frequentes.csv', type: 'text/csv; charset=utf-8' });
  expect(share.take(path)?.bytes.toString()).toBe('p;r\n');
  expect(share.take(path)).toBeNull();

  // A path with another token, or none, is nothing.
  const other = share.offer('faq.txt', Buffer.from('x'));
  expect(share.take(other.replace(/\/files\/[^/]+/, '/files/' + 'A'.repeat(43)))).toBeNull();
  expect(share.take('/files/short/faq.txt')).toBeNull();
  expect(share.take('/hooks/faq.txt')).toBeNull();

  // Expired after its time, whether read or not.
  now += 60_001;
  expect(share.take(other)).toBeNull();
  expect(share.size).toBe(0);

  // Only the types the service indexes; the oldest goes when too many are held.
  expect(() => share.offer('planilha.numbers', Buffer.from('x'))).toThrow('A .numbers file cannot be indexed. Supported: .xls, .xlsx');
  expect(() => share.offer('LEIAME', Buffer.from('x'))).toThrow('A file without an extension cannot be indexed');
  const a = share.offer('a.json', Buffer.from('{}'));
  share.offer('b.json', Buffer.from('{}'));
  share.offer('c.json', Buffer.from('{}'));
  expect(share.take(a)).toBeNull();
  expect(share.size).toBe(2);
});

test('the listener serves a lent file by GET at its path only, naming this listener as host; hooks are untouched', async () => {
  const files = new FileShare({ maxDownloads: 1 });
  const l = await startWebhookListener({
    port: 0,
    pathSecret: 'file-share-path-secret',
    stateDir: await stateDir(),
    onEvent: () => undefined,
    files,
  });
  try {
    const origin = `http://127.0.0.1:${l.port}`;
    const bytes = Buffer.from('P: Vocês entregam aos sábados?\nR: Sim, das 8h às 14h.\n');
    const path = files.offer('entregas.txt', bytes);

    // Another Host (a page after DNS rebinding) and another method are refused, and count nothing.
    const rebinding = await request(origin + path, { headers: { host: `evil.example:${l.port}` } });
    expect(rebinding.statusCode).toBe(421);
    await rebinding.body.dump();
    const posted = await request(origin + path, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(posted.statusCode).toBe(405);
    await posted.body.dump();

    const got = await request(origin + path);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(got.headers['cache-control']).toBe('no-store');
    expect(Buffer.from(await got.body.arrayBuffer()).equals(bytes)).toBe(true);

    const again = await request(origin + path);
    expect(again.statusCode).toBe(404);
    await again.body.dump();
    const unknown = await request(`${origin}/files/${'B'.repeat(43)}/x.txt`);
    expect(unknown.statusCode).toBe(404);
    await unknown.body.dump();
    // The hook path is still the webhook endpoint (signing is off here, so the body is taken).
    const hook = await request(l.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(hook.statusCode).toBe(200);
    await hook.body.dump();
  } finally {
    await l.close();
  }
});

test('a lent file is offered through the tunnel while one is live, directly to a service on this computer, and not at all otherwise', () => {
  const listener = { listenerPath: '/hooks/abc', listenerPort: 4545 };
  expect(
    fileOrigin({ ...listener, publicUrl: 'https://quiet-fox.tunnel.example/hooks/abc', serviceBaseUrl: 'https://api.example.com' }),
  ).toBe('https://quiet-fox.tunnel.example');
  expect(fileOrigin({ ...listener, publicUrl: 'https://tunnel.example/team/hooks/abc', serviceBaseUrl: 'https://api.example.com' })).toBe(
    'https://tunnel.example/team',
  );
  for (const local of ['http://127.0.0.1:9000', 'http://localhost:9000', 'http://[::1]:9000']) {
    expect(fileOrigin({ ...listener, publicUrl: null, serviceBaseUrl: local })).toBe('http://127.0.0.1:4545');
  }
  expect(fileOrigin({ ...listener, publicUrl: null, serviceBaseUrl: 'https://api.example.com' })).toBeNull();
});

test('a HEAD does not use up one of the reads; a withdrawn file is gone at once', async () => {
  const files = new FileShare({ maxDownloads: 2 });
  const l = await startWebhookListener({
    port: 0,
    pathSecret: 'file-share-head-secret',
    stateDir: await stateDir(),
    onEvent: () => undefined,
    files,
  });
  try {
    const origin = `http://127.0.0.1:${l.port}`;
    const bytes = Buffer.from('P: Trocas?\nR: Em 30 dias.\n');
    const path = files.offer('trocas.txt', bytes);
    // A service that checks the file first (size, type) before reading it.
    for (let i = 0; i < 3; i++) {
      const head = await request(origin + path, { method: 'HEAD' });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(bytes.length));
      await head.body.dump();
    }
    for (let i = 0; i < 2; i++) {
      const got = await request(origin + path);
      expect(got.statusCode).toBe(200);
      expect(Buffer.from(await got.body.arrayBuffer()).equals(bytes)).toBe(true);
    }
    const spent = await request(origin + path, { method: 'HEAD' });
    expect(spent.statusCode).toBe(404);
    await spent.body.dump();

    const other = files.offer('outro.txt', bytes);
    files.withdraw(other);
    const withdrawn = await request(origin + other);
    expect(withdrawn.statusCode).toBe(404);
    await withdrawn.body.dump();
    expect(files.size).toBe(0);
  } finally {
    await l.close();
  }
});
