const KEY = 'workspace.keyringNoticeDismissed';

function stored(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The weak-protection notice (no OS keyring): said once per workspace, then kept out of the way
 * once its reader has dismissed it there (another workspace still shows its own).
 */
class KeyringNotice {
  #dismissed = $state<string[]>(stored());

  shown(workspaceId: string | null | undefined): boolean {
    return !workspaceId || !this.#dismissed.includes(workspaceId);
  }

  dismiss(workspaceId: string | null | undefined): void {
    if (!workspaceId || this.#dismissed.includes(workspaceId)) return;
    this.#dismissed = [...this.#dismissed, workspaceId];
    localStorage.setItem(KEY, JSON.stringify(this.#dismissed));
  }
}

export const keyringNotice = new KeyringNotice();
