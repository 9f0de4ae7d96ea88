import type { StaticFile } from '../host/static-files';

/**
 * The app:// protocol's answer as a pure function: only files of the built renderer, read at
 * start, under the one host the window uses; every answer carries the CSP. No path on the
 * request is ever joined to a folder, so `..`, encoded slashes and absolute paths find nothing.
 */
export interface AppResponse {
  status: 200 | 404 | 405;
  body: Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
}

export function serveAppRequest(
  files: ReadonlyMap<string, StaticFile>,
  request: { url: string; method: string },
  o: { host: string; csp: string },
): AppResponse {
  const headers = { 'Content-Security-Policy': o.csp, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };
  const text = (status: 404 | 405, message: string): AppResponse => ({
    status,
    body: new TextEncoder().encode(message),
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  });
  if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method not allowed');
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return text(404, 'Not found');
  }
  if (url.host !== o.host) return text(404, 'Not found');
  const file = files.get(url.pathname === '/' ? '/index.html' : url.pathname);
  if (!file) return text(404, 'Not found');
  return { status: 200, body: new Uint8Array(file.body), headers: { ...headers, 'Content-Type': file.type } };
}

/** The session's request filter: only our protocol (and devtools) may load in the window. */
export function isAllowedRequest(url: string, appOrigin: string): boolean {
  return url.startsWith(`${appOrigin}/`) || url.startsWith('devtools://');
}
