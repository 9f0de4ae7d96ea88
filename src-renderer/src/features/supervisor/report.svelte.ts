import type { ReportColumn, ReportFilter, ReportPage } from '../../../../src-shared/bridge/supervisor';
import { failure } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { ServerPagedStore } from './paged.svelte';
import type { Sheet, SheetKind } from './sheet';
import { dayBoundary } from './nps.svelte';
import { enumLabel, knownLabel } from '../../lib/enums';
import { tt } from './strings';

// The bridge module carries zod; the renderer keeps to its types, so the column list is typed here.
export const REPORT_COLUMNS = [
  'protocol',
  'agentName',
  'groupName',
  'channelName',
  'createdAtProtocol',
  'closedAtProtocol',
  'waitingTime',
  'attendanceTime',
  'protocolDuration',
  'lastStatus',
] as const satisfies readonly ReportColumn[];

/** How a spreadsheet should read each column. */
export const REPORT_KINDS: Record<(typeof REPORT_COLUMNS)[number], SheetKind> = {
  protocol: 'id',
  agentName: 'text',
  groupName: 'text',
  channelName: 'text',
  createdAtProtocol: 'dateTime',
  closedAtProtocol: 'dateTime',
  waitingTime: 'duration',
  attendanceTime: 'duration',
  protocolDuration: 'duration',
  lastStatus: 'text',
};

/** Codes in a row (status, channel) as the interface language words them; other cells as sent. */
export function reportWord(c: ReportColumn, v: string | number | null | undefined): string | number | null {
  if (v === null || v === undefined) return null;
  if (c === 'lastStatus') return enumLabel(String(v));
  if (c === 'channelName') return knownLabel(String(v));
  return v;
}

/** The attendance time report: filters, sort and paging run on the service. */
export class ReportStore extends ServerPagedStore<ReportColumn, ReportPage> {
  agentName = $state('');
  groupName = $state('');
  channelName = $state('');
  protocol = $state('');
  from = $state('');
  to = $state('');
  #exporting = $state(false);

  get exporting() {
    return this.#exporting;
  }

  readonly #scope: Scope;
  constructor(scope: Scope) {
    super({ sortColumn: 'createdAtProtocol', direction: 'DESC', size: 25, clearOnError: false });
    this.#scope = scope;
  }

  #filter(): ReportFilter {
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

  #query() {
    return {
      filter: this.#filter(),
      sortColumn: this.sortColumn ?? 'createdAtProtocol',
      direction: this.direction,
      page: this.page,
      size: this.size,
    };
  }

  protected fetch(): Promise<ReportPage> {
    return this.#scope.invoke('supervisor:report', this.#query());
  }

  apply(): Promise<void> {
    return this.restart();
  }

  /** Every matching row, as a sheet with the interface language's headers and words. */
  async sheet(): Promise<Sheet | null> {
    this.#exporting = true;
    this.fail(null);
    try {
      const all = await this.#scope.invoke('supervisor:reportAll', { ...this.#query(), page: 0 });
      return {
        name: tt('report.fileName'),
        columns: REPORT_COLUMNS.map((c) => ({ header: tt(`report.col.${c}`), kind: REPORT_KINDS[c] })),
        rows: all.rows.map((r) => REPORT_COLUMNS.map((c) => reportWord(c, r[c]))),
      };
    } catch (e) {
      this.fail(failure(e));
      return null;
    } finally {
      this.#exporting = false;
    }
  }
}
