/**
 * The microphone grant, kept out of the voice feature so that it never imports Electron: the
 * Electron shell binds a setter (adding or removing 'media' in its permission allow-map), the
 * web host binds nothing (the browser asks the user itself).
 */
export type MediaPermissionSetter = (allowed: boolean) => void;

export interface MediaPermissionSlot {
  /** Binds the platform's setter and applies the current choice at once. Returns an unbind. */
  bind(setter: MediaPermissionSetter): () => void;
  set(allowed: boolean): void;
  readonly allowed: boolean;
}

export function createMediaPermissionSlot(): MediaPermissionSlot {
  let setter: MediaPermissionSetter | null = null;
  let allowed = false;
  return {
    bind(s) {
      setter = s;
      s(allowed);
      return () => {
        if (setter === s) setter = null;
      };
    },
    set(next) {
      allowed = next;
      setter?.(next);
    },
    get allowed() {
      return allowed;
    },
  };
}

/**
 * The key a permission request is decided under. Electron calls audio and video capture both
 * 'media'; only a request for audio alone keeps that name (the one voice grants), anything that
 * asks for the camera becomes 'media:video', which nobody grants.
 */
export function mediaPermissionKey(permission: string, details?: unknown): string {
  if (permission !== 'media') return permission;
  // Requests carry mediaTypes (['audio'], ['audio','video']); checks carry one mediaType.
  const d = (details && typeof details === 'object' ? details : {}) as { mediaTypes?: unknown; mediaType?: unknown };
  const types: unknown[] = Array.isArray(d.mediaTypes) ? d.mediaTypes : d.mediaType !== undefined ? [d.mediaType] : [];
  return types.length > 0 && types.every((t) => t === 'audio') ? 'media' : 'media:video';
}
