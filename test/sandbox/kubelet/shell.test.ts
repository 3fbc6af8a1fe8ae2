import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runScript } from '../../../sandbox/kubelet/shell/run';
import type { ShellHost } from '../../../sandbox/kubelet/shell/run';
import { parseScript } from '../../../sandbox/kubelet/shell/parse';
import { arithmetic } from '../../../sandbox/kubelet/shell/expand';
import { ContainerFs, FileTree } from '../../../sandbox/kubelet/container/fileSystem';

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

// ---- the grammar and the filesystem -------------------------------------------

/** A container's files: a root with `/tmp`, `/data`, and a read-only `/etc/config` holding `app.conf`. */
function containerFs(): ContainerFs {
  const root = new FileTree('rootfs');
  for (const d of ['/tmp', '/data', '/etc', '/var/log']) root.baseDir(d);
  const config = new FileTree('config', true);
  config.writer().add({ at: -Infinity, op: 'write', path: '/app.conf', text: 'port=8080\nmode=prod\n' });
  return new ContainerFs(root, [{ path: '/etc/config', tree: config, source: '/', readOnly: true }]);
}

function run(script: string, dialect: 'busybox' | 'gnu' = 'busybox') {
  const fs = containerFs();
  const r = runScript(script, { env: new Map([['HOSTNAME', 'web-abc']]), hostname: 'web-abc', fs, dialect }, T0);
  const lines = r.sources[0].between(-Infinity, T0 + 3_600_000, 1000).map((l) => `${l.at - T0} ${l.text}`);
  return { ...r, fs, lines };
}

describe('the grammar scripts use', () => {
  test('if / elif / else, case with patterns and alternatives', () => {
    assert.deepEqual(
      run(`x=3
if [ $x -gt 5 ]; then echo big; elif [ $x -gt 2 ]; then echo middle; else echo small; fi
for f in app.py notes.txt Makefile; do
  case "$f" in
    *.py|*.sh) echo "$f: script" ;;
    [A-Z]*) echo "$f: capital" ;;
    *) echo "$f: other" ;;
  esac
done`).lines,
      ['0 middle', '0 app.py: script', '0 notes.txt: other', '0 Makefile: capital'],
    );
  });

  test('functions with arguments, $#, "$@", return; local variables', () => {
    assert.deepEqual(
      run(`greet() { local who=$1; echo "hello $who ($# args)"; return 3; }
count() { for a in "$@"; do echo "[$a]"; done; }
greet world extra; echo "status $?"; count "a b" c`).lines,
      ['0 hello world (2 args)', '0 status 3', '0 [a b]', '0 [c]'],
    );
  });

  test('loops with conditions, break and continue (nested: break 2)', () => {
    assert.deepEqual(
      run(`i=0
while [ $i -lt 5 ]; do i=$((i+1)); [ $i -eq 2 ] && continue; echo "i=$i"; sleep 1; done
until [ $i -eq 0 ]; do i=$((i-1)); done; echo "down to $i"
for a in 1 2; do for b in x y; do [ $b = y ] && break 2; echo "$a$b"; done; done`).lines,
      ['0 i=1', '1000 i=3', '2000 i=4', '3000 i=5', '4000 down to 0', '4000 1x'],
    );
  });

  test('parameter expansions: prefix and suffix removal, substrings, replacement', () => {
    assert.deepEqual(
      run(`h=web-7d9f-x2k4p; f=/data/report.tar.gz
echo "\${h##*-} \${h#*-} \${h%-*} \${f##*/} \${f%%.*} \${h:0:3} \${h/-/_} \${h//-/_}"`).lines,
      ['0 x2k4p 7d9f-x2k4p web-7d9f report.tar.gz /data/report web web_7d9f-x2k4p web_7d9f_x2k4p'],
    );
  });

  test('set -e stops at the first failing command (not in a condition)', () => {
    const r = run('set -e; false || echo recovered; if false; then :; fi; echo before; cat /nope; echo after');
    assert.deepEqual(
      [r.lines, r.flow, r.status],
      [['0 recovered', '0 before', "0 cat: can't open '/nope': No such file or directory"], 'exit', 1],
    );
  });

  test('a here-document, expanded unless its delimiter is quoted', () => {
    assert.deepEqual(run("name=db\ncat <<EOF\nhost: $name\nEOF\ncat <<'EOF'\nraw: $name\nEOF").lines, [
      '0 host: db',
      '0 raw: $name',
    ]);
  });
});

describe('files: what a script does is on the container filesystem timeline', () => {
  test('touch, write, append, rm at the script’s times; the files at any instant', () => {
    const r = run('touch /tmp/healthy; echo one > /tmp/log; sleep 30; rm -f /tmp/healthy; echo two >> /tmp/log');
    assert.deepEqual(
      [
        r.fs.read('/tmp/healthy', T0 + 29_999),
        r.fs.read('/tmp/healthy', T0 + 30_000),
        r.fs.read('/tmp/log', T0 + 1000),
        r.fs.read('/tmp/log', T0 + 31_000),
      ],
      ['', undefined, 'one\n', 'one\ntwo\n'],
    );
    assert.deepEqual([r.flow, r.status, r.end - T0], ['ok', 0, 30_000]);
  });

  test('pipes and filters: grep, wc, sort, uniq -c, rev, head, tail, cut, tr', () => {
    assert.deepEqual(
      run(`printf 'b\\na\\nb\\nc\\n' > /tmp/x
sort /tmp/x | uniq -c
grep -c b /tmp/x; cat /tmp/x | wc -l; echo hello | rev; seq 5 | tail -n 2 | head -1
echo a:b:c | cut -d: -f2,3; echo Shout | tr a-z A-Z`).lines,
      ['0       1 a', '0       2 b', '0       1 c', '0 2', '0 4', '0 olleh', '0 4', '0 b:c', '0 SHOUT'],
    );
  });

  test('while read over a file; test -f/-d/-s; mkdir -p, cp, mv, ls', () => {
    assert.deepEqual(
      run(`while read k; do echo "key=$k"; done < /etc/config/app.conf
[ -f /etc/config/app.conf ] && [ -d /etc/config ] && [ ! -s /tmp/empty ] && echo tests
mkdir -p /data/a/b; echo x > /data/a/b/f; cp /data/a/b/f /tmp/g; mv /tmp/g /tmp/h; ls /data/a /tmp`).lines,
      ['0 key=port=8080', '0 key=mode=prod', '0 tests', '0 /data/a:', '0 b', '0 ', '0 /tmp:', '0 h'],
    );
  });

  test('errors as busybox and as GNU word them; a read-only volume', () => {
    const script =
      'cat /missing; rm /missing; mkdir /a/b; ls /missing; touch /etc/config/new; echo x > /etc/config/app.conf; frob';
    assert.deepEqual(run(script).lines, [
      "0 cat: can't open '/missing': No such file or directory",
      "0 rm: can't remove '/missing': No such file or directory",
      "0 mkdir: can't create directory '/a/b': No such file or directory",
      '0 ls: /missing: No such file or directory',
      '0 touch: /etc/config/new: Read-only file system',
      "0 sh: can't create /etc/config/app.conf: Read-only file system",
      '0 sh: frob: not found',
    ]);
    assert.deepEqual(run(script, 'gnu').lines, [
      '0 cat: /missing: No such file or directory',
      "0 rm: cannot remove '/missing': No such file or directory",
      "0 mkdir: cannot create directory '/a/b': No such file or directory",
      "0 ls: cannot access '/missing': No such file or directory",
      "0 touch: cannot touch '/etc/config/new': Read-only file system",
      '0 sh: /etc/config/app.conf: Read-only file system',
      '0 sh: 1: frob: not found',
    ]);
  });

  test('an endless loop that appends: its writes are periodic file events, read lazily', () => {
    const r = run('while true; do echo "tick $(date +%s)" >> /var/log/app.log; sleep 10; done');
    assert.equal(r.flow, 'loop');
    for (const l of r.loops) if (l.writes) r.fs.addPeriodic(l.first, l.period, l.writes);
    const text = r.fs.read('/var/log/app.log', T0 + 3_600_000)!;
    assert.equal(text.split('\n').length - 1, 361, 'one line every 10 s for an hour (0 s … 3600 s)');
    assert.equal(text.split('\n')[360], `tick ${(T0 + 3_600_000) / 1000}`);
  });
});

describe('what PID 1 is, for signals', () => {
  const pid1 = (argv: string[]) => {
    const r = runScript(argv, { env: new Map(), hostname: 'h', onProgram: host.onProgram }, T0);
    return [r.shellIsPid1, r.running.find((p) => p.replacedShell)?.argv[0] ?? '', r.traps.get('TERM')];
  };

  test('a one-command script is exec’d by the shell; a longer one keeps the shell as PID 1; exec replaces it', () => {
    assert.deepEqual(pid1(['sh', '-c', 'sleep infinity']), [false, 'sleep', undefined]);
    assert.deepEqual(pid1(['sh', '-c', 'echo starting; sleep infinity']), [true, '', undefined]);
    assert.deepEqual(pid1(['sh', '-c', 'echo starting; exec nginx -g "daemon off;"']), [false, 'nginx', undefined]);
    assert.deepEqual(pid1(['nginx']), [false, 'nginx', undefined]);
    assert.deepEqual(pid1(['sh', '-c', "trap 'exit 0' TERM; sleep infinity & wait"]), [true, '', 'exit 0']);
  });
});
