import type { FiguresRead, NpsBreakdown, NpsResult, SurveyAnswer } from '../../../../src-shared/bridge/supervisor';
import {
  daily,
  daysOf,
  figuresBy,
  figuresOf,
  hourly,
  localClock,
  npsDaily,
  previousPeriod,
  rowsWithin,
  type Figures,
} from '../../../../src-shared/figures';
import { failure, type Worded, worded } from '../../lib/bridge';
import type { Scope } from '../../lib/scope.svelte';
import { ReadRetry } from '../../lib/read-retry.svelte';
import { dateInputValue } from '../../lib/format';
import { dayBoundary } from './nps.svelte';

const SURVEY_KEY = 'supervisor.npsSurvey';
const KNOWN_KEY = 'supervisor.npsSurveys';
/** Days shown at first: the last 30, today included. */
const FIRST_DAYS = 30;

const dayOf = dateInputValue;

function knownSurveys(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KNOWN_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/** What a shown overview was asked for: the figures follow it, not the inputs being edited. */
interface Shown {
  from: string;
  to: string;
  previous: { from: string; to: string };
  groupName: string;
  surveyName: string;
}

/**
 * The overview, per attendant, per group and the trend of a period: one read of the report rows
 * (this period and the one before) kept in the main process, every figure computed here from it
 * (src-shared/figures.ts), the NPS summary of both periods for the survey and group chosen.
 */
export class FiguresStore {
  readonly #scope: Scope;
  constructor(scope: Scope) {
    this.#scope = scope;
    const today = new Date();
    const first = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (FIRST_DAYS - 1));
    this.from = dayOf(first);
    this.to = dayOf(today);
  }

  from = $state('');
  to = $state('');
  groupName = $state('');
  surveyName = $state(localStorage.getItem(SURVEY_KEY) ?? knownSurveys()[0] ?? '');
  #read = $state.raw<FiguresRead | null>(null);
  #shown = $state.raw<Shown | null>(null);
  #nps = $state.raw<{ current: NpsResult; previous: NpsResult } | null>(null);
  #npsError = $state.raw<Worded | null>(null);
  #loading = $state(false);
  #error = $state.raw<Worded | null>(null);
  #detail = $state.raw<{ breakdown: NpsBreakdown; answers: SurveyAnswer[]; truncated: boolean } | null>(null);
  #detailLoading = $state(false);
  #detailError = $state.raw<Worded | null>(null);
  /** NPS pairs read, per period, group and survey: choosing one again reads nothing. */
  readonly #npsKept = new Map<string, { current: NpsResult; previous: NpsResult }>();

  get loading() {
    return this.#loading;
  }
  get error() {
    return worded(this.#error);
  }
  /** When the figures that could not be read are asked again by itself (ms since epoch), or null. */
  get retryAt() {
    return this.#retry.at;
  }
  readonly #retry = new ReadRetry();

  /** Nothing is read again by itself (the view left). */
  stopRetry(): void {
    this.#retry.stop();
  }

  /** The workspace closed. */
  dispose(): void {
    this.#retry.stop();
  }
  get npsError() {
    return worded(this.#npsError);
  }
  get read() {
    return this.#read;
  }
  get shown() {
    return this.#shown;
  }
  get nps() {
    return this.#nps;
  }
  /** NPS per attendant and per group, and the period's survey answers (asked for apart: they cost a summary each). */
  get detail() {
    return this.#detail;
  }
  /** NPS per day of the period from the survey answers' scores (the trend), once they are read. */
  readonly #npsDays = $derived.by(() => {
    const d = this.#detail,
      shown = this.#shown;
    return d && shown ? npsDaily(d.answers, daysOf(shown.from, shown.to), localClock) : null;
  });
  get npsDays() {
    return this.#npsDays;
  }
  get detailLoading() {
    return this.#detailLoading;
  }
  get detailError() {
    return worded(this.#detailError);
  }
  /** Surveys the service answered for before on this machine. */
  get surveys(): string[] {
    const known = knownSurveys();
    return this.surveyName && !known.includes(this.surveyName) ? [this.surveyName, ...known] : known;
  }

  /** The groups of the rows read (the picker's choices): no read of its own. */
  readonly #groupNames = $derived((this.#read?.slas ?? []).map((s) => s.groupName).sort((a, b) => a.localeCompare(b)));
  get groupNames(): string[] {
    return this.#groupNames;
  }

  readonly #slas = $derived(new Map((this.#read?.slas ?? []).map((s) => [s.groupName, s])));
  readonly slaOf = (groupName: string | null): number | null => (groupName ? (this.#slas.get(groupName)?.slaSeconds ?? null) : null);

  readonly #rows = $derived.by(() => {
    const read = this.#read,
      shown = this.#shown;
    if (!read || !shown) return null;
    const rows = shown.groupName ? read.rows.filter((r) => r.groupName === shown.groupName) : read.rows;
    return {
      current: rowsWithin(rows, shown.from, shown.to, localClock),
      previous: rowsWithin(rows, shown.previous.from, shown.previous.to, localClock),
    };
  });

  readonly #figures = $derived.by(() => {
    const rows = this.#rows,
      shown = this.#shown;
    if (!rows || !shown) return null;
    return {
      current: figuresOf(rows.current, this.slaOf),
      previous: figuresOf(rows.previous, this.slaOf),
      hourly: hourly(rows.current, localClock),
      daily: daily(rows.current, daysOf(shown.from, shown.to), localClock, this.slaOf),
      agents: figuresBy(rows.current, 'agentName', this.slaOf),
      groups: figuresBy(rows.current, 'groupName', this.slaOf),
    };
  });

  get figures(): {
    current: Figures;
    previous: Figures;
    hourly: ReturnType<typeof hourly>;
    daily: ReturnType<typeof daily>;
    agents: ReturnType<typeof figuresBy>;
    groups: ReturnType<typeof figuresBy>;
  } | null {
    return this.#figures;
  }

  /** Shows the period asked; the rows come from what was read for it unless `refresh`. */
  async load(refresh = false): Promise<void> {
    const from = this.from,
      to = this.to;
    const previous = previousPeriod(from, to);
    const start = dayBoundary(previous.from, false);
    const end = dayBoundary(to, true);
    if (!start || !end || from > to) return;
    this.#loading = true;
    this.#retry.stop();
    try {
      const read = await this.#scope.invoke('supervisor:figures', { from: start, to: end, refresh });
      this.#error = null;
      this.#retry.reset();
      const shown: Shown = { from, to, previous, groupName: this.groupName, surveyName: this.surveyName.trim() };
      this.#read = read;
      this.#shown = shown;
      this.#detail = null;
      await this.#loadNps(shown, read, refresh);
    } catch (e) {
      // The figures shown stay; the period is read again by itself.
      this.#error = failure(e);
      this.#retry.failedCall(e, () => void this.load(refresh));
    } finally {
      this.#loading = false;
    }
  }

  /** NPS per attendant and group of the period shown, and its survey answers newest first (the group chosen kept). */
  async loadDetail(): Promise<void> {
    const shown = this.#shown,
      read = this.#read,
      f = this.#figures;
    if (!shown || !read || !f || !shown.surveyName) return;
    this.#detailLoading = true;
    this.#detailError = null;
    try {
      const from = dayBoundary(shown.from, false)!;
      const to = dayBoundary(shown.to, true)!;
      const groups = read.slas.flatMap((s) =>
        s.groupId !== null && (!shown.groupName || s.groupName === shown.groupName) ? [{ name: s.groupName, id: s.groupId }] : [],
      );
      const [breakdown, got] = await Promise.all([
        this.#scope.invoke('supervisor:npsBreakdown', {
          surveyName: shown.surveyName,
          from,
          to,
          agents: f.agents.map((a) => a.name).filter((n) => n !== ''),
          groups,
        }),
        this.#scope.invoke('supervisor:surveyAnswers', { from, to, refresh: false }),
      ]);
      // Chat answers carry no group: the list is the period's, whatever group is chosen (the view says so).
      this.#detail = { breakdown, answers: got.answers, truncated: got.truncated };
    } catch (e) {
      this.#detailError = failure(e);
    } finally {
      this.#detailLoading = false;
    }
  }

  async #loadNps(shown: Shown, read: FiguresRead, refresh: boolean): Promise<void> {
    this.#npsError = null;
    this.#nps = null;
    if (!shown.surveyName) return;
    const groupId = shown.groupName ? read.slas.find((s) => s.groupName === shown.groupName)?.groupId : undefined;
    const key = JSON.stringify([shown.from, shown.to, shown.groupName, shown.surveyName]);
    const kept = refresh ? undefined : this.#npsKept.get(key);
    if (kept) {
      this.#nps = kept;
      return;
    }
    const ask = (from: string, to: string) =>
      this.#scope.invoke('supervisor:nps', {
        surveyName: shown.surveyName,
        from: dayBoundary(from, false)!,
        to: dayBoundary(to, true)!,
        ...(groupId !== undefined && groupId !== null ? { groupId } : {}),
      });
    try {
      const [current, previous] = await Promise.all([ask(shown.from, shown.to), ask(shown.previous.from, shown.previous.to)]);
      this.#nps = { current, previous };
      this.#npsKept.set(key, this.#nps);
      localStorage.setItem(SURVEY_KEY, shown.surveyName);
      localStorage.setItem(
        KNOWN_KEY,
        JSON.stringify([shown.surveyName, ...knownSurveys().filter((s) => s !== shown.surveyName)].slice(0, 20)),
      );
    } catch (e) {
      this.#npsError = failure(e);
    }
  }
}
