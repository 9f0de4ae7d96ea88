/**
 * Which tab the side panel of the attendance view shows (commands switch it too), and whether the
 * transfer dialog is open: kept by the workspace's scope, so the side panel is as the attendant left it.
 */
export class SidePanel {
  tab = $state<'help' | 'notes' | 'voice' | 'customer'>('help');

  #transferFor = $state<number | null>(null);
  get transferFor() {
    return this.#transferFor;
  }

  openTransfer(sessionId: number): void {
    this.#transferFor = sessionId;
  }

  closeTransfer(): void {
    this.#transferFor = null;
  }
}
