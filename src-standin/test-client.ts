/** A tiny HTTP client for tests that talk to the stand-in (fetch, loopback only). */
import { V2 } from '../src-shared/paths';

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body; throws when the body is not JSON. */
  json<T = unknown>(): T;
}

export function standinClient(baseUrl: string, token: string | null) {
  const call = async (method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<RawAnswer> => {
    const headers: Record<string, string> = { ...extraHeaders };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
  };
  return {
    call,
    /** POST to a v2 path (relative to /chatapi/1.0/api/v2). */
    v2: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', `${V2}${path}`, body, headers),
    get: (path: string) => call('GET', path),
  };
}
