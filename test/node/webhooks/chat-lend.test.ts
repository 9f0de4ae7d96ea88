import { test, expect } from '@playwright/test';
import { request } from 'undici';
import { startWebhookListener } from '../../../src-main/webhooks/listener';
import { FileShare } from '../../../src-main/webhooks/file-share';
import { tempDirs } from '../../support/temp-dirs';

const stateDir = tempDirs('chat-lend-test-');

/** A PDF as the attendant attaches it (its bytes only matter). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

test('a chat file is lent under its own unguessable path, read once with its own type, then 404; its end is told once', async () => {
  const files = new FileShare();
  const l = await startWebhookListener({
    port: 0,
    pathSecret: 'chat-lend-path-secret',
    stateDir: await stateDir(),
    onEvent: () => undefined,
    files,
  });
  try {
    const origin = `http://127.0.0.1:${l.port}`;
    const ends: string[] = [];
    const path = files.offer('boleto março.pdf', PDF, {
      type: 'application/pdf',
      maxDownloads: 1,
      ttlMs: 60_000,
      onEnd: (how) => ends.push(how),
    });
    // One token per file: the same file lent again is at another path.
    const twin = files.offer('boleto março.pdf', PDF, { type: 'application/pdf', maxDownloads: 1, ttlMs: 60_000 });
    expect(path).toMatch(/^\/files\/[A-Za-z0-9_-]{43}\/boleto%20mar%C3%A7o\.pdf$/);
    expect(twin).not.toBe(path);
    expect(twin.split('/')[2]).not.toBe(path.split('/')[2]);

    // A HEAD (a provider checking size and type) does not use the one read.
    const head = await request(origin + path, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/pdf');
    await head.body.dump();
    expect(ends).toEqual([]);

    const got = await request(origin + path);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-length']).toBe(String(PDF.length));
    expect(Buffer.from(await got.body.arrayBuffer()).equals(PDF)).toBe(true);
    expect(ends).toEqual(['read']);

    // Fetched: gone, and the end is not told again.
    const again = await request(origin + path);
    expect(again.statusCode).toBe(404);
    await again.body.dump();
    expect(ends).toEqual(['read']);

    // Another token in the same shape names nothing; the twin is still there until read.
    const guessed = await request(`${origin}/files/${'C'.repeat(43)}/boleto%20mar%C3%A7o.pdf`);
    expect(guessed.statusCode).toBe(404);
    await guessed.body.dump();
    const other = await request(origin + twin);
    expect(other.statusCode).toBe(200);
    await other.body.dump();
  } finally {
    await l.close();
  }
});

test('a chat file not fetched in time is gone (404) and its end is told as expired, without anyone asking', async () => {
  let now = 5_000_000;
  const files = new FileShare({ now: () => now });
  const l = await startWebhookListener({
    port: 0,
    pathSecret: 'chat-lend-expiry-secret',
    stateDir: await stateDir(),
    onEvent: () => undefined,
    files,
  });
  try {
    const origin = `http://127.0.0.1:${l.port}`;
    let told: (how: string) => void = () => undefined;
    const ended = new Promise<string>((resolve) => (told = resolve));
    const path = files.offer('foto.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), {
      type: 'image/png',
      maxDownloads: 1,
      ttlMs: 50,
      onEnd: (how) => told(how),
    });
    expect(files.size).toBe(1);
    // Its time passes: the timer ends the loan on its own (nobody reads or sweeps it).
    now += 51;
    expect(await ended).toBe('expired');
    const late = await request(origin + path);
    expect(late.statusCode).toBe(404);
    await late.body.dump();
    expect(files.size).toBe(0);

    // A loan taken back (the message could not be saved) is gone and tells no end.
    const ends: string[] = [];
    const withdrawn = files.offer('nota.pdf', PDF, {
      type: 'application/pdf',
      maxDownloads: 1,
      ttlMs: 60_000,
      onEnd: (how) => ends.push(how),
    });
    files.withdraw(withdrawn);
    const gone = await request(origin + withdrawn);
    expect(gone.statusCode).toBe(404);
    await gone.body.dump();
    expect(ends).toEqual([]);
  } finally {
    await l.close();
  }
});
