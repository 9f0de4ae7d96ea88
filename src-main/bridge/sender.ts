/**
 * The Electron transport's sender check, as a pure function: a bridge call is served only when
 * it comes from the main frame of a page of our own origin (DESIGN.md §5, VS Code's validated
 * ipcMain). Sub-frames, other origins and unknown senders are refused.
 */
export interface SenderInfo {
  /** URL of the frame that sent the message (event.senderFrame.url), or null when gone. */
  frameUrl: string | null;
  /** Whether that frame is its page's main frame. */
  isMainFrame: boolean;
}

export function isTrustedSender(sender: SenderInfo, appOrigin: string): boolean {
  if (!sender.isMainFrame || !sender.frameUrl) return false;
  let origin: string;
  try {
    const url = new URL(sender.frameUrl);
    // Custom schemes have an opaque origin ("null"); compare scheme and host instead.
    origin = url.origin !== 'null' ? url.origin : `${url.protocol}//${url.host}`;
  } catch {
    return false;
  }
  return origin === appOrigin;
}
