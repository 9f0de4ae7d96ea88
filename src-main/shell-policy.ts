/**
 * What the Electron shell lets out of the window, as pure functions tested in plain Node:
 * links open externally only for http, https and mailto, and only well-formed ones; the window
 * itself never navigates away from the app.
 */
const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

export function isSafeExternalUrl(raw: string): boolean {
  if (raw.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (!EXTERNAL_SCHEMES.has(url.protocol)) return false;
  if (url.protocol === 'mailto:') return /^[^\s@]+@[^\s@]+$/.test(decodeURIComponent(url.pathname));
  // No credentials smuggled in the authority, and a real host.
  return url.username === '' && url.password === '' && url.hostname.length > 0;
}

export function isAppNavigation(raw: string, appOrigin: string): boolean {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}` === appOrigin;
  } catch {
    return false;
  }
}

/** The permission handler's decision: nothing unless the user turned it on (voice, later). */
export function decidePermission(permission: string, requestingUrl: string, appOrigin: string, granted: ReadonlySet<string>): boolean {
  return isAppNavigation(requestingUrl, appOrigin) && granted.has(permission);
}
