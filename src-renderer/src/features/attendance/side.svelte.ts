/** Which tab the side panel of the attendance view shows (commands switch it too). */
export class SidePanel {
  #tab = $state<'help' | 'notes' | 'voice' | 'details'>('help');

  get tab() { return this.#tab; }
  set tab(v) { this.#tab = v; }

  reset(): void {
    this.#tab = 'help';
  }
}

export const side = new SidePanel();
