/**
 * The CEL engine with Kubernetes' libraries, in the shape of cel-go's and apiserver's library tests: one expression,
 * what it evaluates to (or the error it raises).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression, extendBase } from '../../../sandbox/cel/index';
import { CostMeter } from '../../../sandbox/cel/cost';

const env = extendBase();
env.registerVariable('self', 'dyn');

function run(expr: string, self: unknown = {}): unknown {
  const c = compileExpression(expr, env, ['self']);
  if (!c.ok) throw new Error(c.detail);
  return c.evaluate({ self });
}

function fails(expr: string, self: unknown = {}): string {
  try {
    run(expr, self);
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail(`${expr} did not fail`);
}

const CASES: [string, unknown][] = [
  // macros
  ['[1, 2, 3].all(x, x > 0)', true],
  ['[1, 2, 3].exists(x, x > 2)', true],
  ['[1, 2, 3].exists_one(x, x > 1)', false],
  ['[1, 2, 3].map(x, x * 2)', [2n, 4n, 6n]],
  ['[1, 2, 3].filter(x, x % 2 == 1)', [1n, 3n]],
  ['has(self.a)', true],
  ['has(self.b)', false],
  ['{"a": 1, "b": 2}.all(k, k.size() == 1)', true],
  // types
  ['1u + 2u == 3u', true],
  ['1.5 + 1.0', 2.5],
  ['duration("1h30m") > duration("90m")', false],
  ['timestamp("2024-01-01T00:00:00Z") + duration("24h") == timestamp("2024-01-02T00:00:00Z")', true],
  ['string(duration("90m"))', '5400s'],
  ['1 < 2.5', true],
  ['self.?b.orValue("none")', 'none'],
  ['optional.of(1).hasValue()', true],
  // lists
  ['[1, 2, 2, 3].isSorted()', true],
  [`['b', 'a'].isSorted()`, false],
  ['[1, 2, 3].sum()', 6n],
  ['[1.5, 2.5].sum()', 4.0],
  ['[3, 1, 2].min()', 1n],
  [`['a', 'c', 'b'].max()`, 'c'],
  ['[1, 2, 1].indexOf(1)', 0n],
  ['[1, 2, 1].lastIndexOf(1)', 2n],
  ['[1, 2].indexOf(5)', -1n],
  // regex
  [`'abc 123 def 456'.find('[0-9]+')`, '123'],
  [`'abc 123 def 456'.findAll('[0-9]+')`, ['123', '456']],
  [`'abc 123 def 456'.findAll('[0-9]+', 1)`, ['123']],
  [`'ABC'.find('(?i)b')`, 'B'],
  [`'abc'.matches('^a.c$')`, true],
  // URLs
  [`url('https://example.com:8443/a%20b?x=1&x=2').getHostname()`, 'example.com'],
  [`url('https://example.com:8443/a').getPort()`, '8443'],
  [`url('https://[::1]:80/').getHostname()`, '::1'],
  [`url('https://example.com/p?x=1&x=2').getQuery()['x']`, ['1', '2']],
  [`isURL('not a url')`, false],
  [`isURL('/just/a/path')`, true],
  // quantity
  [`quantity('1Gi').isGreaterThan(quantity('1000Mi'))`, true],
  [`quantity('500m').isInteger()`, false],
  [`quantity('2k').asInteger()`, 2000n],
  [`quantity('1.5').asApproximateFloat()`, 1.5],
  [`quantity('1').add(quantity('500m')).compareTo(quantity('1500m'))`, 0n],
  [`quantity('-1').sign()`, -1n],
  [`isQuantity('1.5Gi')`, true],
  [`isQuantity('1.5 Gi')`, false],
  // IP and CIDR
  [`ip('10.0.0.1').family()`, 4n],
  [`ip('::1').isLoopback()`, true],
  [`isIP('010.0.0.1')`, false],
  [`isIP('::ffff:10.0.0.1')`, false],
  [`cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))`, true],
  [`cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')`, true],
  [`string(cidr('192.168.1.7/24').masked())`, '192.168.1.0/24'],
  [`cidr('2001:db8::/32').prefixLength()`, 32n],
  // named formats
  [`format.dns1123Label().validate('my-name').hasValue()`, false],
  [`format.named('dns1123Label').value().validate('My_Name').hasValue()`, true],
  [`format.named('nope').hasValue()`, false],
  // strings
  [`'Hello'.lowerAscii()`, 'hello'],
  [`'Hello'.upperAscii()`, 'HELLO'],
  [`'a-b-c'.replace('-', '+')`, 'a+b+c'],
  [`'a-b-c'.replace('-', '+', 1)`, 'a+b-c'],
  [`'a,b'.split(',')`, ['a', 'b']],
  [`'hello'.substring(1, 3)`, 'el'],
  [`'  x  '.trim()`, 'x'],
  [`['a', 'b'].join('/')`, 'a/b'],
  [`'abc'.charAt(1)`, 'b'],
  [`'abc'.reverse()`, 'cba'],
];

describe('CEL with the Kubernetes libraries', () => {
  for (const [expr, want] of CASES) test(expr, () => assert.deepEqual(run(expr, { a: 1n }), want));

  test('runtime errors in cel-go words', () => {
    assert.equal(fails('self.missing', {}), 'no such key: missing');
    assert.equal(fails('[].min()'), 'min called on empty list');
    assert.equal(fails('1 / 0'), 'division by zero');
    assert.equal(fails('[1, 2][5]'), "index '5' out of range in list size '2'");
    assert.match(fails(`quantity('x')`), /^quantities must match the regular expression/);
    assert.match(
      fails(`url('x')`),
      /^URL parse error during conversion from string: parse "x": invalid URI for request$/,
    );
  });

  test('compile errors in cel-go form, with the source line and a caret', () => {
    const c = compileExpression('self.a +', env, ['self']);
    assert.equal(c.ok, false);
    assert.match(
      (c as { detail: string }).detail,
      /^compilation failed: ERROR: <input>:1:\d+: Syntax error: .*\n \| self\.a \+\n \| \.+\^$/,
    );
    const u = compileExpression('nope.a == 1', env, ['self']);
    assert.equal(
      (u as { detail: string }).detail,
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope.a == 1\n | ^",
    );
  });

  test('a runaway comprehension stops at the per-call cost limit', () => {
    const c = compileExpression('self.all(x, self.all(y, x + y >= 0))', env, ['self']);
    assert.ok(c.ok);
    const big = Array.from({ length: 2000 }, (_, i) => BigInt(i));
    assert.throws(
      () => c.evaluate({ self: big }, new CostMeter(1_000_000)),
      (e: Error) => e.message === 'operation cancelled: actual cost limit exceeded',
    );
    const meter = new CostMeter(1_000_000);
    assert.equal(c.evaluate({ self: big.slice(0, 10) }, meter), true);
    assert.ok(meter.used > 100 && meter.used < 10_000, `cost ${meter.used}`);
  });
});
