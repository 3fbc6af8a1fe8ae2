/**
 * CronJob schedules parse exactly as robfig/cron v3 `ParseStandard` does, the
 * parser behind kube-apiserver's CronJob validation. The tables of its
 * parser_test.go (TestRange, TestField, TestAll, TestBits,
 * TestParseScheduleErrors, TestParseSchedule, TestStandardSpecSchedule) are
 * ported below as data; where upstream matches an error by a fragment, the
 * whole message its parser.go builds is expected. Cases written for its
 * seconds parser are given in the standard five fields.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DOM,
  DOW,
  HOURS,
  MINUTES,
  MONTHS,
  cronScheduleError,
  parseCron,
  parseCronField,
  parseCronRange,
} from '../../../sandbox/admission/validation/cron';
import type { CronBounds, CronSchedule } from '../../../sandbox/admission/validation/cron';
import { goParseDuration } from '../../../sandbox/util/goText';
import { cronJob } from './fixtures';
import { lines, validate, variant } from './helpers';

const bounds = (min: number, max: number): CronBounds => ({ min, max });
const range = (min: number, max: number, step = 1): number[] => {
  const out: number[] = [];
  for (let v = min; v <= max; v += step) out.push(v);
  return out;
};

/** A parsed field as values (sorted) and the star bit. */
function field(result: ReturnType<typeof parseCronRange>): { values: number[]; star: boolean } | string {
  if ('error' in result) return result.error;
  return { values: [...result.ok.values].sort((a, b) => a - b), star: result.ok.star };
}

describe('robfig/cron v3 parser_test.go: TestRange (getRange)', () => {
  const cases: Array<[expr: string, min: number, max: number, want: number[] | string, star?: boolean]> = [
    ['5', 0, 7, [5]],
    ['0', 0, 7, [0]],
    ['7', 0, 7, [7]],
    ['5-5', 0, 7, [5]],
    ['5-6', 0, 7, [5, 6]],
    ['5-7', 0, 7, [5, 6, 7]],
    ['5-6/2', 0, 7, [5]],
    ['5-7/2', 0, 7, [5, 7]],
    ['5-7/1', 0, 7, [5, 6, 7]],
    ['*', 1, 3, [1, 2, 3], true],
    ['*/2', 1, 3, [1, 3], false],
    ['5--5', 0, 0, 'too many hyphens: 5--5'],
    ['jan-x', 0, 0, 'failed to parse int from jan: strconv.Atoi: parsing "jan": invalid syntax'],
    ['2-x', 1, 5, 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['*/-12', 0, 0, 'negative number (-12) not allowed: -12'],
    ['*//2', 0, 0, 'too many slashes: *//2'],
    ['1', 3, 5, 'beginning of range (1) below minimum (3): 1'],
    ['6', 3, 5, 'end of range (6) above maximum (5): 6'],
    ['5-3', 3, 5, 'beginning of range (5) beyond end of range (3): 5-3'],
    ['*/0', 0, 0, 'step of range should be a positive number: */0'],
  ];
  for (const [expr, min, max, want, star = false] of cases) {
    test(`${expr} in ${min}-${max}`, () =>
      assert.deepEqual(
        field(parseCronRange(expr, bounds(min, max))),
        typeof want === 'string' ? want : { values: want, star },
      ));
  }
});

describe('robfig/cron v3 parser_test.go: TestField, TestAll, TestBits', () => {
  const fields: Array<[expr: string, want: number[]]> = [
    ['5', [5]],
    ['5,6', [5, 6]],
    ['5,6,7', [5, 6, 7]],
    ['1,5-7/2,3', [1, 3, 5, 7]],
  ];
  for (const [expr, want] of fields)
    test(`TestField ${expr}`, () =>
      assert.deepEqual(field(parseCronField(expr, bounds(1, 7))), { values: want, star: false }));

  const named: Array<[string, CronBounds, number, number]> = [
    ['minutes', MINUTES, 0, 59],
    ['hours', HOURS, 0, 23],
    ['dom', DOM, 1, 31],
    ['months', MONTHS, 1, 12],
    ['dow', DOW, 0, 6],
  ];
  for (const [name, b, min, max] of named)
    test(`TestAll ${name}: * is every value and the star bit`, () =>
      assert.deepEqual(field(parseCronField('*', b)), { values: range(min, max), star: true }));

  const bits: Array<[min: number, max: number, step: number, want: number[]]> = [
    [0, 0, 1, [0]],
    [1, 1, 1, [1]],
    [1, 5, 2, [1, 3, 5]],
    [1, 4, 2, [1, 3]],
  ];
  for (const [min, max, step, want] of bits)
    test(`TestBits ${min}-${max}/${step}`, () =>
      assert.deepEqual(field(parseCronRange(`${min}-${max}/${step}`, MINUTES)), { values: want, star: false }));
});

describe('robfig/cron v3 parser_test.go: TestParseScheduleErrors and TestStandardSpecSchedule errors', () => {
  const cases: Array<[spec: string, error: string]> = [
    ['5 j * * *', 'failed to parse int from j: strconv.Atoi: parsing "j": invalid syntax'],
    ['@every Xm', 'failed to parse duration @every Xm: time: invalid duration "Xm"'],
    ['@unrecognized', 'unrecognized descriptor: @unrecognized'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['', 'empty spec string'],
  ];
  for (const [spec, error] of cases) test(JSON.stringify(spec), () => assert.equal(cronScheduleError(spec), error));
});

describe('robfig/cron v3 parser_test.go: TestParseSchedule and TestStandardSpecSchedule', () => {
  const star = (min: number, max: number) => ({ values: new Set(range(min, max)), star: true });
  const one = (v: number) => ({ values: new Set([v]), star: false });
  const every5min = (location: string): CronSchedule => ({
    kind: 'spec',
    location,
    second: one(0),
    minute: one(5),
    hour: star(0, 23),
    dom: star(1, 31),
    month: star(1, 12),
    dow: star(0, 6),
  });
  const midnight = (location: string): CronSchedule => ({
    kind: 'spec',
    location,
    second: one(0),
    minute: one(0),
    hour: one(0),
    dom: star(1, 31),
    month: star(1, 12),
    dow: star(0, 6),
  });
  const annual: CronSchedule = {
    kind: 'spec',
    location: '',
    second: one(0),
    minute: one(0),
    hour: one(0),
    dom: one(1),
    month: one(1),
    dow: star(0, 6),
  };
  const cases: Array<[spec: string, want: CronSchedule]> = [
    ['5 * * * *', every5min('')],
    ['CRON_TZ=UTC  5 * * * *', every5min('UTC')],
    ['@every 5m', { kind: 'every', delayMs: 300_000 }],
    ['@midnight', midnight('')],
    ['TZ=UTC  @midnight', midnight('UTC')],
    ['TZ=Asia/Tokyo @midnight', midnight('Asia/Tokyo')],
    ['@yearly', annual],
    ['@annually', annual],
  ];
  for (const [spec, want] of cases) test(spec, () => assert.deepEqual(parseCron(spec), { ok: want }));
});

describe('where robfig/cron v3 differs from a strict reading (issue 11)', () => {
  const accepted: Array<[spec: string, why: string]> = [
    ['*-5 * * * *', 'after * the rest of the range is ignored'],
    ['?-1-2 * * * *', 'likewise after ?'],
    ['0 , * * *', 'a field of empty parts matches nothing but parses'],
    ['1,,2 * * * *', 'empty parts between commas are dropped'],
    ['+5 * * * *', 'Atoi takes a sign'],
    ['05 * * * *', 'and leading zeros'],
    ['0 0 1 JAN,jUl *', 'names in any case'],
    ['0\t0\u00a0* * *', 'fields split on Go white space, no-break space included'],
    ['@every .5s', 'a duration below a second is a second'],
    ['@every 0', 'even zero'],
    ['@every -1s', 'even negative'],
    ['@every 1h30m', 'several units'],
    ['@every 1\u00b5s', 'micro sign'],
    ['@every 1\u03bcs', 'Greek mu'],
    ['TZ= 5 * * * *', 'an empty location is UTC'],
    ['CRON_TZ=Etc/UTC 5 * * * *', 'a named zone'],
  ];
  for (const [spec, why] of accepted)
    test(`${JSON.stringify(spec)} parses: ${why}`, () => assert.equal(cronScheduleError(spec), undefined));

  const refused: Array<[spec: string, error: string]> = [
    [' @hourly', 'expected exactly 5 fields, found 1: [@hourly]'],
    ['@hourly ', 'unrecognized descriptor: @hourly '],
    ['@every', 'unrecognized descriptor: @every'],
    ['@every  1h', 'failed to parse duration @every  1h: time: invalid duration " 1h"'],
    ['@every 1', 'failed to parse duration @every 1: time: missing unit in duration "1"'],
    ['@every 1x', 'failed to parse duration @every 1x: time: unknown unit "x" in duration "1x"'],
    ['@every 1h ', 'failed to parse duration @every 1h : time: unknown unit "h " in duration "1h "'],
    ['@every .s', 'failed to parse duration @every .s: time: invalid duration ".s"'],
    ['@every 1é', 'failed to parse duration @every 1é: time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
    ['@every 9999999999h', 'failed to parse duration @every 9999999999h: time: invalid duration "9999999999h"'],
    ['1-2-3/4/5 * * * *', 'too many hyphens: 1-2-3/4/5'],
    ['x-2-3 * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['1/x/5 * * * *', 'too many slashes: 1/x/5'],
    ['*/x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['5/0 * * * *', 'step of range should be a positive number: 5/0'],
    ['0 0 * * 7', 'end of range (7) above maximum (6): 7'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    [
      '99999999999999999999 * * * *',
      'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range',
    ],
    ['9999999999 * * * *', 'end of range (9999999999) above maximum (59): 9999999999'],
    ['- * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    [
      '\ufeff0 * * * *', // Go quotes the byte-order mark, a format character, as \ufeff.
      'failed to parse int from \ufeff0: strconv.Atoi: parsing "\\ufeff0": invalid syntax',
    ],
    ['1 2 3 4 5 6', 'expected exactly 5 fields, found 6: [1 2 3 4 5 6]'],
    [' ', 'expected exactly 5 fields, found 0: []'],
    ['TZ=Bogus * * * * *', 'provided bad location Bogus: unknown time zone Bogus'],
    ['TZ=../etc 5 * * * *', 'provided bad location ../etc: time: invalid location name'],
    ['TZ=asia/tokyo 5 * * * *', 'provided bad location asia/tokyo: unknown time zone asia/tokyo'],
  ];
  for (const [spec, error] of refused) test(JSON.stringify(spec), () => assert.equal(cronScheduleError(spec), error));

  test('an error in an earlier field wins, in field order', () => {
    assert.equal(
      cronScheduleError('x 99 * * *'),
      'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax',
    );
    assert.equal(cronScheduleError('0 99 x * *'), 'end of range (99) above maximum (23): 99');
  });
});

describe('Go time.ParseDuration', () => {
  const ok: Array<[string, bigint]> = [
    ['0', 0n],
    ['-0', 0n],
    ['5s', 5_000_000_000n],
    ['1.5h', 5_400_000_000_000n],
    ['.5s', 500_000_000n],
    ['1.s', 1_000_000_000n],
    ['-1m30s', -90_000_000_000n],
    ['+2ms', 2_000_000n],
    ['1h1m1s1ms1us1ns', 3_661_001_001_001n],
    ['9223372036854775807ns', 9223372036854775807n],
  ];
  for (const [s, ns] of ok) test(s, () => assert.deepEqual(goParseDuration(s), { ns }));
  const bad: Array<[string, string]> = [
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['s', 'time: invalid duration "s"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
  ];
  for (const [s, error] of bad) test(JSON.stringify(s), () => assert.deepEqual(goParseDuration(s), { error }));
});

describe('CronJob validation prints the parser error as upstream (validateScheduleFormat)', () => {
  const scheduleErrors = (schedule: string): string[] =>
    lines(validate(variant(cronJob, (o) => ((o.spec as { schedule: string }).schedule = schedule)))).filter((l) =>
      l.startsWith('cronjob-schedule'),
    );

  test('" @hourly" is refused, "*-5 * * * *" accepted', () => {
    assert.deepEqual(scheduleErrors(' @hourly'), [
      'cronjob-schedule | spec.schedule: Invalid value: " @hourly": expected exactly 5 fields, found 1: [@hourly]',
    ]);
    assert.deepEqual(scheduleErrors('*-5 * * * *'), []);
    assert.deepEqual(scheduleErrors('@every .5s'), []);
    assert.deepEqual(scheduleErrors('1-2-3/4/5 * * * *'), [
      'cronjob-schedule | spec.schedule: Invalid value: "1-2-3/4/5 * * * *": too many hyphens: 1-2-3/4/5',
    ]);
  });

  test('a TZ= prefix: the parse error, then the TZ refusal', () => {
    assert.deepEqual(scheduleErrors('TZ=Bogus 0 * * * *'), [
      'cronjob-schedule | spec.schedule: Invalid value: "TZ=Bogus 0 * * * *": provided bad location Bogus: unknown time zone Bogus',
      'cronjob-schedule | spec.schedule: Invalid value: "TZ=Bogus 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ]);
  });
});
