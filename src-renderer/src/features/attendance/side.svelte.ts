/** Which tab the side panel of the attendance view shows (commands switch it too). */
class SidePanel {
  tab = $state<'help' | 'notes' | 'voice' | 'details'>('help');
}

export const side = new SidePanel();
