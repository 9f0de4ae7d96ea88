import type { ReportColumn, ReportFilter, ReportPage } from '../../../../src-shared/bridge/supervisor';
import { errorMessage, invoke } from '../../lib/bridge';
import { toCsv } from './csv';
import { dayBoundary } from './nps.svelte';

// The bridge module carries zod; the renderer keeps to its types, so the column list is typed here.
export const REPORT_COLUMNS = [
  'protocol', 'agentName', 'groupName', 'channelName', 'createdAtProtocol', 'closedAtProtocol',
  'waitingTime', 'attendanceTime', 'protocolDuration', 'lastStatus',
] as const satisfies readonly ReportColumn[];

/** The attendance time report: filters, sort and paging run on the service. */
export class ReportStore {
  agentName = $state('');
  groupName = $state('');
  channelName = $state('');
  protocol = $state('');
  from = $state('');
  to = $state('');
  sortColumn = $state<ReportColumn>('createdAtProtocol');
  direction = $state<'ASC' | 'DESC'>('DESC');
  page = $state(0);
  size = $state(25);
  data = $state<ReportPage | null>(null);
  loading = $state(false);
  exporting = $state(false);
  error = $state<string | null>(null);

  private filter(): ReportFilter {
    const from = dayBoundary(this.from, false);
    const to = dayBoundary(this.to, true);
    return {
      ...(this.agentName.trim() ? { agentName: this.agentName.trim() } : {}),
      ...(this.groupName ? { groupName: this.groupName } : {}),
      ...(this.channelName ? { channelName: this.channelName } : {}),
      ...(this.protocol.trim() ? { protocol: this.protocol.trim() } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
    };
  }

  private query() {
    return { filter: this.filter(), sortColumn: this.sortColumn, direction: this.direction, page: this.page, size: this.size };
  }

  async load(): Promise<void> {
    this.loading = true;
    this.error = null;
    try {
      this.data = await invoke('supervisor:report', this.query());
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
    }
  }

  apply(): Promise<void> {
    this.page = 0;
    return this.load();
  }

  sortBy(column: ReportColumn): Promise<void> {
    if (this.sortColumn === column) this.direction = this.direction === 'ASC' ? 'DESC' : 'ASC';
    else {
      this.sortColumn = column;
      this.direction = 'ASC';
    }
    this.page = 0;
    return this.load();
  }

  go(delta: number): Promise<void> {
    this.page = Math.max(0, this.page + delta);
    return this.load();
  }

  /** Every matching row, as CSV text. */
  async csv(): Promise<string | null> {
    this.exporting = true;
    this.error = null;
    try {
      const all = await invoke('supervisor:reportAll', { ...this.query(), page: 0 });
      return toCsv(REPORT_COLUMNS, all.rows.map((r) => REPORT_COLUMNS.map((c) => r[c])));
    } catch (e) {
      this.error = errorMessage(e);
      return null;
    } finally {
      this.exporting = false;
    }
  }

  reset(): void {
    this.data = null;
    this.page = 0;
    this.error = null;
  }
}

export const report = new ReportStore();
