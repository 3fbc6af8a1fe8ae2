import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSchedule } from '../../../../sandbox/controllers/cronjob/schedule';

const iso = (ms: number | undefined): string | undefined =>
  ms === undefined ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z');

/** The next `n` activations after `from`. */
function nextN(spec: string, from: string, n = 3): (string | undefined)[] {
  const s = parseSchedule(spec);
  const out: (string | undefined)[] = [];
  let t: number | undefined = Date.parse(from);
  for (let i = 0; i < n && t !== undefined; i++) out.push(iso((t = s.next(t))));
  return out;
}

// 2026-01-01 is a Thursday.
const FROM = '2026-01-01T00:00:00Z';

describe('cron schedule', () => {
  const table: [string, string[]][] = [
    ['* * * * *', ['2026-01-01T00:01:00Z', '2026-01-01T00:02:00Z', '2026-01-01T00:03:00Z']],
    ['*/5 * * * *', ['2026-01-01T00:05:00Z', '2026-01-01T00:10:00Z', '2026-01-01T00:15:00Z']],
    ['7 * * * *', ['2026-01-01T00:07:00Z', '2026-01-01T01:07:00Z', '2026-01-01T02:07:00Z']],
    ['0 9-11 * * *', ['2026-01-01T09:00:00Z', '2026-01-01T10:00:00Z', '2026-01-01T11:00:00Z']],
    ['15,45 6 * * *', ['2026-01-01T06:15:00Z', '2026-01-01T06:45:00Z', '2026-01-02T06:15:00Z']],
    ['10-50/20 * * * *', ['2026-01-01T00:10:00Z', '2026-01-01T00:30:00Z', '2026-01-01T00:50:00Z']],
    ['30/15 * * * *', ['2026-01-01T00:30:00Z', '2026-01-01T00:45:00Z', '2026-01-01T01:30:00Z']],
    ['0 0 * * MON', ['2026-01-05T00:00:00Z', '2026-01-12T00:00:00Z', '2026-01-19T00:00:00Z']],
    ['0 0 * * mon-wed', ['2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z', '2026-01-07T00:00:00Z']],
    ['0 0 1 JAN,jul *', ['2026-07-01T00:00:00Z', '2027-01-01T00:00:00Z', '2027-07-01T00:00:00Z']],
    ['0 12 ? * SUN', ['2026-01-04T12:00:00Z', '2026-01-11T12:00:00Z', '2026-01-18T12:00:00Z']],
    // Day-of-month and day-of-week both restricted: either matches (the 13th, or any Friday).
    ['0 0 13 * 5', ['2026-01-02T00:00:00Z', '2026-01-09T00:00:00Z', '2026-01-13T00:00:00Z']],
    ['0 0 31 * *', ['2026-01-31T00:00:00Z', '2026-03-31T00:00:00Z', '2026-05-31T00:00:00Z']],
    ['0 0 29 2 *', ['2028-02-29T00:00:00Z', '2032-02-29T00:00:00Z', '2036-02-29T00:00:00Z']],
    ['@hourly', ['2026-01-01T01:00:00Z', '2026-01-01T02:00:00Z', '2026-01-01T03:00:00Z']],
    ['@daily', ['2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z']],
    ['@midnight', ['2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z']],
    ['@weekly', ['2026-01-04T00:00:00Z', '2026-01-11T00:00:00Z', '2026-01-18T00:00:00Z']],
    ['@monthly', ['2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z']],
    ['@yearly', ['2027-01-01T00:00:00Z', '2028-01-01T00:00:00Z', '2029-01-01T00:00:00Z']],
    ['@annually', ['2027-01-01T00:00:00Z', '2028-01-01T00:00:00Z', '2029-01-01T00:00:00Z']],
    ['@every 90s', ['2026-01-01T00:01:30Z', '2026-01-01T00:03:00Z', '2026-01-01T00:04:30Z']],
    ['@every 1h30m', ['2026-01-01T01:30:00Z', '2026-01-01T03:00:00Z', '2026-01-01T04:30:00Z']],
  ];
  for (const [spec, want] of table) {
    test(spec, () => {
      assert.deepEqual(nextN(spec, FROM), want);
    });
  }

  test('the next activation is strictly after the given time, from any second within a minute', () => {
    const s = parseSchedule('*/5 * * * *');
    assert.equal(iso(s.next(Date.parse('2026-01-01T00:05:00Z'))), '2026-01-01T00:10:00Z');
    assert.equal(iso(s.next(Date.parse('2026-01-01T00:04:59Z'))), '2026-01-01T00:05:00Z');
  });

  test('invalid schedules throw robfig’s message', () => {
    assert.throws(() => parseSchedule('61 * * * *'), { message: 'end of range (61) above maximum (59): 61' });
    assert.throws(() => parseSchedule('* * *'), { message: 'expected exactly 5 fields, found 3: [* * *]' });
    assert.throws(() => parseSchedule('@fortnightly'), { message: 'unrecognized descriptor: @fortnightly' });
  });
});

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** upstream getTime's layouts ("Mon Jan 2 15:04 2006", with seconds and fractions too), read in UTC. */
function goTime(value: string): number | undefined {
  if (value === '') return undefined;
  const [, month, day, clock, year] = value.split(' ');
  const [h, m, s = '0'] = clock.split(':');
  return Date.UTC(Number(year), MONTH_NAMES.indexOf(month), Number(day), Number(h), Number(m)) + Number(s) * 1000;
}

describe('robfig/cron v3 spec_test.go: TestActivation (ParseStandard)', () => {
  const cases: Array<[time: string, spec: string, expected: boolean]> = [
    // Every fifteen minutes.
    ['Mon Jul 9 15:00 2012', '0/15 * * * *', true],
    ['Mon Jul 9 15:45 2012', '0/15 * * * *', true],
    ['Mon Jul 9 15:40 2012', '0/15 * * * *', false],
    // Every fifteen minutes, starting at 5 minutes.
    ['Mon Jul 9 15:05 2012', '5/15 * * * *', true],
    ['Mon Jul 9 15:20 2012', '5/15 * * * *', true],
    ['Mon Jul 9 15:50 2012', '5/15 * * * *', true],
    // Named months
    ['Sun Jul 15 15:00 2012', '0/15 * * Jul *', true],
    ['Sun Jul 15 15:00 2012', '0/15 * * Jun *', false],
    // Everything set.
    ['Sun Jul 15 08:30 2012', '30 08 ? Jul Sun', true],
    ['Sun Jul 15 08:30 2012', '30 08 15 Jul ?', true],
    ['Mon Jul 16 08:30 2012', '30 08 ? Jul Sun', false],
    ['Mon Jul 16 08:30 2012', '30 08 15 Jul ?', false],
    // Predefined schedules
    ['Mon Jul 9 15:00 2012', '@hourly', true],
    ['Mon Jul 9 15:04 2012', '@hourly', false],
    ['Mon Jul 9 15:00 2012', '@daily', false],
    ['Mon Jul 9 00:00 2012', '@daily', true],
    ['Mon Jul 9 00:00 2012', '@weekly', false],
    ['Sun Jul 8 00:00 2012', '@weekly', true],
    ['Sun Jul 8 01:00 2012', '@weekly', false],
    ['Sun Jul 8 00:00 2012', '@monthly', false],
    ['Sun Jul 1 00:00 2012', '@monthly', true],
    // Test interaction of DOW and DOM. If both are restricted, then only one needs to match.
    ['Sun Jul 15 00:00 2012', '* * 1,15 * Sun', true],
    ['Fri Jun 15 00:00 2012', '* * 1,15 * Sun', true],
    ['Wed Aug 1 00:00 2012', '* * 1,15 * Sun', true],
    ['Sun Jul 15 00:00 2012', '* * */10 * Sun', true],
    // However, if one has a star, then both need to match.
    ['Sun Jul 15 00:00 2012', '* * * * Mon', false],
    ['Mon Jul 9 00:00 2012', '* * 1,15 * *', false],
    ['Sun Jul 15 00:00 2012', '* * 1,15 * *', true],
    ['Sun Jul 15 00:00 2012', '* * */2 * Sun', true],
  ];
  for (const [time, spec, expected] of cases) {
    test(`${spec} ${expected ? 'fires' : 'does not fire'} at ${time}`, () => {
      const at = goTime(time)!;
      assert.equal(parseSchedule(spec).next(at - 1000) === at, expected);
    });
  }
});

describe('robfig/cron v3 spec_test.go: TestNext and TestErrors', () => {
  // Upstream's cases in its seconds parser with a 0 seconds field, given in five fields; its TZ and
  // daylight-saving cases are left out (the sandbox computes in UTC), as are non-zero seconds fields.
  const cases: Array<[time: string, spec: string, expected: string]> = [
    // Simple cases
    ['Mon Jul 9 14:45 2012', '0/15 * * * *', 'Mon Jul 9 15:00 2012'],
    ['Mon Jul 9 14:59 2012', '0/15 * * * *', 'Mon Jul 9 15:00 2012'],
    ['Mon Jul 9 14:59:59 2012', '0/15 * * * *', 'Mon Jul 9 15:00 2012'],
    // Wrap around hours
    ['Mon Jul 9 15:45 2012', '20-35/15 * * * *', 'Mon Jul 9 16:20 2012'],
    // Wrap around days
    ['Mon Jul 9 23:46 2012', '*/15 * * * *', 'Tue Jul 10 00:00 2012'],
    ['Mon Jul 9 23:45 2012', '20-35/15 * * * *', 'Tue Jul 10 00:20 2012'],
    // Wrap around months
    ['Mon Jul 9 23:35 2012', '0 0 9 Apr-Oct ?', 'Thu Aug 9 00:00 2012'],
    ['Mon Jul 9 23:35 2012', '0 0 */5 Apr,Aug,Oct Mon', 'Tue Aug 1 00:00 2012'],
    ['Mon Jul 9 23:35 2012', '0 0 */5 Oct Mon', 'Mon Oct 1 00:00 2012'],
    // Wrap around years
    ['Mon Jul 9 23:35 2012', '0 0 * Feb Mon', 'Mon Feb 4 00:00 2013'],
    ['Mon Jul 9 23:35 2012', '0 0 * Feb Mon/2', 'Fri Feb 1 00:00 2013'],
    // Wrap around minute, hour, day, month, and year
    ['Mon Dec 31 23:59:45 2012', '* * * * *', 'Tue Jan 1 00:00:00 2013'],
    // Leap year
    ['Mon Jul 9 23:35 2012', '0 0 29 Feb ?', 'Mon Feb 29 00:00 2016'],
    // Unsatisfiable: Go's zero time.
    ['Mon Jul 9 23:35 2012', '0 0 30 Feb ?', ''],
    ['Mon Jul 9 23:35 2012', '0 0 31 Apr ?', ''],
  ];
  for (const [time, spec, expected] of cases) {
    test(`${spec} after ${time}`, () => assert.equal(parseSchedule(spec).next(goTime(time)!), goTime(expected)));
  }

  const invalid: Array<[spec: string, message: string]> = [
    ['xyz', 'expected exactly 5 fields, found 1: [xyz]'],
    ['60 0 * * *', 'end of range (60) above maximum (59): 60'],
    ['0 60 * * *', 'end of range (60) above maximum (23): 60'],
    ['0 0 * * XYZ', 'failed to parse int from XYZ: strconv.Atoi: parsing "XYZ": invalid syntax'],
  ];
  for (const [spec, message] of invalid)
    test(`TestErrors ${spec}`, () => assert.throws(() => parseSchedule(spec), { message }));

  test('a field that matches nothing never fires (Go zero time after five years)', () => {
    assert.equal(parseSchedule('0 , * * *').next(Date.parse('2026-01-01T00:00:00Z')), undefined);
  });

  test('a named zone other than UTC is refused, saying so', () => {
    assert.throws(() => parseSchedule('TZ=Asia/Tokyo 0 * * * *'), {
      message: 'the sandbox computes schedules in UTC only; TZ=Asia/Tokyo is not supported',
    });
    assert.equal(iso(parseSchedule('TZ=Etc/UTC 0 * * * *').next(Date.parse(FROM))), '2026-01-01T01:00:00Z');
  });
});

describe('robfig/cron v3 constantdelay_test.go: TestConstantDelayNext (@every)', () => {
  const cases: Array<[time: string, delay: string, expected: string]> = [
    // Simple cases
    ['Mon Jul 9 14:45 2012', '15m50ns', 'Mon Jul 9 15:00 2012'],
    ['Mon Jul 9 14:59 2012', '15m', 'Mon Jul 9 15:14 2012'],
    ['Mon Jul 9 14:59:59 2012', '15m', 'Mon Jul 9 15:14:59 2012'],
    // Wrap around hours
    ['Mon Jul 9 15:45 2012', '35m', 'Mon Jul 9 16:20 2012'],
    // Wrap around days
    ['Mon Jul 9 23:46 2012', '14m', 'Tue Jul 10 00:00 2012'],
    ['Mon Jul 9 23:45 2012', '35m', 'Tue Jul 10 00:20 2012'],
    ['Mon Jul 9 23:35:51 2012', '44m24s', 'Tue Jul 10 00:20:15 2012'],
    ['Mon Jul 9 23:35:51 2012', '25h44m24s', 'Thu Jul 11 01:20:15 2012'],
    // Wrap around months
    ['Mon Jul 9 23:35 2012', '2184h25m', 'Thu Oct 9 00:00 2012'],
    // Wrap around minute, hour, day, month, and year
    ['Mon Dec 31 23:59:45 2012', '15s', 'Tue Jan 1 00:00:00 2013'],
    // Round up to 1 second if the duration is less.
    ['Mon Jul 9 14:45:00 2012', '15ms', 'Mon Jul 9 14:45:01 2012'],
    // Round to nearest second when calculating the next time.
    ['Mon Jul 9 14:45:00.005 2012', '15m', 'Mon Jul 9 15:00 2012'],
    // Round to nearest second for both.
    ['Mon Jul 9 14:45:00.005 2012', '15m50ns', 'Mon Jul 9 15:00 2012'],
  ];
  for (const [time, delay, expected] of cases) {
    test(`@every ${delay} after ${time}`, () =>
      assert.equal(parseSchedule(`@every ${delay}`).next(goTime(time)!), goTime(expected)));
  }

  test('@every .5s, 0 and -1s are every second', () => {
    for (const d of ['.5s', '0', '-1s'])
      assert.equal(
        iso(parseSchedule(`@every ${d}`).next(Date.parse('2026-01-01T00:00:00.250Z'))),
        '2026-01-01T00:00:01Z',
      );
  });
});
