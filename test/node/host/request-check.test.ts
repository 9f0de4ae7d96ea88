import { test, expect } from '@playwright/test';
import { checkHostRequest, cookieValue, type HostRequest } from '../../../src-main/host/request-check';

const expected = { secret: 's3cret-launch-key', port: 4321 };
const base: HostRequest = {
  method: 'GET',
  path: '/index.html',
  query: new URLSearchParams(),
  remoteAddress: '127.0.0.1',
  host: '127.0.0.1:4321',
  origin: undefined,
  cookie: 'console_key_4321=s3cret-launch-key',
};

test('a loopback request with the launch cookie is served', () => {
  expect(checkHostRequest(base, expected)).toEqual({ ok: true });
  expect(checkHostRequest({ ...base, remoteAddress: '::ffff:127.0.0.1', host: 'localhost:4321' }, expected)).toEqual({ ok: true });
});

test('no secret, a wrong secret or a secret of another length is refused', () => {
  expect(checkHostRequest({ ...base, cookie: undefined }, expected)).toMatchObject({ ok: false, status: 403 });
  expect(checkHostRequest({ ...base, cookie: 'console_key_4321=s3cret-launch-kez' }, expected)).toMatchObject({ ok: false, status: 403 });
  expect(checkHostRequest({ ...base, cookie: 'console_key_4321=short' }, expected)).toMatchObject({ ok: false, status: 403 });
  expect(checkHostRequest({ ...base, cookie: 'other=s3cret-launch-key' }, expected)).toMatchObject({ ok: false, status: 403 });
  // The cookie of a console on another port does not open this one.
  expect(checkHostRequest({ ...base, cookie: 'console_key_4322=s3cret-launch-key' }, expected)).toMatchObject({ ok: false, status: 403 });
});

test('the secret in the launch address is traded for a cookie, only on GET /', () => {
  const q = new URLSearchParams({ k: expected.secret });
  expect(checkHostRequest({ ...base, path: '/', query: q, cookie: undefined }, expected)).toEqual({
    ok: true,
    redirectWithCookie: expected.secret,
  });
  expect(
    checkHostRequest({ ...base, path: '/bridge/workspace:state', method: 'POST', query: q, cookie: undefined }, expected),
  ).toMatchObject({ ok: false });
});

test('foreign peers, hosts and origins are refused even with the secret', () => {
  expect(checkHostRequest({ ...base, remoteAddress: '192.168.1.20' }, expected)).toMatchObject({ ok: false, status: 403 });
  expect(checkHostRequest({ ...base, remoteAddress: undefined }, expected)).toMatchObject({ ok: false });
  expect(checkHostRequest({ ...base, host: 'evil.example:4321' }, expected)).toMatchObject({ ok: false, status: 421 });
  expect(checkHostRequest({ ...base, host: '127.0.0.1:9999' }, expected)).toMatchObject({ ok: false, status: 421 });
  expect(checkHostRequest({ ...base, origin: 'http://evil.example' }, expected)).toMatchObject({ ok: false, status: 403 });
  expect(checkHostRequest({ ...base, origin: 'http://127.0.0.1:4321' }, expected)).toEqual({ ok: true });
});

test('cookies are read by exact name', () => {
  expect(cookieValue('a=1; console_key=xyz; b=2', 'console_key')).toBe('xyz');
  expect(cookieValue('xconsole_key=xyz', 'console_key')).toBeNull();
  expect(cookieValue(undefined, 'console_key')).toBeNull();
});
