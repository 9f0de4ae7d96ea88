import { test, expect } from '@playwright/test';
import {
  daily,
  daysOf,
  figuresBy,
  figuresOf,
  hourly,
  median,
  npsDaily,
  percentile,
  previousPeriod,
  rowsWithin,
  zoneClock,
  type FigureRow,
} from '../../../src-shared/figures';
import { scoreOf, surveyAnswers } from '../../../src-main/features/supervisor/figures';

const row = (at: string, waitingTime: number | null, attendanceTime: number | null, groupName = 'A', agentName = 'Ana'): FigureRow => ({
  agentName,
  groupName,
  createdAtProtocol: at,
  waitingTime,
  attendanceTime,
});
const utc = zoneClock('UTC');
const sla = (g: string | null) => (g === 'A' ? 60 : g === 'B' ? 300 : null);

test('median is the middle value (the mean of the two middle ones), p90 the nearest rank; none gives null', () => {
  expect(median([])).toBeNull();
  expect(percentile([], 90)).toBeNull();
  expect(median([5])).toBe(5);
  expect(median([9, 1, 5])).toBe(5);
  expect(median([4, 1, 3, 2])).toBe(2.5);
  const ten = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];
  expect(percentile(ten, 90)).toBe(9);
  expect(percentile(ten, 100)).toBe(10);
  expect(percentile([7], 90)).toBe(7);
  expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 90)).toBe(10);
});

test('figures: counts, medians, p90 and the share within the group SLA (groups without an SLA not counted)', () => {
  const rows = [
    row('2026-01-01T10:00:00Z', 30, 100, 'A'),
    row('2026-01-01T10:10:00Z', 90, 300, 'A'),
    row('2026-01-01T11:00:00Z', 200, 200, 'B'),
    row('2026-01-01T12:00:00Z', 50, null, 'C'),
    row('2026-01-01T12:30:00Z', null, 400, 'A'),
  ];
  const f = figuresOf(rows, sla);
  expect(f.sessions).toBe(5);
  expect(f.waitingMedian).toBe(70);
  expect(f.waitingP90).toBe(200);
  expect(f.attendanceMedian).toBe(250);
  expect(f.attendanceP90).toBe(400);
  // A: 30 within, 90 late; B: 200 within; C has no SLA; the row without a wait is not counted.
  expect(f.slaCounted).toBe(3);
  expect(f.withinSla).toBeCloseTo(200 / 3);
  expect(figuresOf([], sla)).toMatchObject({ sessions: 0, waitingMedian: null, withinSla: null, slaCounted: 0 });

  const byGroup = figuresBy(rows, 'groupName', sla);
  expect(byGroup.map((g) => [g.name, g.sessions])).toEqual([
    ['A', 3],
    ['B', 1],
    ['C', 1],
  ]);
  expect(byGroup[0]!.withinSla).toBe(50);
});

test('per hour: arrivals by start, answers by start plus wait, waits once per clock hour they touch', () => {
  const rows = [
    row('2026-01-01T09:50:00Z', 20 * 60, 10),
    row('2026-01-02T09:05:00Z', 60, 10),
    row('2026-01-01T23:59:00Z', 120, 10),
    row('2026-01-01T14:00:00Z', 0, 10),
    row('2026-01-01T15:00:00Z', 3 * 3600, 10),
  ];
  const h = hourly(rows, utc);
  expect(h).toHaveLength(24);
  expect(h[9]).toEqual({ hour: 9, arrived: 2, waiting: 2, answered: 1 });
  expect(h[10]).toEqual({ hour: 10, arrived: 0, waiting: 1, answered: 1 });
  expect(h[23]!.waiting).toBe(1);
  expect(h[0]).toEqual({ hour: 0, arrived: 0, waiting: 1, answered: 1 });
  // No wait: answered in its hour, never waiting.
  expect(h[14]).toEqual({ hour: 14, arrived: 1, waiting: 0, answered: 1 });
  // Three hours exactly: waits through 15, 16, 17 and is answered at 18:00.
  expect([h[15]!.waiting, h[16]!.waiting, h[17]!.waiting, h[18]!.waiting, h[18]!.answered]).toEqual([1, 1, 1, 0, 1]);
  // São Paulo's clock puts the same instants three hours earlier.
  expect(hourly(rows, zoneClock('America/Sao_Paulo'))[6]!.arrived).toBe(2);
});

test('periods: every day once, across a month and a clock change; the previous period has the same length', () => {
  expect(daysOf('2026-01-30', '2026-02-02')).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02']);
  expect(daysOf('2026-03-01', '2026-03-31')).toHaveLength(31);
  expect(daysOf('2026-01-02', '2026-01-01')).toEqual([]);
  expect(previousPeriod('2026-03-01', '2026-03-31')).toEqual({ from: '2026-01-29', to: '2026-02-28' });
  expect(previousPeriod('2026-01-01', '2026-01-01')).toEqual({ from: '2025-12-31', to: '2025-12-31' });
});

test('per day: one point per day of the period, empty days included; rows outside the period left out', () => {
  const rows = [row('2026-01-01T10:00:00Z', 30, 100), row('2026-01-01T20:00:00Z', 90, 300), row('2026-01-03T08:00:00Z', 10, 50)];
  const days = daysOf('2026-01-01', '2026-01-04');
  const d = daily(rows, days, utc, sla);
  expect(d.map((p) => [p.day, p.sessions])).toEqual([
    ['2026-01-01', 2],
    ['2026-01-02', 0],
    ['2026-01-03', 1],
    ['2026-01-04', 0],
  ]);
  expect(d[0]!.waitingMedian).toBe(60);
  expect(d[1]!.waitingMedian).toBeNull();
  expect(rowsWithin(rows, '2026-01-02', '2026-01-03', utc)).toHaveLength(1);
  // 20:00 UTC on the 1st is still the 1st in São Paulo; 08:00 UTC on the 3rd is 05:00 there.
  expect(rowsWithin(rows, '2026-01-03', '2026-01-03', zoneClock('America/Sao_Paulo'))).toHaveLength(1);
});

test('survey answers: one entry per session, its 0–10 score and its words, newest first; other numbers are words', () => {
  const got = surveyAnswers([
    { sessionId: 1, value: '9', createdAt: '2026-01-01T10:00:00Z' },
    { sessionId: 1, value: ' Rápido. ', createdAt: '2026-01-01T10:00:30Z' },
    { sessionId: 2, value: '3', createdAt: '2026-01-02T10:00:00Z' },
    { sessionId: 3, value: '11', createdAt: '2026-01-01T09:00:00Z' },
    { sessionId: null, value: '10', createdAt: '2026-01-03T10:00:00Z' },
    { sessionId: 4, value: '', createdAt: '2026-01-01T08:00:00Z' },
  ]);
  expect(got).toEqual([
    { sessionId: 2, at: '2026-01-02T10:00:00Z', score: 3, comment: null },
    { sessionId: 1, at: '2026-01-01T10:00:00Z', score: 9, comment: 'Rápido.' },
    { sessionId: 3, at: '2026-01-01T09:00:00Z', score: null, comment: '11' },
    { sessionId: 4, at: '2026-01-01T08:00:00Z', score: null, comment: null },
  ]);
  // NPS per day from those scores, on the clock's days; a day without a score has none.
  expect(npsDaily(got, ['2026-01-01', '2026-01-02', '2026-01-03'], utc)).toEqual([
    { day: '2026-01-01', answers: 1, nps: 100 },
    { day: '2026-01-02', answers: 1, nps: -100 },
    { day: '2026-01-03', answers: 0, nps: null },
  ]);
  expect([scoreOf('0'), scoreOf('10'), scoreOf('10.5'), scoreOf('abc'), scoreOf(null)]).toEqual([0, 10, null, null, null]);
});
