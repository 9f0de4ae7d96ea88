import type { Figures, HourFigures } from '../../../../src-shared/figures';
import type { NpsBreakdown, NpsResult, SurveyAnswer } from '../../../../src-shared/bridge/supervisor';
import type { Sheet, SheetColumn, SheetValue } from './sheet';
import { ft } from './figures-strings';
import { tt } from './strings';

/** The figure columns every table of the view shares, in order. */
export const FIGURE_KEYS = ['sessions', 'waitingMedian', 'waitingP90', 'attendanceMedian', 'attendanceP90', 'withinSla'] as const;
export type FigureKey = (typeof FIGURE_KEYS)[number];

export const figureColumn = (k: FigureKey): SheetColumn => ({
  header: ft(`fig.${k}`),
  kind: k === 'sessions' ? 'number' : k === 'withinSla' ? 'number' : 'duration',
  digits: k === 'sessions' ? 0 : k === 'withinSla' ? 1 : undefined,
});
const figureCells = (f: Figures): SheetValue[] => FIGURE_KEYS.map((k) => f[k]);

export interface FigureBook {
  period: { from: string; to: string };
  previous: { from: string; to: string };
  current: Figures;
  before: Figures;
  nps: { current: NpsResult; previous: NpsResult } | null;
  hourly: readonly HourFigures[];
  daily: ReadonlyArray<{ day: string } & Figures>;
  agents: ReadonlyArray<{ name: string } & Figures>;
  groups: ReadonlyArray<{ name: string } & Figures>;
  /** NPS per attendant and group and the survey answers, when the view shows them. */
  detail: {
    breakdown: NpsBreakdown;
    answers: readonly SurveyAnswer[];
    days: ReadonlyArray<{ day: string; answers: number; nps: number | null }>;
  } | null;
}

/** An NPS table: a name, then the summary's index and counts. */
function npsSheet(name: string, header: string, list: NpsBreakdown['agents']): Sheet {
  return {
    name,
    columns: [
      { header, kind: 'text' },
      { header: ft('fig.nps'), kind: 'number', digits: 1 },
      { header: ft('fig.npsAnswers'), kind: 'number', digits: 0 },
      { header: ft('fig.positive'), kind: 'number', digits: 0 },
      { header: ft('fig.neutral'), kind: 'number', digits: 0 },
      { header: ft('fig.negative'), kind: 'number', digits: 0 },
    ],
    rows: list.map((a) => [a.name, a.result?.npsIndex, a.result?.totalCount, a.result?.positive, a.result?.neutral, a.result?.negative]),
  };
}

/** What the view shows, one sheet per table (the charts' points included), in the interface language. */
export function figureSheets(b: FigureBook): Sheet[] {
  const named = (header: string, list: ReadonlyArray<{ name: string } & Figures>): Pick<Sheet, 'columns' | 'rows'> => ({
    columns: [{ header, kind: 'text' }, ...FIGURE_KEYS.map(figureColumn)],
    rows: list.map((r) => [r.name || ft('fig.noName'), ...figureCells(r)]),
  });
  return [
    {
      name: ft('fig.sheet.figures'),
      columns: [
        { header: ft('fig.figure'), kind: 'text' },
        { header: tt('sup.from'), kind: 'text' },
        { header: tt('sup.to'), kind: 'text' },
        ...FIGURE_KEYS.map(figureColumn),
        { header: ft('fig.nps'), kind: 'number', digits: 1 },
        { header: ft('fig.npsAnswers'), kind: 'number', digits: 0 },
      ],
      rows: [
        [ft('fig.current'), b.period.from, b.period.to, ...figureCells(b.current), b.nps?.current.npsIndex, b.nps?.current.totalCount],
        [
          ft('fig.previous'),
          b.previous.from,
          b.previous.to,
          ...figureCells(b.before),
          b.nps?.previous.npsIndex,
          b.nps?.previous.totalCount,
        ],
      ],
    },
    {
      name: ft('fig.sheet.hourly'),
      columns: [
        { header: ft('fig.hour'), kind: 'number', digits: 0 },
        { header: ft('fig.arrived'), kind: 'number', digits: 0 },
        { header: ft('fig.waiting'), kind: 'number', digits: 0 },
        { header: ft('fig.answered'), kind: 'number', digits: 0 },
      ],
      rows: b.hourly.map((h) => [h.hour, h.arrived, h.waiting, h.answered]),
    },
    {
      name: ft('fig.sheet.trend'),
      columns: [{ header: ft('fig.day'), kind: 'text' }, ...FIGURE_KEYS.map(figureColumn)],
      rows: b.daily.map((d) => [d.day, ...figureCells(d)]),
    },
    { name: ft('fig.sheet.agents'), ...named(ft('fig.agent'), b.agents) },
    { name: ft('fig.sheet.groups'), ...named(ft('fig.group'), b.groups) },
    ...(b.detail
      ? [
          npsSheet(ft('fig.sheet.npsAgents'), ft('fig.agent'), b.detail.breakdown.agents),
          npsSheet(ft('fig.sheet.npsGroups'), ft('fig.group'), b.detail.breakdown.groups),
          {
            name: ft('fig.sheet.npsDays'),
            columns: [
              { header: ft('fig.day'), kind: 'text' as const },
              { header: ft('fig.nps'), kind: 'number' as const, digits: 1 },
              { header: ft('fig.npsAnswers'), kind: 'number' as const, digits: 0 },
            ],
            rows: b.detail.days.map((d) => [d.day, d.nps, d.answers]),
          },
          {
            name: ft('fig.sheet.comments'),
            columns: [
              { header: ft('fig.when'), kind: 'dateTime' as const },
              { header: ft('fig.session'), kind: 'id' as const },
              { header: ft('fig.score'), kind: 'number' as const, digits: 0 },
              { header: ft('fig.comment'), kind: 'text' as const },
            ],
            rows: b.detail.answers.map((a) => [a.at, a.sessionId, a.score, a.comment]),
          },
        ]
      : []),
  ];
}
