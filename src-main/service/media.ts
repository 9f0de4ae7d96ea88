import { AppError } from '../../src-shared/errors';
import type { CallOptions, Core, FileAnswer } from './core';

export interface MediaOps {
  /**
   * A message's media, read whole within the client's `media` limit. Only addresses on the
   * service itself are read (the token goes nowhere else); anything else is refused as Invalid.
   */
  media(url: string, o?: CallOptions): Promise<FileAnswer>;
}

/**
 * The path, below the service's address, of a media address a message carries: an absolute
 * http(s) URL on the service's origin and under its path, or a path on it ("/media/1.jpg").
 * Other schemes (file:, data:, javascript:) and other hosts are refused with a reason the
 * attendant can read.
 */
export function mediaPathOf(baseUrl: string, raw: string): string {
  const base = new URL(baseUrl);
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new AppError({ kind: 'Invalid', message: 'The media address of this message is not a valid address.' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AppError({ kind: 'Invalid', message: `Media at a ${url.protocol.replace(/:$/, '')}: address is not opened by the console.` });
  if (url.origin !== base.origin || url.username || url.password)
    throw new AppError({
      kind: 'Invalid',
      message: `This media is on another host (${url.host}): the console reads media from the service only.`,
    });
  const prefix = base.pathname.replace(/\/+$/, '');
  if (prefix && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`))
    throw new AppError({
      kind: 'Invalid',
      message: 'This media is outside the service address: the console reads media from the service only.',
    });
  return url.pathname.slice(prefix.length) + url.search;
}

/**
 * The whole address of a message's media on the service (the same checks as `mediaPathOf`):
 * what the service is given when it is asked about its own media (an image to describe).
 */
export function mediaAddressOf(baseUrl: string, raw: string): string {
  return baseUrl.replace(/\/+$/, '') + mediaPathOf(baseUrl, raw);
}

export function createMediaOps(core: Core, baseUrl: string): MediaOps {
  return {
    media: (url, o = {}) =>
      core.call<FileAnswer>({
        operation: 'message.media',
        action: 'read the media of a message',
        write: false,
        method: 'GET',
        path: mediaPathOf(baseUrl, url),
        answer: { kind: 'file' },
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      }),
  };
}
