import { timingSafeEqual } from 'node:crypto';

/**
 * The loopback host's request rules as a pure function (DESIGN.md §5, lossless-cut's check):
 * loopback peers only, our own Host and Origin only (no DNS rebinding, no cross-site calls), and
 * the per-launch secret on every request, from the launch URL once, then from a strict cookie.
 */
export interface HostRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  remoteAddress: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  cookie: string | undefined;
}

export type HostVerdict =
  | { ok: true }
  | { ok: true; redirectWithCookie: string } // secret in the URL: set the cookie, drop it from the address bar
  | { ok: false; status: 400 | 403 | 421; reason: string };

/**
 * The launch secret's cookie, named per port: cookies are shared by every port of a host, so
 * with one name a second console would replace the first one's and its tab would get 403.
 */
export const secretCookie = (port: number): string => `console_key_${port}`;

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

function sameSecret(given: string | null | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function checkHostRequest(req: HostRequest, expected: { secret: string; port: number }): HostVerdict {
  if (!req.remoteAddress || !LOOPBACK.test(req.remoteAddress)) {
    return { ok: false, status: 403, reason: 'not a loopback peer' };
  }
  const hosts = [`127.0.0.1:${expected.port}`, `localhost:${expected.port}`];
  if (!req.host || !hosts.includes(req.host.toLowerCase())) {
    return { ok: false, status: 421, reason: 'unexpected Host header' };
  }
  if (req.origin !== undefined && !hosts.some((h) => req.origin === `http://${h}`)) {
    return { ok: false, status: 403, reason: 'foreign Origin' };
  }
  if (sameSecret(cookieValue(req.cookie, secretCookie(expected.port)), expected.secret)) return { ok: true };
  if (req.method === 'GET' && req.path === '/' && sameSecret(req.query.get('k'), expected.secret)) {
    return { ok: true, redirectWithCookie: expected.secret };
  }
  return { ok: false, status: 403, reason: 'missing or wrong launch secret' };
}
