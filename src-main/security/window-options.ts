/**
 * The console window's web preferences, in one place so a test can hold them to the Electron
 * security checklist: isolated, sandboxed renderer with no Node, no webview, web security on.
 */
export function hardenedWebPreferences(preload: string) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: true,
  } as const;
}
