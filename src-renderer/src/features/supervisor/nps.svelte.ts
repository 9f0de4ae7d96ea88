import type { NpsResult } from '../../../../src-shared/bridge/supervisor';
import { failure, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import type { Sheet } from './sheet';
import { tt } from './strings';

const SURVEY_KEY = 'supervisor.npsSurvey';
/** Surveys the service answered for, most recent first: the interface has no list of surveys. */
const KNOWN_KEY = 'supervisor.npsSurveys';
const MAX_KNOWN = 20;

function storedSurveys(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KNOWN_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string').slice(0, MAX_KNOWN) : [];
  } catch {
    return [];
  }
}

/** Start of a local day (YYYY-MM-DD) as an instant; `end` gives the start of the next day. */
export function dayBoundary(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + (end ? 1 : 0)).toISOString();
}

export class NpsStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  surveyName = $state(localStorage.getItem(SURVEY_KEY) ?? '');
  #known = $state<string[]>(storedSurveys());
  from = $state('');
  to = $state('');
  groupId = $state<number | null>(null);
  #result = $state<NpsResult | null>(null);
  #loading = $state(false);
  #error = $state.raw<Worded | null>(null);

  get known() {
    return this.#known;
  }
  get result() {
    return this.#result;
  }
  get loading() {
    return this.#loading;
  }
  get error() {
    return worded(this.#error);
  }

  async load(): Promise<void> {
    const surveyName = this.surveyName.trim();
    if (!surveyName) return;
    this.#loading = true;
    this.#error = null;
    try {
      const from = dayBoundary(this.from, false);
      const to = dayBoundary(this.to, true);
      this.#result = await this.#scope.invoke('supervisor:nps', {
        surveyName,
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        ...(this.groupId !== null ? { groupId: this.groupId } : {}),
      });
      localStorage.setItem(SURVEY_KEY, surveyName);
      this.#known = [surveyName, ...this.#known.filter((s) => s !== surveyName)].slice(0, MAX_KNOWN);
      localStorage.setItem(KNOWN_KEY, JSON.stringify(this.#known));
    } catch (e) {
      this.#result = null;
      this.#error = failure(e);
    } finally {
      this.#loading = false;
    }
  }

  /**
   * The figures on screen as a sheet: one row for the survey, period and group shown, rounded as
   * shown (the index to one place, the average to two).
   */
  sheet(groupName: string | null): Sheet | null {
    const r = this.#result;
    if (!r) return null;
    return {
      name: `nps-${r.surveyName}`,
      columns: [
        { header: tt('nps.survey'), kind: 'text' },
        { header: tt('sup.from'), kind: 'text' },
        { header: tt('sup.to'), kind: 'text' },
        { header: tt('sup.group'), kind: 'text' },
        { header: tt('nps.index'), kind: 'number', digits: 1 },
        { header: tt('nps.average'), kind: 'number', digits: 2 },
        { header: tt('nps.total'), kind: 'number', digits: 0 },
        { header: tt('nps.positive'), kind: 'number', digits: 0 },
        { header: tt('nps.neutral'), kind: 'number', digits: 0 },
        { header: tt('nps.negative'), kind: 'number', digits: 0 },
      ],
      rows: [
        [
          r.surveyName,
          this.from,
          this.to,
          groupName ?? tt('sup.allGroups'),
          r.npsIndex,
          r.averageNps,
          r.totalCount,
          r.positive,
          r.neutral,
          r.negative,
        ],
      ],
    };
  }
}
