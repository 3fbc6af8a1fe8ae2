/**
 * The commands the interpreter knows, as busybox prints them: `echo`,
 * `printf`, `date`, `hostname`, `env`, `seq`, `[`, `sleep`, `exit`, nested
 * `sh -c`, `cat` of the files ConfigMap and Secret volumes project, and quiet
 * ones (`mkdir`, `touch`, `wget`, …) that print nothing. The rest of the
 * filesystem and the network are not simulated.
 */
import { parseDuration } from '../../duration';
import { dateCommandOutput, strftime } from '../logTime';
import { parseScript } from './parse';
import type { CommandShell as Shell, Flow } from './types';

type Command = (sh: Shell, args: readonly string[]) => Flow;

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

const ok = (sh: Shell, status = 0): Flow => {
  sh.status = status;
  return 'ok';
};

const say = (sh: Shell, text: string): Flow => {
  sh.print(`${text}\n`);
  return ok(sh);
};

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
    out += format.replace(/%([-0-9.]*)([sdicxX%])/g, (_, flags: string, conv: string) => {
      if (conv === '%') return '%';
      const v = values[used++] ?? '';
      const n = Number.parseInt(v, 10) || 0;
      const text =
        conv === 's'
          ? v
          : conv === 'c'
            ? v.slice(0, 1)
            : conv === 'x'
              ? n.toString(16)
              : conv === 'X'
                ? n.toString(16).toUpperCase()
                : String(n);
      const width = Number.parseInt(flags.replace('-', ''), 10) || 0;
      return flags.startsWith('-') ? text.padEnd(width) : text.padStart(width, flags.startsWith('0') ? '0' : ' ');
    });
    if (used === start) break;
  } while (used < values.length);
  const r = unescape(out);
  sh.print(r.text);
  return ok(sh);
}

/** busybox `sleep`: seconds (fractions allowed) with optional s/m/h/d suffixes; `infinity` never returns. */
function sleep(sh: Shell, args: readonly string[]): Flow {
  let ms = 0;
  for (const a of args) {
    const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(a);
    const d = m
      ? Number(m[1]) * { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as '' | 's' | 'm' | 'h' | 'd']
      : parseDuration(a);
    if (d === undefined || !Number.isFinite(d)) return 'block';
    ms += d;
  }
  sh.t += Math.round(ms);
  return ok(sh);
}

function date(sh: Shell, args: readonly string[]): Flow {
  const format = args.find((a) => a.startsWith('+'));
  return say(sh, format ? strftime(sh.t, format.slice(1)) : dateCommandOutput(sh.t));
}

function uname(sh: Shell, args: readonly string[]): Flow {
  const flags = args.join('');
  if (flags.includes('a'))
    return say(sh, `Linux ${sh.host.hostname} 6.8.0-sandbox #1 SMP PREEMPT_DYNAMIC x86_64 GNU/Linux`);
  if (flags.includes('r')) return say(sh, '6.8.0-sandbox');
  if (flags.includes('m')) return say(sh, 'x86_64');
  if (flags.includes('n')) return say(sh, sh.host.hostname);
  return say(sh, 'Linux');
}

function env(sh: Shell, args: readonly string[]): Flow {
  if (args.length > 0) {
    const value = sh.vars.get(args[0]);
    if (value === undefined) return ok(sh, 1);
    return say(sh, value);
  }
  for (const [k, v] of sh.vars) sh.print(`${k}=${v}\n`);
  return ok(sh);
}

function seq(sh: Shell, args: readonly string[]): Flow {
  const n = args.map(Number);
  const [first, step, last] = n.length === 1 ? [1, 1, n[0]] : n.length === 2 ? [n[0], 1, n[1]] : [n[0], n[1], n[2]];
  if (![first, step, last].every(Number.isFinite) || step === 0) return ok(sh, 1);
  for (let v = first, count = 0; (step > 0 ? v <= last : v >= last) && count < 1000; v += step, count++)
    sh.print(`${v}\n`);
  return ok(sh);
}

/** `[ … ]` / `test`: strings and integers; files never exist. */
function test(sh: Shell, raw: readonly string[]): Flow {
  const args = raw[raw.length - 1] === ']' ? raw.slice(0, -1) : [...raw];
  const negate = args[0] === '!';
  const a = negate ? args.slice(1) : args;
  const ints = (x: string, y: string) => [Number(x), Number(y)];
  let result: boolean;
  if (a.length === 0) result = false;
  else if (a.length === 1) result = a[0] !== '';
  else if (a.length === 2) result = a[0] === '-n' ? a[1] !== '' : a[0] === '-z' ? a[1] === '' : false;
  else {
    const [x, y] = ints(a[0], a[2]);
    const ops: Record<string, boolean> = {
      '=': a[0] === a[2],
      '==': a[0] === a[2],
      '!=': a[0] !== a[2],
      '-eq': x === y,
      '-ne': x !== y,
      '-lt': x < y,
      '-le': x <= y,
      '-gt': x > y,
      '-ge': x >= y,
    };
    result = ops[a[1]] ?? false;
  }
  return ok(sh, result !== negate ? 0 : 1);
}

/**
 * A nested shell: `sh -c 'script'` (or `-ec`, `-xc`) runs the script with a copy of the variables; `sh` alone reads an
 * empty stdin and returns.
 */
function shell(sh: Shell, args: readonly string[]): Flow {
  const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
  if (c < 0 || c + 1 >= args.length) return ok(sh);
  const saved = new Map(sh.vars);
  const flow = sh.run(parseScript(args[c + 1]));
  sh.vars.clear();
  for (const [k, v] of saved) sh.vars.set(k, v);
  return flow;
}

const quiet: Command = (sh) => ok(sh);

/** `cat FILE…`: projected files print their text; any other path is busybox's error (exit 1). */
function cat(sh: Shell, args: readonly string[]): Flow {
  let status = 0;
  for (const path of args.filter((a) => a !== '-' && !a.startsWith('-'))) {
    const text = sh.host.readFile?.(path);
    if (text === undefined) {
      sh.print(`cat: can't open '${path}': No such file or directory\n`);
      status = 1;
    } else sh.print(text);
  }
  return ok(sh, status);
}

export const COMMANDS: Record<string, Command | undefined> = {
  echo,
  cat,
  printf,
  sleep,
  date,
  uname,
  env,
  printenv: env,
  seq,
  test,
  '[': test,
  sh: shell,
  bash: shell,
  ash: shell,
  dash: shell,
  zsh: shell,
  true: quiet,
  ':': quiet,
  false: (sh) => ok(sh, 1),
  exit: (sh, args) => {
    sh.status = Number(args[0] ?? sh.status) & 255;
    return 'exit';
  },
  hostname: (sh) => say(sh, sh.host.hostname),
  whoami: (sh) => say(sh, 'root'),
  id: (sh) => say(sh, 'uid=0(root) gid=0(root) groups=0(root),10(wheel)'),
  pwd: (sh) => say(sh, sh.vars.get('PWD') ?? '/'),
  cd: (sh, args) => {
    sh.vars.set('PWD', args[0] ?? '/');
    return ok(sh);
  },
  export: (sh, args) => {
    for (const a of args) if (a.includes('=')) sh.vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    return ok(sh);
  },
  unset: (sh, args) => {
    for (const a of args) sh.vars.delete(a);
    return ok(sh);
  },
  ls: (sh, args) => {
    if (args.filter((a) => !a.startsWith('-')).every((a) => a === '/'))
      for (const d of ['bin', 'dev', 'etc', 'home', 'lib', 'proc', 'root', 'sys', 'tmp', 'usr', 'var'])
        sh.print(`${d}\n`);
    return ok(sh);
  },
  set: quiet,
  trap: quiet,
  shift: quiet,
  umask: quiet,
  ulimit: quiet,
  wait: quiet,
  mkdir: quiet,
  touch: quiet,
  cp: quiet,
  mv: quiet,
  rm: quiet,
  ln: quiet,
  chmod: quiet,
  chown: quiet,
  nslookup: quiet,
  wget: quiet,
  curl: quiet,
};
