import type { GroupsOverview } from '../../../../src-shared/bridge/supervisor';
import { errorMessage, invoke } from '../../lib/bridge';

/** Groups overview; also the source of group names for the NPS and report filters. */
export class GroupsStore {
  data = $state<GroupsOverview | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);

  async load(): Promise<void> {
    this.loading = true;
    this.error = null;
    try {
      this.data = await invoke('supervisor:groups', {});
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
    }
  }

  /** Loads once for the filters' group choices. */
  async ensure(): Promise<void> {
    if (!this.data && !this.loading) await this.load();
  }

  get choices(): Array<{ id: number; name: string }> {
    return (this.data?.groups ?? []).flatMap((g) => (g.id === null ? [] : [{ id: g.id, name: g.name }])).sort((a, b) => a.name.localeCompare(b.name));
  }

  reset(): void {
    this.data = null;
    this.error = null;
  }
}

export const groups = new GroupsStore();
