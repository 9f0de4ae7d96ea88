import { KNOWLEDGE_BASE_NAME } from '../../src-shared/kb-name';
import type { Response } from 'undici';

/**
 * Checks of upload_files (interface §4.5, §8) and the download itself. The checks run before
 * the 200 answer so a caller learns at once why a file will never be indexed.
 */

/** The name rule is shared with the console, which checks it before sending (DESIGN.md §2). */
export const INDEX_NAME_RE = KNOWLEDGE_BASE_NAME;

export function indexNameProblem(name: string): string | null {
  if (INDEX_NAME_RE.test(name)) return null;
  if (INDEX_NAME_RE.test(name.toLowerCase())) return `The knowledge base name "${name}" must be lower case.`;
  return `The knowledge base name "${name}" must look like {hostname}_{identifier}_data_pt (lower case letters, digits, dots, hyphens), for example empresa_faq_data_pt.`;
}

export const FILE_TYPES = ['txt', 'csv', 'tsv', 'json', 'xml', 'pdf', 'docx', 'xls', 'xlsx', 'ods'] as const;
export type FileType = (typeof FILE_TYPES)[number];

const isFileType = (s: string): s is FileType => (FILE_TYPES as readonly string[]).includes(s);

/** File-sharing drives: their links open a viewer page, not the file (interface §4.5). */
const DRIVE_HOSTS: Array<[string, string]> = [
  ['drive.google.com', 'Google Drive'],
  ['docs.google.com', 'Google Docs'],
  ['drive.usercontent.google.com', 'Google Drive'],
  ['dropbox.com', 'Dropbox'],
  ['dropboxusercontent.com', 'Dropbox'],
  ['db.tt', 'Dropbox'],
  ['onedrive.live.com', 'OneDrive'],
  ['1drv.ms', 'OneDrive'],
  ['sharepoint.com', 'OneDrive/SharePoint'],
  ['box.com', 'Box'],
  ['boxcloud.com', 'Box'],
  ['icloud.com', 'iCloud Drive'],
  ['mega.nz', 'MEGA'],
  ['mega.io', 'MEGA'],
  ['wetransfer.com', 'WeTransfer'],
  ['we.tl', 'WeTransfer'],
  ['mediafire.com', 'MediaFire'],
  ['pcloud.com', 'pCloud'],
  ['terabox.com', 'TeraBox'],
  ['4shared.com', '4shared'],
  ['sync.com', 'Sync.com'],
  ['disk.yandex.com', 'Yandex Disk'],
  ['yadi.sk', 'Yandex Disk'],
];

export function driveServiceOf(host: string): string | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  for (const [d, name] of DRIVE_HOSTS) if (h === d || h.endsWith(`.${d}`)) return name;
  return null;
}

const CONTENT_TYPES: Array<[RegExp, FileType]> = [
  [/^text\/plain/, 'txt'],
  [/^text\/csv/, 'csv'],
  [/^text\/tab-separated-values/, 'tsv'],
  [/^application\/json|\+json/, 'json'],
  [/^(application|text)\/xml|\+xml/, 'xml'],
  [/^application\/pdf/, 'pdf'],
  [/wordprocessingml\.document/, 'docx'],
  [/^application\/vnd\.ms-excel/, 'xls'],
  [/spreadsheetml\.sheet/, 'xlsx'],
  [/opendocument\.spreadsheet/, 'ods'],
];

export const fileTypeFromContentType = (ct: string | null): FileType | null => {
  const c = (ct ?? '').toLowerCase();
  for (const [re, t] of CONTENT_TYPES) if (re.test(c)) return t;
  return null;
};

export type UrlCheck =
  | { ok: true; url: URL; type: FileType | null }
  | { ok: false; message: string; code: 'INVALID_URL' | 'DRIVE_LINK_REFUSED' | 'UNSUPPORTED_FILE_TYPE' };

/** Type comes from the path's extension; a path without one is typed by the Content-Type later. */
export function checkFileUrl(raw: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'INVALID_URL', message: `"${raw}" is not a URL.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, code: 'INVALID_URL', message: `Only http and https URLs can be fetched, not ${url.protocol}.` };
  const drive = driveServiceOf(url.hostname);
  if (drive)
    return {
      ok: false,
      code: 'DRIVE_LINK_REFUSED',
      message: `Links from file-sharing drives (${drive}) are not accepted: give a public URL of the file itself.`,
    };
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  const dot = last.lastIndexOf('.');
  if (dot <= 0) return { ok: true, url, type: null };
  const ext = last.slice(dot + 1).toLowerCase();
  if (!isFileType(ext))
    return {
      ok: false,
      code: 'UNSUPPORTED_FILE_TYPE',
      message: `Files of type .${ext} are not supported; use one of ${FILE_TYPES.map((t) => `.${t}`).join(' ')}.`,
    };
  return { ok: true, url, type: ext };
}

export interface Downloaded {
  bytes: Buffer;
  type: FileType;
}

type Options = { signal: AbortSignal; maxBytes: number; timeoutMs: number };

/** Why a fetch failed, in words: a timeout, the network's own cause, or the error. */
function fetchFailure(e: unknown, timeoutMs: number): string {
  if (e instanceof Error && e.name === 'TimeoutError') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  if (e instanceof Error && e.cause instanceof Error) return e.cause.message;
  return String(e);
}

/** Refuses an answer before its body is read (the body is let go): a drive, an HTTP error, an unknown type, too large. */
async function acceptedType(res: Response, url: URL, known: FileType | null, maxBytes: number): Promise<FileType> {
  const refuse = async (message: string): Promise<never> => {
    await res.body?.cancel();
    throw new Error(message);
  };
  const drive = driveServiceOf(new URL(res.url || url.href).hostname);
  if (drive) return refuse(`The URL redirected to a file-sharing drive (${drive}), which is not accepted.`);
  if (!res.ok) return refuse(`Fetching ${url.href} answered HTTP ${res.status}.`);
  const type = known ?? fileTypeFromContentType(res.headers.get('content-type'));
  if (!type)
    return refuse(
      `Cannot tell the type of ${url.href}: no supported extension and Content-Type "${res.headers.get('content-type') ?? ''}".`,
    );
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return refuse(`The file is ${declared} bytes; the limit is ${maxBytes}.`);
  return type;
}

/** The body, up to `maxBytes` (a server may send more than it declared). */
async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  if (res.body) {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new Error(`The file is larger than the limit of ${maxBytes} bytes.`);
      parts.push(Buffer.from(chunk));
    }
  }
  return Buffer.concat(parts);
}

/** Downloads with a time limit and a size cap; the file type must be known by the end. */
export async function download(url: URL, known: FileType | null, opts: Options): Promise<Downloaded> {
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]);
  // undici is loaded by the first download, not when the stand-in starts (about 10 ms of its start).
  const { fetch } = await import('undici');
  let res: Response;
  try {
    res = await fetch(url, { signal, redirect: 'follow' });
  } catch (e) {
    if (opts.signal.aborted) throw e;
    throw new Error(`Could not fetch ${url.href}: ${fetchFailure(e, opts.timeoutMs)}.`, { cause: e });
  }
  const type = await acceptedType(res, url, known, opts.maxBytes);
  return { bytes: await readCapped(res, opts.maxBytes), type };
}
