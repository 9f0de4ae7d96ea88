import { AppError } from '../../../src-shared/errors';
import type { HandlerTable } from '../../bridge/table';
import { isSafeExternalUrl } from '../../shell-policy';
import type { FeatureContext } from '../context';

/**
 * Hands a URL to the system browser (Electron's shell, in src-main/index.ts); false when this platform
 * has none (the web host). Called only with URLs the external-link policy accepts.
 */
export type LinkOpener = (url: string) => Promise<boolean> | boolean;

/** A MIME type as the page may use it for a blob; anything else becomes opaque bytes. */
const MIME = /^[a-z]+\/[a-z0-9][a-z0-9.+-]{0,100}$/;

export function safeMediaType(contentType: string | null): string {
  const t = contentType?.split(';', 1)[0]!.trim().toLowerCase() ?? '';
  return MIME.test(t) ? t : 'application/octet-stream';
}

/**
 * A message's media and links. The page loads nothing from elsewhere (its CSP allows only our
 * origin): the main process reads the media from the service within the client's media cap and
 * hands the bytes over; a link goes to the system browser after the same check the window's own
 * link handling applies, never into the console.
 */
export function mediaHandlers(
  ctx: FeatureContext,
  openLink: LinkOpener,
  sentCopy: (url: string) => { type: string; bytes: Buffer } | null = () => null,
): Pick<HandlerTable, 'attendance:media' | 'attendance:openLink'> {
  return {
    'attendance:media': async ({ url }) => {
      // A file this console sent is shown from its own copy: the URL it was lent at ends with the loan.
      const own = sentCopy(url);
      if (own) return { contentType: safeMediaType(own.type), data: own.bytes.toString('base64'), size: own.bytes.length };
      const file = await ctx.client().media(url);
      return { contentType: safeMediaType(file.contentType), data: Buffer.from(file.bytes).toString('base64'), size: file.bytes.length };
    },
    'attendance:openLink': async ({ url }) => {
      if (!isSafeExternalUrl(url))
        throw new AppError({ kind: 'Invalid', message: 'This link is not opened: only http, https and e-mail links go to the browser.' });
      const opened = await openLink(url);
      return { opened };
    },
  };
}
