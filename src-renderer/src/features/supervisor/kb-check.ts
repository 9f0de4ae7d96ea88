import { isKnowledgeBaseName, KB_FILE_TYPES } from '../../../../src-shared/kb-name';

/** Checks of a knowledge-base upload made before anything is sent (interface §4.5, §8). */

export { KB_FILE_TYPES };

const DRIVES: Array<[RegExp, string]> = [
  [/(^|\.)(drive|docs|drive\.usercontent)\.google\.com$/i, 'Google Drive'],
  [/(^|\.)(dropbox\.com|dropboxusercontent\.com|db\.tt)$/i, 'Dropbox'],
  [/(^|\.)(onedrive\.live\.com|1drv\.ms|sharepoint\.com)$/i, 'OneDrive'],
  [/(^|\.)(box\.com|boxcloud\.com)$/i, 'Box'],
  [/(^|\.)icloud\.com$/i, 'iCloud Drive'],
  [/(^|\.)(mega\.nz|mega\.io)$/i, 'MEGA'],
  [/(^|\.)(wetransfer\.com|we\.tl)$/i, 'WeTransfer'],
];

export type KbProblem = { field: 'url' | 'name' | 'file'; message: string };

export function checkKbUpload(url: string, name: string): KbProblem[] {
  const problems: KbProblem[] = [];
  let parsed: URL | null = null;
  try {
    parsed = new URL(url.trim());
  } catch {
    problems.push({ field: 'url', message: 'The file address is not a URL. Give a public http(s) link to the file.' });
  }
  if (parsed) {
    const drive = DRIVES.find(([re]) => re.test(parsed.hostname))?.[1];
    const ext = /\.([a-z0-9]+)$/i.exec(parsed.pathname)?.[1]?.toLowerCase();
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      problems.push({ field: 'url', message: 'The file address must be an http(s) link.' });
    } else if (drive) {
      problems.push({
        field: 'url',
        message: `${drive} links are refused: they open a viewer page, not the file itself. Give a direct public link to the file.`,
      });
    } else if (ext && !(KB_FILE_TYPES as readonly string[]).includes(ext)) {
      problems.push({
        field: 'url',
        message: `.${ext} files cannot be indexed. Supported: ${KB_FILE_TYPES.map((t) => `.${t}`).join(', ')}.`,
      });
    }
  }
  const n = name.trim();
  if (!isKnowledgeBaseName(n)) {
    problems.push({
      field: 'name',
      message: isKnowledgeBaseName(n.toLowerCase())
        ? 'Use lower case letters in the name: search indexes are lower case.'
        : 'The name must look like {hostname}_{identifier}_data_pt in lower case, for example vilaserena.com.br_faq_data_pt.',
    });
  }
  return problems;
}

/**
 * The service's host as people read it in a base name: "www." dropped, a loopback address said
 * as "localhost" (an IP in a name reads as a number, not a place).
 */
function readableHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === '::1' || /^127\./.test(host)) return 'localhost';
  return host.replace(/^www\./, '').replace(/[^a-z0-9.-]/g, '');
}

/**
 * The base name the interface asks for, built for the user: `{hostname}_{identifier}_data_pt`
 * from the service's host and the file's name ("FAQ Março.csv" -> "faq-marco"). Null when the
 * host gives nothing usable.
 */
export function suggestKbName(serviceUrl: string | null, fileUrl: string): string | null {
  let host: string;
  try {
    host = serviceUrl ? readableHost(new URL(serviceUrl).hostname) : '';
  } catch {
    return null;
  }
  if (!host) return null;
  // A link's last path segment, or the name of a file chosen on this computer.
  let file: string;
  try {
    file = decodeURIComponent(new URL(fileUrl).pathname.split('/').pop() ?? '');
  } catch {
    file = fileUrl.includes('/') ? '' : fileUrl;
  }
  const id =
    file
      .replace(/\.[a-z0-9]{1,5}$/i, '')
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'base';
  const name = `${host}_${id}_data_pt`;
  return isKnowledgeBaseName(name) ? name : null;
}
