import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runScript } from '../../../sandbox/kubelet/shell/run';
import type { ShellHost } from '../../../sandbox/kubelet/shell/run';
import { parseScript } from '../../../sandbox/kubelet/shell/parse';
import { arithmetic } from '../../../sandbox/kubelet/shell/expand';

const T0 = Date.UTC(2026, 0, 1);
const host: ShellHost = {
  env: new Map([
    ['HOSTNAME', 'web-abc'],
    ['GREETING', 'hello'],
  ]),
  hostname: 'web-abc',
  onProgram: (argv, at) => ({ kind: 'runs', lines: [{ at, text: `<${argv.join(' ')} starts>` }] }),
};

/** `offset-ms text` for every line up to `untilMs` after the start. */
function output(script: string | string[], untilMs = 10_000): string[] {
  const { sources } = runScript(script, host, T0);
  return sources
    .flatMap((s, i) => s.between(-Infinity, T0 + untilMs, 1000).map((l, j) => ({ l, i, j })))
    .sort((a, b) => a.l.at - b.l.at || a.i - b.i || a.j - b.j)
    .map(({ l }) => `${l.at - T0} ${l.text}`);
}

describe('shell scripts print what they echo, when they echo it', () => {
  test('echo then a long sleep', () => assert.deepEqual(output('echo hello; sleep 3600'), ['0 hello']));

  test('sleeps move the clock between lines; exit stops the script', () => {
    assert.deepEqual(output('echo one; sleep 2; echo two && sleep 1.5; echo three; exit 3; echo never'), [
      '0 one',
      '2000 two',
      '3500 three',
    ]);
  });

  test('quoting, variables, defaults, arithmetic and command substitution', () => {
    assert.deepEqual(
      output(`echo "a;  b" '$GREETING' "$GREETING \${NOPE:-dflt} \${#GREETING}" $((2*3+1)) $(hostname) \`echo x\``),
      ['0 a;  b $GREETING hello dflt 5 7 web-abc x'],
    );
  });

  test('exec form is not a shell: no expansion, arguments joined by echo', () => {
    assert.deepEqual(output(['echo', 'hello world', '$GREETING']), ['0 hello world $GREETING']);
  });

  test('a shell in exec form runs its -c script (flags may be combined)', () => {
    assert.deepEqual(output(['/bin/sh', '-ec', 'echo "$GREETING"']), ['0 hello']);
    assert.deepEqual(output(['sh']), []);
  });

  test('stdout sent to a file prints nothing; stderr and /dev/stdout do', () => {
    assert.deepEqual(
      output(
        'echo a > /tmp/x; echo b >> /tmp/x; echo c >&2; echo d 2>/dev/null; echo e > /dev/stdout; echo f &> /dev/null; echo g | tee /tmp/y; echo h | grep h',
      ),
      ['0 c', '0 d', '0 e', '0 g', '0 h'],
    );
  });

  test('echo -n / -e, printf repeats its format', () => {
    assert.deepEqual(output("echo -n part; echo rest; echo -e 'x\\ty\\nz'; printf '%s=%d\\n' a 1 b 2"), [
      '0 partrest',
      '0 x\ty',
      '0 z',
      '0 a=1',
      '0 b=2',
    ]);
  });

  test('&& and || follow the last status', () => {
    assert.deepEqual(
      output('false || echo recovered; false && echo no; echo "status $?"; [ "$GREETING" = hello ] && echo yes'),
      ['0 recovered', '0 status 1', '0 yes'],
    );
  });

  test('a for loop runs its items, seq included', () => {
    assert.deepEqual(output('for i in 1 2; do echo item $i; sleep 1; done; for n in $(seq 3 4); do echo n=$n; done'), [
      '0 item 1',
      '1000 item 2',
      '2000 n=3',
      '2000 n=4',
    ]);
  });

  test('the counter loop from the Kubernetes logging docs', () => {
    assert.deepEqual(output('i=0; while true; do echo "$i: $(date)"; i=$((i+1)); sleep 1; done', 2500), [
      '0 0: Thu Jan  1 00:00:00 UTC 2026',
      '1000 1: Thu Jan  1 00:00:01 UTC 2026',
      '2000 2: Thu Jan  1 00:00:02 UTC 2026',
    ]);
  });

  test('an endless loop is read lazily: any iteration, counters included, without running the ones before', () => {
    const [, loop] = runScript('i=5; while :; do i=$((i+2)); echo "tick $i"; sleep 10; done', host, T0).sources;
    const year = 365 * 24 * 3600 * 1000;
    const lines = loop.between(T0 + year - 25_000, T0 + year, 1000);
    // Iterations start every 10 s; iteration k adds 2 before printing.
    const k = year / 10_000;
    assert.deepEqual(
      lines.map((l) => `${l.at - T0} ${l.text}`),
      [k - 2, k - 1, k].map((n) => `${n * 10_000} tick ${5 + 2 * (n + 1)}`),
    );
    assert.equal(loop.nextAfter(T0 + year), T0 + year + 10_000);
  });

  test('a loop that does not count is simulated iteration by iteration', () => {
    assert.deepEqual(output('x=1; while true; do x=$((x*3)); echo $x; sleep 1; done', 3000), [
      '0 3',
      '1000 9',
      '2000 27',
      '3000 81',
    ]);
  });

  test('a loop that never sleeps prints once a second here', () => {
    assert.deepEqual(output('while true; do echo spin; done', 2000), ['0 spin', '1000 spin', '2000 spin']);
  });

  test('a loop waits on its condition, iteration by iteration', () => {
    assert.deepEqual(output('until [ -f /tmp/ready ]; do echo waiting; sleep 2; done; echo never', 4000), [
      '0 waiting',
      '2000 waiting',
      '4000 waiting',
    ]);
  });

  test('an unknown program blocks the script; the image may say what it prints', () => {
    assert.deepEqual(output('echo starting; exec nginx -g "daemon off;"; echo never'), [
      '0 starting',
      '0 <nginx -g daemon off; starts>',
    ]);
    assert.deepEqual(output('echo a; python app.py; echo never'), ['0 a', '0 <python app.py starts>']);
  });

  test('constructs it does not read stop the output there', () => {
    assert.deepEqual(output('echo before; select x in a b; do echo $x; done; echo after'), ['0 before']);
    assert.deepEqual(
      parseScript('echo a; )').map((s) => s.node.kind),
      ['simple', 'unsupported'],
    );
  });
});

test('arithmetic: precedence, parentheses, comparison, variables, division by zero', () => {
  const vars = new Map([['i', '4']]);
  const get = (n: string) => vars.get(n);
  assert.equal(arithmetic('1 + 2 * 3', { get }), 7);
  assert.equal(arithmetic('(1 + 2) * 3 - i', { get }), 5);
  assert.equal(arithmetic('i > 3 && i < 5', { get }), 1);
  assert.equal(arithmetic('7 / 2 + 7 % 2 + 1 / 0', { get }), 4);
  assert.equal(arithmetic('-i + unset', { get }), -4);
});
