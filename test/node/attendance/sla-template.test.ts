import { expect, test } from '@playwright/test';
import { DEFAULT_WARNING_RATIO, slaChangesAt, slaDue, slaSecondsOf, slaState, warningRatioOf } from '../../../src-shared/sla';
import { waitDuration, waitDurationChangesIn } from '../../../src-renderer/src/lib/digits';
import { fillTemplate, templateValues } from '../../../src-shared/template';
import { toQueueItem } from '../../../src-main/queue';
import { toGroupInfo } from '../../../src-main/features/attendance/project';
import { readRecord } from '../../../src-shared/envelopes';
import { SessionSchema } from '../../../src-shared/schemas/index';

/** A session as the console reads it: through its schema. */
function read(raw: Record<string, unknown>) {
  const got = readRecord(SessionSchema, raw, 'userSession');
  if (!got.ok) throw new Error(JSON.stringify(got.skip));
  return got.record;
}

const START = '2026-11-23T10:00:00Z';
const at = (minutes: number) => Date.parse(START) + minutes * 60_000;

test("an SLA in any of the interface's units; a group without a unit counts minutes, without an SLA has none", () => {
  expect(slaSecondsOf(30, 'MINUTES')).toBe(1800);
  expect(slaSecondsOf(2, 'HOURS')).toBe(7200);
  expect(slaSecondsOf(1, 'DAYS')).toBe(86400);
  expect(slaSecondsOf(90, 'SECONDS')).toBe(90);
  expect(slaSecondsOf(1500, 'MILLISECONDS')).toBe(1.5);
  expect(slaSecondsOf(10, undefined)).toBe(600);
  expect(slaSecondsOf(10, 'FORTNIGHTS')).toBe(600);
  expect(slaSecondsOf(null, 'MINUTES')).toBeNull();
  expect(slaSecondsOf('10', 'MINUTES')).toBeNull();
  // The warning ratio is a percent of the SLA; anything else is the default.
  expect([warningRatioOf(50), warningRatioOf(100), warningRatioOf(0), warningRatioOf(150), warningRatioOf('70')]).toEqual([
    50,
    100,
    DEFAULT_WARNING_RATIO,
    DEFAULT_WARNING_RATIO,
    DEFAULT_WARNING_RATIO,
  ]);
});

test("a session's SLA state follows its own group's warning ratio: green, then amber past the ratio, red past the SLA", () => {
  const strict = { createdAt: START, slaSeconds: 600, slaWarningRatio: 50 };
  const loose = { createdAt: START, slaSeconds: 600, slaWarningRatio: 90 };
  const unsaid = { createdAt: START, slaSeconds: 600 };
  // Six minutes of ten: amber for a group warning at 50 %, green for one warning at 90 % (and at the default 80 %).
  expect([slaState(strict, at(6)).state, slaState(loose, at(6)).state, slaState(unsaid, at(6)).state]).toEqual(['amber', 'green', 'green']);
  expect([slaState(strict, at(4)).state, slaState(loose, at(9.5)).state, slaState(unsaid, at(8)).state]).toEqual([
    'green',
    'amber',
    'amber',
  ]);
  expect(slaState(loose, at(10)).state).toBe('red');
  expect(slaState(loose, at(4)).leftSeconds).toBe(360);
  expect(slaState(loose, at(12)).leftSeconds).toBe(-120);
  expect(slaState({ createdAt: START, slaSeconds: null }, at(60)).state).toBe('none');
  expect(slaState({ createdAt: null, slaSeconds: 600 }, at(60)).state).toBe('none');
  expect([slaDue(strict), slaDue({ createdAt: START, slaSeconds: null })]).toEqual([at(10), Infinity]);
});

test("a row's wait changes what it shows only when its minute (its second in the first minute) or its SLA colour changes, and the page is told when", () => {
  expect([0, 59.9, 60, 61, 3599, 3600, 3660, 86_400].map(waitDuration)).toEqual([
    '0s',
    '59s',
    '1m',
    '1m',
    '59m',
    '1h 00m',
    '1h 01m',
    '1d 0h',
  ]);
  // Each wait is shown the same up to the moment named, and otherwise from it.
  for (const secs of [0, 12.5, 59.2, 60, 95, 3599.5, 7300, 90_000]) {
    const next = secs + waitDurationChangesIn(secs);
    expect(waitDuration(next - 0.001), `${secs}`).toBe(waitDuration(secs));
    expect(waitDuration(next), `${secs}`).not.toBe(waitDuration(secs));
  }
  // Ten minutes of SLA warning at 80 %: amber from minute 8, red from minute 10, then nothing more.
  const s = { createdAt: START, slaSeconds: 600, slaWarningRatio: 80 };
  expect(slaChangesAt(s, at(1))).toBe(at(8));
  expect(slaState(s, at(8) - 1).state).toBe('green');
  expect(slaState(s, at(8)).state).toBe('amber');
  expect(slaChangesAt(s, at(8))).toBe(at(10));
  expect(slaState(s, at(10)).state).toBe('red');
  expect(slaChangesAt(s, at(10))).toBe(Infinity);
  expect(slaChangesAt({ createdAt: START, slaSeconds: null }, at(1))).toBe(Infinity);
});

test("the queue and the directory read a group's SLA and warning ratio by the one rule", () => {
  const group = { id: 3, name: 'Financeiro', sla: 2, timeUnit: 'HOURS', warningRatio: 60 };
  const item = toQueueItem(read({ id: 9, status: 'OPEN', createdAt: START, groupConf: group, user: { id: 1, name: 'Carla' } }));
  expect([item?.slaSeconds, item?.slaWarningRatio]).toEqual([7200, 60]);
  expect(toGroupInfo(group)).toMatchObject({ slaSeconds: 7200, warningRatio: 60 });
  // A group named without its configuration: no SLA, so no ratio either.
  const bare = toQueueItem(read({ id: 10, status: 'OPEN', createdAt: START, groupConf: { id: 3, name: 'Financeiro' } }));
  expect([bare?.slaSeconds, bare && 'slaWarningRatio' in bare]).toEqual([null, false]);
});

test('a template is filled in parameter order; the preview marks what is missing, the send needs every value', () => {
  const template = 'Olá {{1}}, seu pedido {{2}} saiu. {{1}}, obrigado!';
  expect(fillTemplate(template, ['Carla', 'PED-184471'])).toBe('Olá Carla, seu pedido PED-184471 saiu. Carla, obrigado!');
  expect(fillTemplate(template, [' Carla '], (n) => `[Parameter ${n}]`)).toBe('Olá Carla, seu pedido [Parameter 2] saiu. Carla, obrigado!');
  expect(fillTemplate(template, ['Carla', '  '])).toBe('Olá Carla, seu pedido {{2}} saiu. Carla, obrigado!');
  expect(templateValues(2, [' Carla ', 'PED-1'])).toEqual(['Carla', 'PED-1']);
  expect(templateValues(2, ['Carla', ' '])).toBeNull();
  expect(templateValues(2, ['Carla'])).toBeNull();
  expect(templateValues(0, [])).toEqual([]);
});
