import type { Figures, HourFigures } from '../../../../src-shared/figures';
import type { NpsResult } from '../../../../src-shared/bridge/supervisor';
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
  ];
}
