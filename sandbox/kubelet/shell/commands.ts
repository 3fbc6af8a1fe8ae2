/**
 * The commands the interpreter runs itself, as busybox (Alpine, BusyBox) or
 * GNU coreutils and bash (Debian, Ubuntu…) print them: shell builtins, text
 * tools (`echo`, `printf`, `cat`, `grep`, `wc`, `head`, `tail`, `sort`,
 * `rev`, `cut`, `tee`…), file tools on the container's filesystem timeline
 * (`touch`, `rm`, `mkdir`, `cp`, `mv`, `ls`, `test -f`…), `sleep`, `date`,
 * `tail -f`. Programs of the image (servers, interpreters, network tools) are
 * the host's (see container/programs.ts).
 */
import { parseDuration } from '../duration';
import { dateCommandOutput, strftime } from '../logs/logTime';
import { arithmetic, matchPattern } from './expand';
import { parseScript } from './parse';
import type { CommandShell as Shell, Flow, FsError } from './types';

type Command = (sh: Shell, args: readonly string[]) => Flow;

export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || path;
}

function dirname(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : trimmed.slice(0, i);
}

export function fsMessage(err: FsError): string {
  return {
    ENOENT: 'No such file or directory',
    EISDIR: 'Is a directory',
    ENOTDIR: 'Not a directory',
    EROFS: 'Read-only file system',
    EEXIST: 'File exists',
    ENOTEMPTY: 'Directory not empty',
    EBUSY: 'Resource busy',
  }[err];
}

const gnu = (sh: Shell) => sh.host.dialect === 'gnu';

const ok = (sh: Shell, status = 0): Flow => {
  sh.status = status;
  return 'ok';
};

const say = (sh: Shell, text: string): Flow => {
  sh.print(`${text}\n`);
  return ok(sh);
};

const fail = (sh: Shell, message: string, status = 1): Flow => {
  sh.printErr(`${message}\n`);
  return ok(sh, status);
};

/** Short flags (`-rf` → r, f) and the other arguments; `--` ends flags. */
function flags(
  args: readonly string[],
  withValue = '',
): { set: Set<string>; values: Map<string, string>; rest: string[] } {
  const set = new Set<string>();
  const values = new Map<string, string>();
  const rest: string[] = [];
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (done || !a.startsWith('-') || a === '-') {
      rest.push(a);
      continue;
    }
    if (a === '--') {
      done = true;
      continue;
    }
    if (a.startsWith('--')) {
      set.add(a.slice(2).split('=')[0]);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (withValue.includes(c)) {
        const v = a.slice(j + 1) || args[++i] || '';
        values.set(c, v);
        break;
      }
      set.add(c);
    }
  }
  return { set, values, rest };
}

/** The text of files (or stdin when there are none); errors printed as `tool` prints them. */
function inputs(sh: Shell, tool: string, files: readonly string[]): { text: string; failed: boolean } {
  if (files.length === 0 || (files.length === 1 && files[0] === '-')) return { text: sh.stdin, failed: false };
  let text = '';
  let failed = false;
  for (const f of files) {
    if (f === '-') {
      text += sh.stdin;
      continue;
    }
    const path = sh.path(f);
    const content = sh.host.fs?.read(path, sh.t);
    if (content !== undefined) {
      text += content;
      continue;
    }
    failed = true;
    const kind = sh.host.fs?.stat(path, sh.t);
    const why = kind === 'dir' ? 'Is a directory' : 'No such file or directory';
    if (gnu(sh)) {
      const open = tool === 'head' || tool === 'tail' ? `cannot open '${f}' for reading: ${why}` : `${f}: ${why}`;
      sh.printErr(`${tool}: ${open}\n`);
    } else if (tool === 'grep') sh.printErr(`grep: ${f}: ${why}\n`);
    else if (kind === 'dir') sh.printErr(`${tool}: read error: Is a directory\n`);
    else sh.printErr(`${tool}: can't open '${f}': ${why}\n`);
  }
  return { text, failed };
}

function lines(text: string): string[] {
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const unlines = (ls: readonly string[]) => ls.map((l) => `${l}\n`).join('');

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  e: '\x1b',
};

/** Backslash escapes as `echo -e` and `printf` read them; `\c` stops the output. */
function unescape(text: string): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '\\' || i + 1 >= text.length) {
      out += text[i];
      continue;
    }
    const c = text[++i];
    if (c === 'c') return { text: out, stop: true };
    out += ESCAPES[c] ?? `\\${c}`;
  }
  return { text: out, stop: false };
}

function echo(sh: Shell, args: readonly string[]): Flow {
  let newline = true;
  let escapes = false;
  let i = 0;
  for (; i < args.length && /^-[neE]+$/.test(args[i]); i++) {
    if (args[i].includes('n')) newline = false;
    if (args[i].includes('e')) escapes = true;
  }
  const text = args.slice(i).join(' ');
  const r = escapes ? unescape(text) : { text, stop: false };
  sh.print(r.text + (newline && !r.stop ? '\n' : ''));
  return ok(sh);
}

function printf(sh: Shell, args: readonly string[]): Flow {
  if (args.length === 0) return ok(sh, 1);
  const format = args[0];
  const values = args.slice(1);
  let used = 0;
  let out = '';
  do {
    const start = used;
    out += format.replace(/%([-0-9.]*)([sdicxXfb%])/g, (_, fl: string, conv: string) => {
      if (conv === '%') return '%';
      const v = values[used++] ?? '';
      const n = Number.parseInt(v, 10) || 0;
      let text: string;
      if (conv === 's') text = v;
      else if (conv === 'b') text = unescape(v).text;
      else if (conv === 'c') text = v.slice(0, 1);
      else if (conv === 'x') text = n.toString(16);
      else if (conv === 'X') text = n.toString(16).toUpperCase();
      else if (conv === 'f') {
        const precision = /\.(\d+)/.exec(fl)?.[1];
        text = (Number(v) || 0).toFixed(precision === undefined ? 6 : Number(precision));
      } else text = String(n);
      const width = Number.parseInt(fl.replace('-', '').split('.')[0], 10) || 0;
      return fl.startsWith('-') ? text.padEnd(width) : text.padStart(width, fl.startsWith('0') ? '0' : ' ');
    });
    if (used === start) break;
  } while (used < values.length);
  const r = unescape(out);
  sh.print(r.text);
  return ok(sh);
}

/** `sleep`: seconds (fractions allowed) with optional s/m/h/d suffixes; `infinity` never returns. */
function sleep(sh: Shell, args: readonly string[]): Flow {
  let ms = 0;
  if (args.length === 0) return fail(sh, 'sleep: missing operand');
  for (const a of args) {
    if (a === 'infinity' || a === 'inf') return 'block';
    const m = /^(\d+(?:\.\d+)?|\.\d+)([smhd]?)$/.exec(a);
    const d = m
      ? Number(m[1]) * { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as '' | 's' | 'm' | 'h' | 'd']
      : parseDuration(a);
    if (d === undefined || !Number.isFinite(d)) {
      return fail(sh, gnu(sh) ? `sleep: invalid time interval '${a}'` : `sleep: invalid number '${a}'`);
    }
    ms += d;
  }
  // Sleeping longer than a year is running until stopped, for the sandbox.
  if (ms > 365 * 86_400_000) return 'block';
  sh.t += Math.round(ms);
  return ok(sh);
}

function date(sh: Shell, args: readonly string[]): Flow {
  const format = args.find((a) => a.startsWith('+'));
  return say(sh, format ? strftime(sh.t, format.slice(1)) : dateCommandOutput(sh.t));
}

function uname(sh: Shell, args: readonly string[]): Flow {
  const f = args.join('');
  if (f.includes('a'))
    return say(sh, `Linux ${sh.host.hostname} 6.8.0-sandbox #1 SMP PREEMPT_DYNAMIC x86_64 GNU/Linux`);
  if (f.includes('r')) return say(sh, '6.8.0-sandbox');
  if (f.includes('m')) return say(sh, 'x86_64');
  if (f.includes('n')) return say(sh, sh.host.hostname);
  return say(sh, 'Linux');
}

function env(sh: Shell, args: readonly string[]): Flow {
  // `env VAR=x cmd …`: runs cmd with those variables.
  const i = args.findIndex((a) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a) && !a.startsWith('-'));
  if (i >= 0) return sh.command(args.filter((a) => !a.startsWith('-')));
  for (const a of args) if (a.includes('=')) sh.vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
  for (const [k, v] of sh.vars) sh.print(`${k}=${v}\n`);
  return ok(sh);
}

function printenv(sh: Shell, args: readonly string[]): Flow {
  if (args.length === 0) return env(sh, []);
  let status = 0;
  for (const name of args) {
    const value = sh.vars.get(name);
    if (value === undefined) status = 1;
    else sh.print(`${value}\n`);
  }
  return ok(sh, status);
}

function seq(sh: Shell, args: readonly string[]): Flow {
  const n = args.map(Number);
  const [first, step, last] = n.length === 1 ? [1, 1, n[0]] : n.length === 2 ? [n[0], 1, n[1]] : [n[0], n[1], n[2]];
  if (![first, step, last].every(Number.isFinite) || step === 0) return ok(sh, 1);
  for (let v = first, count = 0; (step > 0 ? v <= last : v >= last) && count < 10_000; v += step, count++)
    sh.print(`${v}\n`);
  return ok(sh);
}

/** `[ … ]` / `test`: strings, integers and files (on the container's filesystem at the script's time). */
function test(sh: Shell, raw: readonly string[], closing = ']'): Flow {
  const args = raw[raw.length - 1] === closing ? raw.slice(0, -1) : [...raw];
  const fs = sh.host.fs;
  const file = (op: string, f: string): boolean => {
    const path = sh.path(f);
    const kind = fs?.stat(path, sh.t);
    switch (op) {
      case '-e':
      case '-a':
      case '-r':
      case '-w':
        return kind !== undefined;
      case '-f':
        return kind === 'file';
      case '-d':
        return kind === 'dir';
      case '-s':
        return kind === 'dir' || (fs?.read(path, sh.t) ?? '') !== '';
      case '-x':
        return kind === 'dir' || /^\/(usr\/)?(local\/)?s?bin\//.test(path);
      case '-L':
      case '-h':
      case '-p':
      case '-S':
      case '-b':
      case '-c':
        return false;
      default:
        return false;
    }
  };
  const unary = (a: readonly string[]): boolean => {
    if (a.length === 0) return false;
    if (a[0] === '!') return !unary(a.slice(1));
    if (a.length === 1) return a[0] !== '';
    if (a.length === 2) {
      if (a[0] === '-n') return a[1] !== '';
      if (a[0] === '-z') return a[1] === '';
      if (/^-[eafdsrwxLhpSbc]$/.test(a[0])) return file(a[0], a[1]);
      return false;
    }
    const [x, op, y] = a;
    const nx = Number(x);
    const ny = Number(y);
    switch (op) {
      case '=':
      case '==':
        return closing === ']]' ? matchPattern(x, y) : x === y;
      case '!=':
        return closing === ']]' ? !matchPattern(x, y) : x !== y;
      case '=~':
        try {
          return new RegExp(y).test(x);
        } catch {
          return false;
        }
      case '<':
        return x < y;
      case '>':
        return x > y;
      case '-eq':
        return nx === ny;
      case '-ne':
        return nx !== ny;
      case '-lt':
        return nx < ny;
      case '-le':
        return nx <= ny;
      case '-gt':
        return nx > ny;
      case '-ge':
        return nx >= ny;
      default:
        return false;
    }
  };
  // -a / -o join expressions (left to right, -a binding tighter).
  const evaluate = (a: readonly string[]): boolean => {
    const or = a.indexOf('-o');
    if (or > 0) return evaluate(a.slice(0, or)) || evaluate(a.slice(or + 1));
    const and = a.indexOf('-a', 1);
    if (and > 0 && a.length > 3) return evaluate(a.slice(0, and)) && evaluate(a.slice(and + 1));
    return unary(a);
  };
  return ok(sh, evaluate(args) ? 0 : 1);
}

/** A nested `sh -c` is handled by the interpreter; these commands never see it. */

function cat(sh: Shell, args: readonly string[]): Flow {
  const { rest } = flags(args);
  let failed = false;
  // File by file: an error comes where it happens among the contents.
  for (const f of rest.length > 0 ? rest : ['-']) {
    const r = inputs(sh, 'cat', [f]);
    sh.print(r.text);
    failed ||= r.failed;
  }
  return ok(sh, failed ? 1 : 0);
}

function tee(sh: Shell, args: readonly string[]): Flow {
  const { set, rest } = flags(args);
  sh.print(sh.stdin);
  let status = 0;
  for (const f of rest) {
    const err = sh.host.fs?.write(sh.path(f), sh.stdin, sh.t, set.has('a'));
    if (err) {
      status = 1;
      sh.printErr(`tee: ${f}: ${fsMessage(err)}\n`);
    }
  }
  return ok(sh, status);
}

function touch(sh: Shell, args: readonly string[]): Flow {
  const { rest } = flags(args, 'dr');
  const fs = sh.host.fs;
  let status = 0;
  for (const f of rest) {
    const path = sh.path(f);
    if (!fs || fs.stat(path, sh.t) !== undefined) continue;
    const err = fs.write(path, '', sh.t, false);
    if (err) {
      status = 1;
      sh.printErr(gnu(sh) ? `touch: cannot touch '${f}': ${fsMessage(err)}\n` : `touch: ${f}: ${fsMessage(err)}\n`);
    }
  }
  return ok(sh, status);
}

function rm(sh: Shell, args: readonly string[]): Flow {
  const { set, rest } = flags(args);
  const force = set.has('f') || set.has('force');
  const recursive = set.has('r') || set.has('R') || set.has('recursive');
  let status = 0;
  for (const f of rest) {
    const path = sh.path(f);
    const fs = sh.host.fs;
    const kind = fs?.stat(path, sh.t);
    if (kind === undefined) {
      if (!force) {
        status = 1;
        sh.printErr(
          gnu(sh)
            ? `rm: cannot remove '${f}': No such file or directory\n`
            : `rm: can't remove '${f}': No such file or directory\n`,
        );
      }
      continue;
    }
    if (kind === 'dir' && !recursive) {
      status = 1;
      sh.printErr(gnu(sh) ? `rm: cannot remove '${f}': Is a directory\n` : `rm: '${f}' is a directory\n`);
      continue;
    }
    const err = fs!.remove(path, sh.t, recursive);
    if (err) {
      status = 1;
      sh.printErr(
        gnu(sh) ? `rm: cannot remove '${f}': ${fsMessage(err)}\n` : `rm: can't remove '${f}': ${fsMessage(err)}\n`,
      );
    }
  }
  return ok(sh, status);
}

function mkdir(sh: Shell, args: readonly string[]): Flow {
  const { set, rest } = flags(args, 'm');
  let status = 0;
  for (const d of rest) {
    const err = sh.host.fs?.mkdir(sh.path(d), sh.t, set.has('p') || set.has('parents'));
    if (err) {
      status = 1;
      sh.printErr(
        gnu(sh)
          ? `mkdir: cannot create directory '${d}': ${fsMessage(err)}\n`
          : `mkdir: can't create directory '${d}': ${fsMessage(err)}\n`,
      );
    }
  }
  return ok(sh, status);
}

function rmdir(sh: Shell, args: readonly string[]): Flow {
  const { rest } = flags(args);
  let status = 0;
  for (const d of rest) {
    const fs = sh.host.fs;
    const path = sh.path(d);
    const listing = fs?.list(path, sh.t);
    const err: FsError | undefined =
      listing === undefined ? 'ENOENT' : listing.length > 0 ? 'ENOTEMPTY' : fs!.remove(path, sh.t, true);
    if (err) {
      status = 1;
      sh.printErr(`rmdir: '${d}': ${fsMessage(err)}\n`);
    }
  }
  return ok(sh, status);
}

function copy(sh: Shell, args: readonly string[], move: boolean): Flow {
  const tool = move ? 'mv' : 'cp';
  const { rest } = flags(args);
  if (rest.length < 2) return fail(sh, `${tool}: missing file operand`);
  const target = rest[rest.length - 1];
  const fs = sh.host.fs;
  if (!fs) return ok(sh);
  let status = 0;
  for (const src of rest.slice(0, -1)) {
    const text = fs.read(sh.path(src), sh.t);
    if (text === undefined) {
      status = 1;
      sh.printErr(
        gnu(sh)
          ? `${tool}: cannot stat '${src}': No such file or directory\n`
          : move
            ? `mv: can't rename '${src}': No such file or directory\n`
            : `cp: can't stat '${src}': No such file or directory\n`,
      );
      continue;
    }
    const dest = fs.stat(sh.path(target), sh.t) === 'dir' ? `${sh.path(target)}/${basename(src)}` : sh.path(target);
    const err = fs.write(dest, text, sh.t, false);
    if (err) {
      status = 1;
      sh.printErr(`${tool}: can't create '${target}': ${fsMessage(err)}\n`);
      continue;
    }
    if (move) fs.remove(sh.path(src), sh.t, false);
  }
  return ok(sh, status);
}

function ls(sh: Shell, args: readonly string[]): Flow {
  const { set, rest } = flags(args);
  const fs = sh.host.fs;
  const targets = rest.length > 0 ? rest : ['.'];
  let status = 0;
  const all = set.has('a') || set.has('A');
  targets.forEach((target, i) => {
    const path = sh.path(target === '.' ? (sh.vars.get('PWD') ?? '/') : target);
    const kind = fs?.stat(path, sh.t);
    if (kind === undefined) {
      status = 2;
      sh.printErr(
        gnu(sh)
          ? `ls: cannot access '${target}': No such file or directory\n`
          : `ls: ${target}: No such file or directory\n`,
      );
      return;
    }
    if (kind === 'file') {
      sh.print(`${target}\n`);
      return;
    }
    if (targets.length > 1) sh.print(`${i > 0 ? '\n' : ''}${target}:\n`);
    const names = (fs!.list(path, sh.t) ?? []).filter((n) => all || !n.startsWith('.'));
    sh.print(unlines(names));
  });
  return ok(sh, status);
}

function grep(sh: Shell, args: readonly string[]): Flow {
  const { set, values, rest } = flags(args, 'em');
  const pattern = values.get('e') ?? rest.shift();
  if (pattern === undefined) return fail(sh, 'Usage: grep [-HhnlLoqvsrRiwFE] PATTERN [FILE]...', 2);
  const { text, failed } = inputs(sh, 'grep', rest);
  let re: RegExp;
  try {
    const source = set.has('F') ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : basicToJs(pattern, set.has('E'));
    re = new RegExp(set.has('w') ? `\\b(?:${source})\\b` : source, set.has('i') ? 'i' : '');
  } catch {
    return fail(sh, `grep: bad regex '${pattern}'`, 2);
  }
  const matched = lines(text).filter((l) => re.test(l) !== set.has('v'));
  if (set.has('c')) sh.print(`${matched.length}\n`);
  else if (!set.has('q')) sh.print(unlines(matched));
  return ok(sh, failed ? 2 : matched.length > 0 ? 0 : 1);
}

/** A POSIX basic regular expression (or extended with -E) as a JavaScript one, well enough for grep. */
function basicToJs(pattern: string, extended: boolean): string {
  if (extended) return pattern;
  return pattern.replace(/\\([(){}|+?])|([(){}|+?])/g, (_, escaped: string, plain: string) =>
    escaped ? escaped : `\\${plain}`,
  );
}

function wc(sh: Shell, args: readonly string[]): Flow {
  const { set, rest } = flags(args);
  const { text, failed } = inputs(sh, 'wc', rest);
  const counts = {
    l: (text.match(/\n/g) ?? []).length,
    w: text.split(/\s+/).filter((w) => w !== '').length,
    c: text.length,
  };
  const which = (['l', 'w', 'c'] as const).filter((k) => set.has(k));
  const shown = (which.length > 0 ? which : (['l', 'w', 'c'] as const)).map((k) => counts[k]);
  const suffix = rest.length === 1 ? ` ${rest[0]}` : '';
  sh.print(`${shown.join(' ')}${suffix}\n`);
  return ok(sh, failed ? 1 : 0);
}

function headOrTail(sh: Shell, args: readonly string[], head: boolean): Flow {
  const normalized = args.map((a) => (/^-\d+$/.test(a) ? `-n${a.slice(1)}` : a));
  const { set, values, rest } = flags(normalized, 'nc');
  const tool = head ? 'head' : 'tail';
  if (!head && (set.has('f') || set.has('F') || set.has('follow'))) return tailFollow(sh, rest, values, set.has('F'));
  const n = values.get('n');
  const count = n === undefined ? 10 : Number.parseInt(n.replace(/^\+/, ''), 10) || 0;
  const { text, failed } = inputs(sh, tool, rest);
  const ls = lines(text);
  const fromStart = n?.startsWith('+');
  sh.print(
    unlines(head ? ls.slice(0, count) : fromStart ? ls.slice(Math.max(0, count - 1)) : ls.slice(-count || ls.length)),
  );
  return ok(sh, failed ? 1 : 0);
}

/** `tail -f FILE`: the last lines, then whatever is appended, until stopped. */
function tailFollow(sh: Shell, files: readonly string[], values: Map<string, string>, retry: boolean): Flow {
  const fs = sh.host.fs;
  const count = Number.parseInt(values.get('n') ?? '10', 10) || 0;
  if (files.length === 0) return 'block';
  for (const f of files) {
    const path = sh.path(f);
    const text = fs?.read(path, sh.t);
    if (text === undefined) {
      sh.printErr(
        gnu(sh)
          ? `tail: cannot open '${f}' for reading: No such file or directory\n`
          : `tail: can't open '${f}': No such file or directory\n`,
      );
      if (!retry && files.length === 1) return ok(sh, 1);
    } else sh.print(unlines(lines(text).slice(-count || undefined)));
    const source = fs?.follow?.(path, sh.t);
    if (source) sh.follow(source);
  }
  return 'block';
}

function sortLines(sh: Shell, args: readonly string[]): Flow {
  const { set, rest } = flags(args, 'kt');
  const { text, failed } = inputs(sh, 'sort', rest);
  let ls = lines(text);
  ls = set.has('n') ? ls.sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b)) : ls.sort();
  if (set.has('r')) ls.reverse();
  if (set.has('u')) ls = ls.filter((l, i) => l !== ls[i - 1]);
  sh.print(unlines(ls));
  return ok(sh, failed ? 2 : 0);
}

function uniq(sh: Shell, args: readonly string[]): Flow {
  const { set, rest } = flags(args);
  const { text } = inputs(sh, 'uniq', rest);
  const out: string[] = [];
  const counts: number[] = [];
  for (const l of lines(text)) {
    if (out[out.length - 1] === l) counts[counts.length - 1]++;
    else {
      out.push(l);
      counts.push(1);
    }
  }
  sh.print(unlines(set.has('c') ? out.map((l, i) => `${String(counts[i]).padStart(7)} ${l}`) : out));
  return ok(sh);
}

function rev(sh: Shell, args: readonly string[]): Flow {
  const { text, failed } = inputs(sh, 'rev', flags(args).rest);
  sh.print(unlines(lines(text).map((l) => [...l].reverse().join(''))));
  return ok(sh, failed ? 1 : 0);
}

function cut(sh: Shell, args: readonly string[]): Flow {
  const { values, rest } = flags(args, 'dfc');
  const { text } = inputs(sh, 'cut', rest);
  const list = values.get('f') ?? values.get('c') ?? '';
  const picks = (n: number) =>
    list.split(',').some((part) => {
      const [a, b] = part.split('-');
      const lo = a === '' ? 1 : Number(a);
      const hi = b === undefined ? lo : b === '' ? Infinity : Number(b);
      return n >= lo && n <= hi;
    });
  const out = lines(text).map((l) => {
    if (values.has('c')) return [...l].filter((_, i) => picks(i + 1)).join('');
    const d = values.get('d') ?? '\t';
    const fields = l.split(d);
    if (fields.length === 1) return l;
    return fields.filter((_, i) => picks(i + 1)).join(d);
  });
  sh.print(unlines(out));
  return ok(sh);
}

function tr(sh: Shell, args: readonly string[]): Flow {
  const { set, rest } = flags(args);
  const expand = (s: string) =>
    s
      .replace(/\[:upper:\]/g, 'A-Z')
      .replace(/\[:lower:\]/g, 'a-z')
      .replace(/\[:digit:\]/g, '0-9')
      .replace(/(.)-(.)/g, (_, a: string, b: string) => {
        let out = '';
        for (let c = a.charCodeAt(0); c <= b.charCodeAt(0); c++) out += String.fromCharCode(c);
        return out;
      });
  const from = [...expand(rest[0] ?? '')];
  const to = [...expand(rest[1] ?? '')];
  let out = '';
  for (const c of sh.stdin) {
    const i = from.indexOf(c);
    if (set.has('d')) out += i >= 0 ? '' : c;
    else out += i >= 0 ? (to[Math.min(i, to.length - 1)] ?? c) : c;
  }
  sh.print(out);
  return ok(sh);
}

/** `read VAR…`: one line of stdin (consumed), split over the names; status 1 at the end of input. */
function read(sh: Shell, args: readonly string[]): Flow {
  const { rest } = flags(args, 'pdnt');
  const stdin = sh.stdin;
  if (stdin === '') return ok(sh, 1);
  const nl = stdin.indexOf('\n');
  const line = nl < 0 ? stdin : stdin.slice(0, nl);
  sh.stdin = nl < 0 ? '' : stdin.slice(nl + 1);
  const names = rest.length > 0 ? rest : ['REPLY'];
  const fields = line.trim().split(/\s+/);
  names.forEach((name, i) => {
    sh.vars.set(name, i === names.length - 1 ? fields.slice(i).join(' ') : (fields[i] ?? ''));
  });
  return ok(sh);
}

function set(sh: Shell, args: readonly string[]): Flow {
  if (args.length === 0) {
    for (const [k, v] of sh.vars) sh.print(`${k}='${v}'\n`);
    return ok(sh);
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      sh.args = args.slice(i + 1);
      break;
    }
    if (a === '-o' && args[i + 1] === 'errexit') sh.errexit = true;
    if (/^-[a-z]*e/.test(a)) sh.errexit = true;
    if (/^\+[a-z]*e/.test(a)) sh.errexit = false;
  }
  return ok(sh);
}

function expr(sh: Shell, args: readonly string[]): Flow {
  if (args.length === 3 && ['=', '!=', '<', '>', '<=', '>='].includes(args[1])) {
    const [a, op, b] = args;
    const r = { '=': a === b, '!=': a !== b, '<': a < b, '>': a > b, '<=': a <= b, '>=': a >= b }[op] ? 1 : 0;
    sh.print(`${r}\n`);
    return ok(sh, r === 0 ? 1 : 0);
  }
  const value = arithmetic(args.join(' ').replace(/\\\*/g, '*'), sh);
  sh.print(`${value}\n`);
  return ok(sh, value === 0 ? 1 : 0);
}

/** `timeout N cmd`: the command, stopped after N seconds (status 124) if it takes longer. */
function timeout(sh: Shell, args: readonly string[]): Flow {
  const { rest } = flags(args, 'sk');
  const limit = rest[0] === undefined ? NaN : Number.parseFloat(rest[0]) * 1000;
  if (!Number.isFinite(limit)) return fail(sh, `timeout: invalid time interval '${rest[0] ?? ''}'`, 125);
  const start = sh.t;
  const flow = sh.command(rest.slice(1));
  if (flow === 'block' || sh.t - start > limit) {
    sh.t = start + limit;
    return ok(sh, 124);
  }
  return flow;
}

/** `type` / `command -v`: builtins and the host's programs are found. */
function commandV(sh: Shell, args: readonly string[]): Flow {
  const { set, rest } = flags(args);
  if (!set.has('v') && !set.has('V')) return rest.length > 0 ? sh.command(rest) : ok(sh);
  const name = rest[0] ?? '';
  if (Object.prototype.hasOwnProperty.call(COMMANDS, name)) return say(sh, name);
  return ok(sh, 1);
}

const quiet: Command = (sh) => ok(sh);

/** The cluster DNS service every pod's resolv.conf names. */
const DNS_SERVER = '10.96.0.10';

/** `nslookup NAME`, as busybox 1.28, later busybox, or bind print it; exit 1 when the name does not resolve. */
function nslookup(sh: Shell, args: readonly string[]): Flow {
  const name = args.find((a) => !a.startsWith('-'));
  if (name === undefined || !sh.host.resolve) return ok(sh);
  const r = sh.host.resolve(name, sh.t);
  const style = sh.host.nslookupStyle ?? 'busybox';
  if (style === 'busybox-1.28') {
    sh.print(`Server:    ${DNS_SERVER}\nAddress 1: ${DNS_SERVER} kube-dns.kube-system.svc.cluster.local\n\n`);
    if (r.address === undefined) return fail(sh, `nslookup: can't resolve '${name}'`);
    sh.print(`Name:      ${r.fqdn}\nAddress 1: ${r.address} ${r.fqdn}\n`);
    return ok(sh);
  }
  sh.print(`Server:\t\t${DNS_SERVER}\nAddress:\t${DNS_SERVER}${style === 'bind' ? '#' : ':'}53\n\n`);
  if (r.address === undefined) {
    sh.print(`** server can't find ${r.fqdn}: NXDOMAIN\n\n`);
    return ok(sh, 1);
  }
  sh.print(`Name:\t${r.fqdn}\nAddress: ${r.address}\n\n`);
  return ok(sh);
}

/** `getent hosts NAME` / `host NAME` / `dig +short NAME`: the address, or exit 2 / 1 / nothing. */
function lookup(format: 'getent' | 'host' | 'dig'): Command {
  return (sh, args) => {
    const words = args.filter((a) => !a.startsWith('-') && !a.startsWith('+') && a !== 'hosts');
    const name = words[0];
    if (name === undefined || !sh.host.resolve) return ok(sh);
    const r = sh.host.resolve(name, sh.t);
    if (r.address === undefined) {
      if (format === 'host') return fail(sh, `Host ${name} not found: 3(NXDOMAIN)`);
      return ok(sh, format === 'getent' ? 2 : 0);
    }
    if (format === 'getent') return say(sh, `${r.address.padEnd(15)} ${r.fqdn}`);
    if (format === 'host') return say(sh, `${r.fqdn} has address ${r.address}`);
    return say(sh, r.address);
  };
}

function trap(sh: Shell, args: readonly string[]): Flow {
  if (args.length >= 2) {
    for (const signal of args.slice(1)) sh.traps.set(signal.replace(/^SIG/, '').toUpperCase(), args[0]);
  }
  return ok(sh);
}

function source(sh: Shell, args: readonly string[]): Flow {
  const file = args[0];
  const text = file === undefined ? undefined : sh.host.fs?.read(sh.path(file), sh.t);
  if (text === undefined) return fail(sh, `${sh.shellName}: .: ${file ?? ''}: not found`, 1);
  return sh.run(parseScript(text));
}

export const COMMANDS: Record<string, Command | undefined> = {
  echo,
  printf,
  cat,
  tee,
  touch,
  rm,
  mkdir,
  rmdir,
  cp: (sh, args) => copy(sh, args, false),
  mv: (sh, args) => copy(sh, args, true),
  ls,
  grep,
  egrep: (sh, args) => grep(sh, ['-E', ...args]),
  wc,
  head: (sh, args) => headOrTail(sh, args, true),
  tail: (sh, args) => headOrTail(sh, args, false),
  sort: sortLines,
  uniq,
  rev,
  cut,
  tr,
  sleep,
  date,
  uname,
  env,
  printenv,
  seq,
  test: (sh, args) => test(sh, args),
  '[': (sh, args) => test(sh, args),
  '[[': (sh, args) => test(sh, args, ']]'),
  true: quiet,
  ':': quiet,
  false: (sh) => ok(sh, 1),
  exit: (sh, args) => {
    sh.status = Number(args[0] ?? sh.status) & 255;
    return 'exit';
  },
  return: (sh, args) => {
    if (args[0] !== undefined) sh.status = Number(args[0]) & 255;
    return 'return';
  },
  break: (sh, args) => sh.loopControl('break', Number(args[0] ?? 1) || 1),
  continue: (sh, args) => sh.loopControl('continue', Number(args[0] ?? 1) || 1),
  hostname: (sh, args) => say(sh, args.includes('-i') ? (sh.host.podIP ?? '') : sh.host.hostname),
  whoami: (sh) => say(sh, 'root'),
  id: (sh) => say(sh, 'uid=0(root) gid=0(root) groups=0(root),10(wheel)'),
  pwd: (sh) => say(sh, sh.vars.get('PWD') ?? '/'),
  cd: (sh, args) => {
    const dir = sh.path(args[0] ?? sh.vars.get('HOME') ?? '/');
    if (sh.host.fs && sh.host.fs.stat(dir, sh.t) !== 'dir')
      return fail(sh, `${sh.shellName}: cd: can't cd to ${args[0] ?? ''}: No such file or directory`, 2);
    sh.vars.set('PWD', dir);
    return ok(sh);
  },
  basename: (sh, args) => {
    const b = basename(args[0] ?? '');
    return say(sh, args[1] && b.endsWith(args[1]) ? b.slice(0, -args[1].length) : b);
  },
  dirname: (sh, args) => say(sh, dirname(args[0] ?? '.')),
  export: (sh, args) => {
    for (const a of args) if (a.includes('=')) sh.vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    return ok(sh);
  },
  local: (sh, args) => {
    for (const a of args) {
      if (a.includes('=')) sh.vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
      else if (!sh.vars.has(a)) sh.vars.set(a, '');
    }
    return ok(sh);
  },
  readonly: (sh, args) => {
    for (const a of args) if (a.includes('=')) sh.vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    return ok(sh);
  },
  unset: (sh, args) => {
    for (const a of args) sh.vars.delete(a);
    return ok(sh);
  },
  shift: (sh, args) => {
    const n = Number(args[0] ?? 1) || 1;
    if (n > sh.args.length) return ok(sh, 1);
    sh.args = sh.args.slice(n);
    return ok(sh);
  },
  read,
  set,
  eval: (sh, args) => sh.run(parseScript(args.join(' '))),
  source,
  '.': source,
  expr,
  timeout,
  command: commandV,
  type: (sh, args) => commandV(sh, ['-v', ...args]),
  nohup: (sh, args) => sh.command(args),
  nice: (sh, args) => sh.command(args.filter((a) => !/^-n?\d*$/.test(a))),
  trap,
  wait: (sh) => (sh.backgroundRunning() ? 'block' : ok(sh)),
  kill: quiet,
  umask: quiet,
  ulimit: quiet,
  sync: quiet,
  chmod: quiet,
  chown: quiet,
  chgrp: quiet,
  ln: quiet,
  yes: () => 'block',
  nslookup,
  getent: lookup('getent'),
  host: lookup('host'),
  dig: lookup('dig'),
};
