/**
 * What a container's image and command imply about how it ends: `false`
 * fails, `true`/`echo …` complete at once, `sleep 5` completes after 5 s,
 * `sh -c "…; exit 3"` exits 3, a shell image with no command exits at once
 * (no TTY), and anything else — a server — runs until stopped.
 */
import type { Container } from 'kubernetes-types/core/v1';
import { parseDuration } from './duration';

/**
 * When a container exits on its own: `after` ms after it starts, `'quick'`
 * (a command that returns at once) or `'work'` (an init container's default
 * run); `oom` means reason OOMKilled.
 */
export interface ExitSpec {
  after: number | 'quick' | 'work';
  code: number;
  oom?: boolean;
}

export const SHELL_IMAGES = new Set(['busybox', 'alpine', 'ubuntu', 'debian', 'centos', 'fedora']);
const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);
/** Commands that do their job and return (exit 0). */
const QUICK = new Set([
  'true',
  ':',
  'echo',
  'printf',
  'date',
  'env',
  'ls',
  'pwd',
  'mkdir',
  'touch',
  'cp',
  'mv',
  'rm',
  'chmod',
  'chown',
  'hostname',
  'whoami',
  'id',
  'uname',
  'nslookup',
  'wget',
  'curl',
]);

/** `nginx:1.27`, `docker.io/library/busybox@sha256:…` → `nginx`, `busybox`. */
export function imageBaseName(image: string): string {
  const noDigest = image.split('@')[0];
  const last = noDigest.slice(noDigest.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  return colon < 0 ? last : last.slice(0, colon);
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The exit a container's command implies, or undefined when it runs until stopped. Init containers default to a short
 * piece of work.
 */
export function commandExit(container: Container, init: boolean): ExitSpec | undefined {
  const shellImage = SHELL_IMAGES.has(imageBaseName(container.image ?? ''));
  let argv: string[] | undefined;
  if (container.command && container.command.length > 0) argv = [...container.command, ...(container.args ?? [])];
  else if (shellImage) argv = container.args ?? [];
  if (argv === undefined) return init ? { after: 'work', code: 0 } : undefined;
  if (argv.length === 0) return { after: 'quick', code: 0 };
  const result = argvExit(argv);
  if (result === undefined && init) return { after: 'work', code: 0 };
  return result;
}

function argvExit(argv: string[]): ExitSpec | undefined {
  const cmd = basename(argv[0]);
  if (SHELLS.has(cmd)) {
    const c = argv.indexOf('-c');
    return c >= 0 && c + 1 < argv.length ? scriptExit(argv[c + 1]) : { after: 'quick', code: 0 };
  }
  return scriptExit(argv.map(quoteIfNeeded).join(' '));
}

function quoteIfNeeded(word: string): string {
  return /\s/.test(word) ? `'${word}'` : word;
}

/** Reads a shell script well enough to tell how long it sleeps and how it exits; undefined for loops and servers. */
export function scriptExit(script: string): ExitSpec | undefined {
  let sleptMs = 0;
  let code = 0;
  for (const segment of script.split(/;|&&|\|\||\n/)) {
    const words = segment
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    if (words.length === 0) continue;
    const cmd = basename(words[0]);
    if (cmd === 'while' || cmd === 'until' || cmd === 'for' || cmd === 'do' || cmd === 'done') return undefined;
    if (cmd === 'tail' && words.includes('-f')) return undefined;
    if (cmd === 'exit') return finish(sleptMs, Number(words[1] ?? code) & 255);
    if (cmd === 'sleep') {
      const ms = sleepMs(words[1]);
      if (ms === undefined) return undefined;
      sleptMs += ms;
      code = 0;
    } else if (cmd === 'false') code = 1;
    else if (QUICK.has(cmd)) code = 0;
    else return undefined;
  }
  return finish(sleptMs, code);
}

function finish(sleptMs: number, code: number): ExitSpec {
  return { after: sleptMs > 0 ? sleptMs : 'quick', code: Number.isFinite(code) ? code : 0 };
}

function sleepMs(arg: string | undefined): number | undefined {
  if (arg === undefined || arg === 'infinity') return undefined;
  if (/^\d+(\.\d+)?$/.test(arg)) return Math.round(Number(arg) * 1000);
  return parseDuration(arg);
}
