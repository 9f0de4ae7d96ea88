import { test, expect } from '@playwright/test';
import { instantOf, readingInZone } from '../../../src-shared/concepts';
import { MessageSchema } from '../../../src-shared/schemas';
import { fixedZone, learnedOffset, parseZone } from '../../../src-shared/service-zone';
import { ServiceTime } from '../../../src-main/service/service-time';

/**
 * The one reader of instants (README: "Date-times without an offset"): a date-time written with
 * no offset is wall time in the service's zone, whatever this machine's zone is (the project's
 * tests also run under TZ=America/Sao_Paulo); one with an offset or `Z` says its own instant.
 * Expected instants are written out by hand (the wall time plus the zone's distance from UTC).
 */

const SAO_PAULO = parseZone('America/Sao_Paulo')!;
const KOLKATA = parseZone('+05:30')!;

test('a date-time without an offset is read in the service zone, one with an offset as it says', () => {
  const wall = '2026-11-29T10:15:00';
  // São Paulo is three hours behind UTC in November (no daylight saving since 2019).
  expect(readingInZone(SAO_PAULO, () => instantOf(wall))).toBe('2026-11-29T13:15:00.000Z');
  expect(readingInZone(fixedZone(-180), () => instantOf('2026-11-29 10:15'))).toBe('2026-11-29T13:15:00.000Z');
  expect(readingInZone(KOLKATA, () => instantOf(wall))).toBe('2026-11-29T04:45:00.000Z');
  // Microseconds (Python's isoformat) and a comma for the fraction, read the same way.
  expect(readingInZone(SAO_PAULO, () => instantOf('2026-11-29T10:15:00.123456'))).toBe('2026-11-29T13:15:00.123Z');
  expect(readingInZone(SAO_PAULO, () => instantOf('2026-11-29T10:15:00,5'))).toBe('2026-11-29T13:15:00.500Z');
  // Across midnight: 22:30 in São Paulo is the next day in UTC.
  expect(readingInZone(SAO_PAULO, () => instantOf('2026-11-29T22:30:00'))).toBe('2026-11-30T01:30:00.000Z');

  for (const zone of [SAO_PAULO, KOLKATA, null]) {
    const read = (v: unknown) => readingInZone(zone, () => instantOf(v));
    expect(read('2026-11-29T10:15:00Z')).toBe('2026-11-29T10:15:00.000Z');
    expect(read('2026-11-29T10:15:00.000Z')).toBe('2026-11-29T10:15:00.000Z');
    expect(read('2026-11-29T10:15:00-03:00')).toBe('2026-11-29T13:15:00.000Z');
    expect(read('2026-11-29T10:15:00+0530')).toBe('2026-11-29T04:45:00.000Z');
    expect(read('2026-11-29T10:15:00+05')).toBe('2026-11-29T05:15:00.000Z');
    expect(read('2026-11-29T10:15:00.123456+00:00')).toBe('2026-11-29T10:15:00.123Z');
    // Epoch numbers are instants already.
    expect(read(1_795_940_100)).toBe('2026-11-29T08:15:00.000Z');
    expect(read('1795940100000')).toBe('2026-11-29T08:15:00.000Z');
    // A day alone names a day: midnight UTC, in no one's zone.
    expect(read('2026-11-29')).toBe('2026-11-29T00:00:00.000Z');
  }
  // Outside a service's answer (nothing learned): UTC, the same on every machine.
  expect(instantOf('2026-11-29T10:15:00')).toBe('2026-11-29T10:15:00.000Z');
});

test('a daylight-saving zone set by name reads each date-time with the offset of its own day', () => {
  const ny = parseZone('America/New_York')!;
  expect(readingInZone(ny, () => instantOf('2026-07-01T12:00:00'))).toBe('2026-07-01T16:00:00.000Z');
  expect(readingInZone(ny, () => instantOf('2026-12-01T12:00:00'))).toBe('2026-12-01T17:00:00.000Z');
});

test('what is not an ISO date-time is refused, never read in this machine’s zone', () => {
  for (const bad of [
    '11/29/2026 10:15',
    'Sun Nov 29 2026 10:15:00',
    'yesterday',
    '2026-13-01T10:00:00',
    '2026-11-29T25:00:00',
    '2026-11-29T10',
    '',
    '   ',
    'T10:15',
  ]) {
    expect(
      readingInZone(SAO_PAULO, () => instantOf(bad)),
      bad,
    ).toBeNull();
    expect(instantOf(bad), bad).toBeNull();
  }
  for (const bad of [null, undefined, true, {}, [], Number.NaN]) expect(instantOf(bad)).toBeNull();
  // In a record: the field is absent (one odd field never costs the message), and says so nowhere else.
  const read = readingInZone(SAO_PAULO, () => MessageSchema.safeParse({ id: 1, message: 'hi', createdAt: '29/11/2026 10:15' }));
  expect(read.success).toBe(true);
  expect(read.success && read.data.createdAt).toBeFalsy();
});

test('a record read in the service zone keeps the instant, through the schemas', () => {
  const read = readingInZone(SAO_PAULO, () => MessageSchema.parse({ id: 1, message: 'hi', createdAt: '2026-11-29T10:15:00' }));
  expect(read.createdAt).toBe('2026-11-29T13:15:00.000Z');
});

test('zones are written as people write them; a name that is no zone is refused', () => {
  expect(parseZone('-03:00')?.offsetAt(0)).toBe(-180);
  expect(parseZone('UTC-3')?.offsetAt(0)).toBe(-180);
  expect(parseZone('+0545')?.offsetAt(0)).toBe(345);
  expect(parseZone('utc')?.offsetAt(0)).toBe(0);
  expect(parseZone('America/Sao_Paulo')?.name).toBe('America/Sao_Paulo');
  for (const bad of ['Nowhere/Atlantis', '+15:00', '-03:75', '', 'three hours']) expect(parseZone(bad), bad).toBeNull();
});

test('the offset is the service’s time for a write against the Date header, to the quarter hour', () => {
  const header = Date.parse('Sun, 29 Nov 2026 03:53:02 GMT');
  const wall = (s: string) => Date.parse(`${s}Z`);
  expect(learnedOffset(wall('2026-11-29T00:53:02.512'), header)).toBe(-180);
  // The header's whole seconds and a slow answer: still three hours.
  expect(learnedOffset(wall('2026-11-29T00:52:58.000'), header)).toBe(-180);
  expect(learnedOffset(wall('2026-11-29T09:38:03.100'), header)).toBe(345);
  expect(learnedOffset(wall('2026-11-29T03:53:02.900'), header)).toBe(0);
  // Not "now": an old createdAt, a time 40 minutes off any quarter hour... teach nothing.
  expect(learnedOffset(wall('2026-11-20T11:00:00'), header)).toBeNull();
  expect(learnedOffset(wall('2026-11-29T01:00:02'), header)).toBeNull();
  expect(learnedOffset(wall('2026-11-29T19:53:02'), header)).toBeNull();
});

test('a write’s answer teaches the zone; the setting overrides it; what is sent is written the service’s way', () => {
  const kept: unknown[] = [];
  let setting: string | null = null;
  const time = new ServiceTime({ configured: () => setting, onLearned: (l) => kept.push(l) });
  expect(time.zone).toBeNull();
  const date = 'Sun, 29 Nov 2026 03:53:02 GMT';
  // With an offset: nothing to learn about a zone.
  time.learnFromWrite({ id: 1, updatedAt: '2026-11-29T03:53:02.512Z' }, date);
  expect(time.zone).toBeNull();
  // Before a zone is known, instants go as ISO UTC (as before).
  expect(time.body({ attendedAt: '2026-11-29T03:53:02.512Z' })).toEqual({ attendedAt: '2026-11-29T03:53:02.512Z' });
  // An update whose createdAt is old and whose updatedAt is now.
  time.learnFromWrite({ id: 1, createdAt: '2026-11-01T09:00:00', updatedAt: '2026-11-29T00:53:02.512' }, date);
  expect(time.zone?.offsetAt(0)).toBe(-180);
  expect(kept).toEqual([{ offsetMinutes: -180, wallTime: true }]);
  expect(time.read(() => instantOf('2026-11-29T00:53:02.512'))).toBe('2026-11-29T03:53:02.512Z');
  // Sent back: wall time, no offset, in every date-time of the body; free text is left as typed.
  expect(
    time.body({
      attendedAt: '2026-11-29T03:53:02.512Z',
      message: '2026-11-29T03:53:02.512Z',
      conditions: [{ key: 'createdAt', operator: 'AFTER', value: '2026-11-29T12:00:00.000Z' }],
    }),
  ).toEqual({
    attendedAt: '2026-11-29T00:53:02.512',
    message: '2026-11-29T03:53:02.512Z',
    conditions: [{ key: 'createdAt', operator: 'AFTER', value: '2026-11-29T09:00:00.000' }],
  });
  // The workspace's setting wins over what was learned.
  setting = '+05:30';
  expect(time.read(() => instantOf('2026-11-29T10:15:00'))).toBe('2026-11-29T04:45:00.000Z');
  expect(time.out('2026-11-29T04:45:00.000Z')).toBe('2026-11-29T10:15:00.000');
  // A setting that names no zone is not used: the learned offset stays.
  setting = 'Somewhere/Else';
  expect(time.zone?.offsetAt(0)).toBe(-180);
});
