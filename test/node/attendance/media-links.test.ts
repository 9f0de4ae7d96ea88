import { test, expect } from '@playwright/test';
import { mediaOf } from '../../../src-shared/concepts';
import { isAppError } from '../../../src-shared/errors';
import { createServiceClient, type ServiceClient } from '../../../src-main/service/index';
import { mediaPathOf } from '../../../src-main/service/media';
import { mediaHandlers, safeMediaType } from '../../../src-main/features/attendance/media';
import { toThreadMessage } from '../../../src-main/features/attendance/project';
import type { FeatureContext } from '../../../src-main/features/context';
import { linksOf } from '../../../src-renderer/src/lib/segments';
import { failure } from '../../support/errors';
import { local, type Local } from '../../support/local-service';

/**
 * A message's media and links, in the main process: which records are media (interface §2.9
 * `contentType`), where their bytes may be read from (the service only, with its token), the cap
 * on what is read, the types handed to the page, and which links reach the system browser.
 */

const TOKEN = 'media-token-41c9';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

let server: Local | undefined;
let client: ServiceClient | undefined;
test.afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const ctxWith = (c: ServiceClient) => ({ client: () => c }) as unknown as FeatureContext;

test('media by contentType: kinds, MIME types and channel words; text and addressless records stay text', () => {
  const at = '/chatapi/1.0/api/v2/media/foto%20da%20caixa.png';
  expect(mediaOf({ contentType: 'image', message: at })).toEqual({ kind: 'image', url: at, mime: null, name: 'foto da caixa.png' });
  expect(mediaOf({ contentType: 'IMAGE', message: 'https://cdn.example/a/b.jpg?sig=1' })).toMatchObject({ kind: 'image', name: 'b.jpg' });
  expect(mediaOf({ contentType: 'image/jpeg; q=1', message: at })).toMatchObject({ kind: 'image', mime: 'image/jpeg' });
  expect(mediaOf({ contentType: 'ptt', message: at })?.kind).toBe('audio');
  expect(mediaOf({ contentType: 'audio/ogg', message: at })?.kind).toBe('audio');
  expect(mediaOf({ contentType: 'VIDEO', message: at })?.kind).toBe('video');
  expect(mediaOf({ contentType: 'document', message: at })?.kind).toBe('file');
  expect(mediaOf({ contentType: 'application/pdf', message: at })).toMatchObject({ kind: 'file', mime: 'application/pdf' });
  // Text, our own template replies, no type, and media whose message is words rather than an address.
  for (const m of [
    { contentType: 'text', message: at },
    { contentType: 'template', message: 'Olá' },
    { message: 'https://example.com/a.png' },
    { contentType: 'image', message: 'a foto que mandei' },
    { contentType: 'image', message: '' },
    { contentType: 'image', message: 'javascript:alert(1)' },
  ])
    expect(mediaOf(m)).toBeNull();
  // The thread shows the media, not its address as words; the caption stays the caption.
  const m = toThreadMessage({ id: 9, session: { id: 3 }, contentType: 'image', message: at, caption: 'A caixa' } as never);
  expect(m).toMatchObject({ text: '', caption: 'A caixa', media: { kind: 'image', url: at } });
  expect(toThreadMessage({ id: 10, session: { id: 3 }, message: 'Oi' } as never)).toMatchObject({ text: 'Oi', media: null });
});

test('media is read from the service only: paths under its address; other hosts, schemes and credentials are refused', () => {
  expect(mediaPathOf('http://127.0.0.1:9000', '/chatapi/1.0/api/v2/media/a.png')).toBe('/chatapi/1.0/api/v2/media/a.png');
  expect(mediaPathOf('http://127.0.0.1:9000', 'http://127.0.0.1:9000/media/a.png?v=2')).toBe('/media/a.png?v=2');
  expect(mediaPathOf('https://svc.example/base', 'https://svc.example/base/media/a.png')).toBe('/media/a.png');
  const refused = (base: string, url: string): { kind: string; message: string } | null => {
    try {
      mediaPathOf(base, url);
      return null;
    } catch (e) {
      if (!isAppError(e)) throw e;
      return { kind: e.kind, message: e.message };
    }
  };
  expect(refused('https://svc.example', 'file:///etc/passwd')?.kind).toBe('Invalid');
  expect(refused('https://svc.example', 'file:///etc/passwd')?.message).toContain('file:');
  expect(refused('https://svc.example', 'data:image/png;base64,AAAA')?.kind).toBe('Invalid');
  expect(refused('https://svc.example', 'javascript:alert(1)')?.kind).toBe('Invalid');
  expect(refused('https://svc.example', 'https://cdn.example/a.png')?.kind).toBe('Invalid');
  expect(refused('https://svc.example', 'https://cdn.example/a.png')?.message).toContain('cdn.example');
  expect(refused('https://svc.example', 'https://user:pw@svc.example/a.png')?.kind).toBe('Invalid');
  expect(refused('https://svc.example/base', 'https://svc.example/other/a.png')?.kind).toBe('Invalid');
  expect(refused('http://svc.example', 'https://svc.example/a.png')?.kind).toBe('Invalid');
});

test('the media handler hands over the bytes with a type the page may use, with the token sent to the service only', async () => {
  server = await local((req, _body, res) => {
    const url = req.url ?? '';
    if (url.endsWith('/a.png')) res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (url.endsWith('/b.bin')) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<script>x</script>');
    else if (url.endsWith('/c.bin')) res.writeHead(200).end('no type');
    else res.writeHead(404).end();
  });
  client = createServiceClient({ baseUrl: server.baseUrl, getToken: async () => TOKEN });
  const h = mediaHandlers(ctxWith(client), () => true);
  const png = await h['attendance:media']({ url: '/media/a.png' });
  expect(png).toEqual({ contentType: 'image/png', data: PNG.toString('base64'), size: PNG.length });
  expect(server.seen[0]).toMatchObject({ method: 'GET', url: '/media/a.png', auth: `Bearer ${TOKEN}` });
  // A page the server calls text/html is handed over as the type it says (a blob shown as an
  // image or a download runs nothing); a type that is not a MIME type becomes opaque bytes.
  expect((await h['attendance:media']({ url: '/media/b.bin' })).contentType).toBe('text/html');
  expect((await h['attendance:media']({ url: '/media/c.bin' })).contentType).toBe('application/octet-stream');
  expect(safeMediaType('image/svg+xml')).toBe('image/svg+xml');
  expect(safeMediaType('image/png"><script>')).toBe('application/octet-stream');
  expect(safeMediaType(null)).toBe('application/octet-stream');
  // Another host: refused before any request, so the token goes nowhere else.
  const before = server.seen.length;
  const other = await failure(h['attendance:media']({ url: 'http://127.0.0.2:1/x.png' }));
  expect(other.kind).toBe('Invalid');
  expect(server.seen.length).toBe(before);
  expect((await failure(h['attendance:media']({ url: '/media/missing.png' }))).kind).toBe('NotFound');
});

test('media past the cap is not read whole: the call fails naming the limit', async () => {
  server = await local((_req, _body, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(64 * 1024, 1)));
  client = createServiceClient({ baseUrl: server.baseUrl, getToken: async () => TOKEN, limits: { media: 16 * 1024 } });
  const e = await failure(mediaHandlers(ctxWith(client), () => true)['attendance:media']({ url: '/v.mp4' }));
  expect(e.info).toMatchObject({ reason: 'tooLarge', limit: 16 * 1024 });
  expect(e.message).toContain('16 KiB');
});

test('links reach the system browser only when the external-link policy takes them', async () => {
  const opened: string[] = [];
  let answer = true;
  const h = mediaHandlers({} as FeatureContext, (url) => (opened.push(url), answer));
  expect(await h['attendance:openLink']({ url: 'https://rastreio.example/abc' })).toEqual({ opened: true });
  expect(await h['attendance:openLink']({ url: 'http://loja.example/p/1' })).toEqual({ opened: true });
  expect(await h['attendance:openLink']({ url: 'mailto:sac@loja.example' })).toEqual({ opened: true });
  for (const url of [
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<b>x</b>',
    'https://user:pw@evil.example/',
    'app://console/x',
  ])
    expect((await failure(h['attendance:openLink']({ url }))).kind).toBe('Invalid');
  expect(opened).toEqual(['https://rastreio.example/abc', 'http://loja.example/p/1', 'mailto:sac@loja.example']);
  // A platform with no browser (the web host) says so; the page tells the attendant.
  answer = false;
  expect(await h['attendance:openLink']({ url: 'https://rastreio.example/abc' })).toEqual({ opened: false });
});

test('links in a message: http(s), www and mailto addresses, without the punctuation that ends a sentence', () => {
  expect(linksOf('Veja https://rastreio.example/abc, e http://loja.example/p/1.')).toEqual([
    { text: 'Veja ', url: null },
    { text: 'https://rastreio.example/abc', url: 'https://rastreio.example/abc' },
    { text: ', e ', url: null },
    { text: 'http://loja.example/p/1', url: 'http://loja.example/p/1' },
    { text: '.', url: null },
  ]);
  expect(linksOf('(ver www.loja.example/ajuda)')).toEqual([
    { text: '(ver ', url: null },
    { text: 'www.loja.example/ajuda', url: 'https://www.loja.example/ajuda' },
    { text: ')', url: null },
  ]);
  expect(linksOf('https://pt.wikipedia.org/wiki/Caixa_(embalagem)!').map((p) => p.url)).toEqual([
    'https://pt.wikipedia.org/wiki/Caixa_(embalagem)',
    null,
  ]);
  expect(linksOf('Escreva para mailto:sac@loja.example?')).toEqual([
    { text: 'Escreva para ', url: null },
    { text: 'mailto:sac@loja.example', url: 'mailto:sac@loja.example' },
    { text: '?', url: null },
  ]);
  expect(linksOf('sem link aqui: pedido PED-123')).toEqual([{ text: 'sem link aqui: pedido PED-123', url: null }]);
});
