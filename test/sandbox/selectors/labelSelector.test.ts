import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Status } from '../../../sandbox/api/errors';
import { statusOf } from '../../builders';
import { deepFreeze } from '../../../sandbox/util/json';
import type { LabelSelector, Selector } from '../../../sandbox/api/selectors/labelSelector';
import {
  formatLabelSelector,
  labelSelectorFromObject,
  labelSelectorMatches,
  parseLabelSelector,
} from '../../../sandbox/api/selectors/labelSelector';

function badRequest(message: string): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'BadRequest',
    code: 400,
  };
}

const KEY_NAME_RULE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector: requirements and canonical form', () => {
  const cases: [string, string, [string, string, string[]][]][] = [
    ['', '', []],
    ['   ', '', []],
    ['app=web', 'app=web', [['app', 'Equals', ['web']]]],
    ['app==web', 'app==web', [['app', 'DoubleEquals', ['web']]]],
    ['tier!=db', 'tier!=db', [['tier', 'NotEquals', ['db']]]],
    ['env in (b, a)', 'env in (a,b)', [['env', 'In', ['a', 'b']]]],
    ['env notin (x)', 'env notin (x)', [['env', 'NotIn', ['x']]]],
    ['key', 'key', [['key', 'Exists', []]]],
    ['!legacy', '!legacy', [['legacy', 'DoesNotExist', []]]],
    ['a=', 'a=', [['a', 'Equals', ['']]]],
    ['x in ()', 'x in ()', [['x', 'In', ['']]]],
    ['x in (a,,b)', 'x in (,a,b)', [['x', 'In', ['', 'a', 'b']]]],
    ['x in (a,a)', 'x in (a)', [['x', 'In', ['a']]]],
    ['a=in', 'a=in', [['a', 'Equals', ['in']]]],
    ['in in (in,notin)', 'in in (in,notin)', [['in', 'In', ['in', 'notin']]]],
    ['x>5', 'x>5', [['x', 'GreaterThan', ['5']]]],
    ['x<5', 'x<5', [['x', 'LessThan', ['5']]]],
    ['example.com/app=web', 'example.com/app=web', [['example.com/app', 'Equals', ['web']]]],
    [
      'tier!=db,app=web,env in (a,b),!legacy,release notin (x),key',
      'app=web,env in (a,b),key,!legacy,release notin (x),tier!=db',
      [
        ['app', 'Equals', ['web']],
        ['env', 'In', ['a', 'b']],
        ['key', 'Exists', []],
        ['legacy', 'DoesNotExist', []],
        ['release', 'NotIn', ['x']],
        ['tier', 'NotEquals', ['db']],
      ],
    ],
  ];
  for (const [text, canonical, reqs] of cases) {
    test(JSON.stringify(text), () => {
      const sel = parseLabelSelector(text);
      assert.deepEqual(
        { text: sel.toString(), empty: sel.empty, reqs: sel.requirements },
        {
          text: canonical,
          empty: reqs.length === 0,
          reqs: reqs.map(([key, operator, values]) => ({ key, operator, values })),
        },
      );
    });
  }
});

describe('parseLabelSelector: syntax errors are 400 with upstream messages', () => {
  const cases: [string, string][] = [
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a!', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b,', "found '', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a=(', "unable to parse requirement: found '(', expected: identifier"],
    ['Foo_', `unable to parse requirement: <nil>: Invalid value: "Foo_": ${KEY_NAME_RULE}`],
    ['a=$$', `unable to parse requirement: values[0][a]: Invalid value: "$$": ${VALUE_RULE}`],
    [
      'x>a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'a/b/c',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    ['/a', 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'],
  ];
  for (const [text, message] of cases) {
    test(JSON.stringify(text), () => {
      assert.deepEqual(
        statusOf(() => parseLabelSelector(text)),
        badRequest(message),
      );
    });
  }
});

describe('Selector.matches', () => {
  const labels = { app: 'web', tier: 'frontend', env: 'prod', n: '7' };
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ['', labels, true],
    ['', undefined, true],
    ['app=web', labels, true],
    ['app=db', labels, false],
    ['app==web,tier=frontend', labels, true],
    ['app=web,tier=backend', labels, false],
    ['app!=db', labels, true],
    ['app!=web', labels, false],
    ['missing!=x', labels, true],
    ['env in (prod,staging)', labels, true],
    ['env in (dev)', labels, false],
    ['missing in (a)', labels, false],
    ['env notin (dev)', labels, true],
    ['env notin (prod)', labels, false],
    ['missing notin (a)', labels, true],
    ['app', labels, true],
    ['missing', labels, false],
    ['!missing', labels, true],
    ['!app', labels, false],
    ['!app', undefined, true],
    ['app', undefined, false],
    ['n>5', labels, true],
    ['n<5', labels, false],
    ['app>5', labels, false],
    ['constructor', labels, false],
    ['x=', { x: '' }, true],
    ['x=', {}, false],
  ];
  for (const [text, l, expected] of cases) {
    test(`${JSON.stringify(text)} on ${JSON.stringify(l)} → ${expected}`, () => {
      assert.equal(parseLabelSelector(text).matches(l), expected);
    });
  }
});

describe('labelSelectorFromObject', () => {
  const labels = { app: 'web', env: 'prod' };

  test('undefined and null select nothing; {} selects everything', () => {
    const seen = (s: Selector) => ({
      empty: s.empty,
      text: s.toString(),
      some: s.matches(labels),
      none: s.matches(undefined),
    });
    assert.deepEqual(seen(labelSelectorFromObject(undefined)), { empty: false, text: '', some: false, none: false });
    assert.deepEqual(seen(labelSelectorFromObject(null)), { empty: false, text: '', some: false, none: false });
    assert.deepEqual(seen(labelSelectorFromObject({})), { empty: true, text: '', some: true, none: true });
    assert.deepEqual(seen(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] })), {
      empty: true,
      text: '',
      some: true,
      none: true,
    });
  });

  const cases: [LabelSelector, string, boolean][] = [
    [{ matchLabels: { app: 'web' } }, 'app=web', true],
    [{ matchLabels: { env: 'prod', app: 'web' } }, 'app=web,env=prod', true],
    [{ matchLabels: { app: 'db' } }, 'app=db', false],
    [
      { matchExpressions: [{ key: 'env', operator: 'In', values: ['staging', 'prod'] }] },
      'env in (prod,staging)',
      true,
    ],
    [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, 'env in (dev)', false],
    [{ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] }, 'env notin (dev)', true],
    [{ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, 'env notin (prod)', false],
    [{ matchExpressions: [{ key: 'app', operator: 'Exists' }] }, 'app', true],
    [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, 'tier', false],
    [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, '!tier', true],
    [{ matchExpressions: [{ key: 'app', operator: 'DoesNotExist', values: [] }] }, '!app', false],
    [
      {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod'] },
          { key: 'canary', operator: 'DoesNotExist' },
        ],
      },
      'app=web,!canary,env in (prod)',
      true,
    ],
  ];
  for (const [sel, text, expected] of cases) {
    test(text, () => {
      const compiled = labelSelectorFromObject(sel);
      assert.deepEqual(
        [compiled.toString(), compiled.matches(labels), labelSelectorMatches(sel, labels), formatLabelSelector(sel)],
        [text, expected, expected, text],
      );
    });
  }

  const errors: [string, LabelSelector, string][] = [
    [
      'unknown operator',
      { matchExpressions: [{ key: 'a', operator: 'Gt' as 'In', values: ['1'] }] },
      '"Gt" is not a valid label selector operator',
    ],
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In' }] },
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'NotIn with empty values',
      { matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] },
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] },
      'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist',
    ],
    ['bad key', { matchLabels: { 'a b': 'c' } }, `key: Invalid value: "a b": ${KEY_NAME_RULE}`],
    ['bad value', { matchLabels: { a: '-x' } }, `values[0][a]: Invalid value: "-x": ${VALUE_RULE}`],
    [
      'several problems at once',
      { matchExpressions: [{ key: '_a', operator: 'In', values: ['ok', '.bad'] }] },
      `[key: Invalid value: "_a": ${KEY_NAME_RULE}, values[1][_a]: Invalid value: ".bad": ${VALUE_RULE}]`,
    ],
  ];
  for (const [name, sel, message] of errors) {
    test(`${name} → 400`, () => {
      assert.deepEqual(
        statusOf(() => labelSelectorFromObject(sel)),
        badRequest(message),
      );
      assert.deepEqual([labelSelectorMatches(sel, labels), formatLabelSelector(sel)], [false, '<error>']);
    });
  }
});

describe('formatLabelSelector', () => {
  test('prints <none> when the selector is empty or absent', () => {
    assert.deepEqual(
      [formatLabelSelector({}), formatLabelSelector(undefined), formatLabelSelector({ matchLabels: {} })],
      ['<none>', '<none>', '<none>'],
    );
  });
});

describe('properties', () => {
  const token = fc.stringMatching(/^[a-z]([a-z0-9]{0,4})$/);
  const expr = fc.oneof(
    fc.record({
      key: token,
      operator: fc.constantFrom('In' as const, 'NotIn' as const),
      values: fc.array(token, { minLength: 1, maxLength: 3 }),
    }),
    fc.record({ key: token, operator: fc.constantFrom('Exists' as const, 'DoesNotExist' as const) }),
  );
  const selector = fc.record({
    matchLabels: fc.dictionary(token, token, { maxKeys: 3 }),
    matchExpressions: fc.array(expr, { maxLength: 3 }),
  });
  const labelSet = fc.dictionary(token, token, { maxKeys: 5 });

  test('the printed form parses back to a selector that matches the same label sets', () => {
    fc.assert(
      fc.property(selector, fc.array(labelSet, { maxLength: 5 }), (sel, sets) => {
        const compiled = labelSelectorFromObject(sel);
        const reparsed = parseLabelSelector(compiled.toString());
        assert.deepEqual(reparsed.requirements, compiled.requirements);
        for (const l of sets) assert.equal(reparsed.matches(l), compiled.matches(l));
      }),
    );
  });
});

describe('labelSelectorFromObject: frozen selectors compiled once', () => {
  test('a frozen selector compiles to one shared selector; a mutable one is compiled afresh and sees its changes', () => {
    const frozen = deepFreeze({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] });
    const a = labelSelectorFromObject(frozen);
    assert.equal(labelSelectorFromObject(frozen), a);
    assert.equal(a.matches({ app: 'web', tier: 'x' }), true);
    assert.equal(labelSelectorMatches(frozen, { app: 'web' }), false);
    const mutable: { matchLabels: Record<string, string> } = { matchLabels: { app: 'web' } };
    assert.equal(labelSelectorMatches(mutable, { app: 'web' }), true);
    mutable.matchLabels.app = 'db';
    assert.equal(labelSelectorMatches(mutable, { app: 'web' }), false);
    assert.equal(labelSelectorFromObject(mutable).toString(), 'app=db');
  });

  test('a frozen invalid selector is refused with its message every time', () => {
    const bad = deepFreeze({ matchExpressions: [{ key: 'a', operator: 'Near' }] });
    for (let i = 0; i < 2; i++) {
      assert.throws(() => labelSelectorFromObject(bad as never), /"Near" is not a valid label selector operator/);
      assert.equal(labelSelectorMatches(bad as never, { a: 'b' }), false);
    }
  });
});
