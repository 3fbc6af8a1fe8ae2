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
