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

/**
 * A problem with what is about to be sent: the key of its wording in the supervisor's strings
 * (`kb.*`) and its values, worded by the store when shown, so it follows the interface language.
 */
export type KbCheck = {
  field: 'url' | 'name';
  key: 'kb.notUrl' | 'kb.notHttp' | 'kb.drive' | 'kb.extension' | 'kb.lowerCase' | 'kb.nameShape';
  params?: Record<string, string>;
};

export function checkKbUpload(url: string, name: string): KbCheck[] {
  const problems: KbCheck[] = [];
  let parsed: URL | null = null;
  try {
    parsed = new URL(url.trim());
  } catch {
    problems.push({ field: 'url', key: 'kb.notUrl' });
  }
  if (parsed) {
    const drive = DRIVES.find(([re]) => re.test(parsed.hostname))?.[1];
    const ext = /\.([a-z0-9]+)$/i.exec(parsed.pathname)?.[1]?.toLowerCase();
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      problems.push({ field: 'url', key: 'kb.notHttp' });
    } else if (drive) {
      problems.push({
        field: 'url',
        key: 'kb.drive',
        params: { drive },
      });
    } else if (ext && !(KB_FILE_TYPES as readonly string[]).includes(ext)) {
      problems.push({
        field: 'url',
        key: 'kb.extension',
        params: { ext, types: KB_FILE_TYPES.map((t) => `.${t}`).join(', ') },
      });
    }
  }
  const n = name.trim();
  if (!isKnowledgeBaseName(n)) {
    problems.push({
      field: 'name',
      ...(isKnowledgeBaseName(n.toLowerCase())
        ? { key: 'kb.lowerCase' as const }
        : { key: 'kb.nameShape' as const, params: { shape: '{hostname}_{identifier}_data_pt', example: 'vilaserena.com.br_faq_data_pt' } }),
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
