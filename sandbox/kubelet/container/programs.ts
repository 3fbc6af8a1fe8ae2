/**
 * What the programs of well-known images do when a container runs them, as
 * their upstream documentation and entrypoints say: servers (nginx, httpd,
 * redis, postgres, mysql, agnhost's `liveness`/`netexec`/`serve-hostname`,
 * `python -m http.server`…) start, listen on their ports, answer HTTP and TCP
 * probes and handle their stop signal; databases refuse to start without
 * their password variable (exit 1 with their real message); one-shot
 * programs (`perl -e`, `python -c`, `node -e`, `ruby -e`, quiet tools like
 * `sed`, `apk`, `wget`) run for a documented time and exit. A program the
 * sandbox does not know is taken for the image's server in a container that
 * restarts (`restartPolicy: Always`, sidecars) and for batch work in one that
 * does not (Jobs, `Never`/`OnFailure`, init containers). docs/behaviors.md is
 * the contract.
 */
import type { Range } from '../delays';
import { imageBaseName } from '../images';
import type { ImageStyle } from '../logs/imageStyles';
import { goLogStyle, isGeneric, styleFor } from '../logs/imageStyles';
import type { LogLine } from '../logs/lineSource';
import { basename } from '../shell/commands';
import type { ProgramResult, ShellFs } from '../shell/types';
import { piDigits } from './pi';
import { runPythonScript } from './pythonScript';
import { sharedList } from '../sharedList';

/** What a program does with SIGTERM (or its image's stop signal) as PID 1. */
export type SignalHandling =
  /** It shuts down and exits with `code` within the stop delay. */
  | { kind: 'exit'; code: number }
  /** It has no handler: as PID 1 the signal is ignored, and SIGKILL ends it at the end of the grace period. */
  | { kind: 'ignore' };

/** A program that runs until stopped, as probes and signals see it. */
export interface ServerProcess {
  readonly name: string;
  readonly startedAt: number;
  /** TCP ports it listens on; 'any' for an image the sandbox does not know (it answers every probe). */
  readonly ports: readonly number[] | 'any';
  /** The HTTP status it answers `GET path` with at time `t`; undefined when it does not speak HTTP. */
  http?(path: string, t: number): number;
  /** It implements the gRPC health service. */
  readonly grpc: boolean;
  /** When its HTTP answers next change after `t` (agnhost `liveness` turns unhealthy after 10 s). */
  changesAfter?(t: number): number | undefined;
  readonly signal: SignalHandling;
  /** How it writes its log. */
  readonly style: ImageStyle;
}

export interface ProgramContext {
  /** The image as written in the spec. */
  readonly image: string;
  readonly container: string;
  readonly env: ReadonlyMap<string, string>;
  readonly fs?: ShellFs;
  readonly hostname: string;
  readonly podIP: string;
  /** The container's declared ports. */
  readonly ports: readonly number[];
  /** The container's main process, an exec probe, or `kubectl exec`. */
  readonly mode: 'main' | 'probe' | 'exec';
  /** The container is not restarted after it succeeds: an unknown program is batch work, not a server. */
  readonly batch: boolean;
  /** A seeded draw from a range (ms). */
  draw(range: Range): number;
  readonly timing: ProgramTiming;
  /** The servers running in the container at `t` (for `redis-cli`, `pg_isready`, `curl localhost`). */
  servers(t: number): readonly ServerProcess[];
  /** The sandbox behaviour in words, for the generic start-up line. */
  readonly behaviorText: string;
  /** Where volumes are mounted in the container (a mounted server configuration means routes it cannot read). */
  readonly mountedPaths: readonly string[];
  /** The command line the spec gives (`command` and `args`), for the generic start-up line; undefined when none. */
  readonly specCommand?: string;
  /** The cluster DNS at a time (for `curl` and `wget` to a Service's name). */
  resolve?(name: string, t: number): { fqdn: string; address?: string };
}

export interface ProgramTiming {
  /** A command that returns at once (`true`, `sed`, `apk add` with no network…). */
  quickExit: Range;
  /** An interpreter one-liner (`python -c`, `perl -e`, `node -e`): the interpreter's start. */
  interpreter: Range;
  /** A program the sandbox does not know, run as batch work. */
  batchWork: Range;
}

/** Images whose entrypoint is a shell (no command: the shell reads an empty stdin and exits). */
export const SHELL_IMAGES = new Set([
  'busybox',
  'alpine',
  'ubuntu',
  'debian',
  'centos',
  'fedora',
  'rockylinux',
  'almalinux',
  'amazonlinux',
  'bash',
]);

/** Distributions whose tools are GNU coreutils and bash (their error messages differ from busybox's). */
const GNU_IMAGES = new Set([
  'ubuntu',
  'debian',
  'centos',
  'fedora',
  'rockylinux',
  'almalinux',
  'amazonlinux',
  'python',
  'node',
  'perl',
  'ruby',
  'golang',
  'openjdk',
  'eclipse-temurin',
  'nginx',
  'httpd',
  'redis',
  'postgres',
  'mysql',
  'mariadb',
  'mongo',
]);

/** How the image's `nslookup` prints: busybox changed its format after 1.28 (the docs pin busybox:1.28 for it). */
export function nslookupStyleOf(image: string): 'busybox-1.28' | 'busybox' | 'bind' {
  if (dialectOf(image) === 'gnu') return 'bind';
  const tag = /:(\d+)\.(\d+)/.exec(image.slice(image.lastIndexOf('/') + 1));
  if (
    imageBaseName(image) === 'busybox' &&
    tag &&
    (Number(tag[1]) < 1 || (Number(tag[1]) === 1 && Number(tag[2]) <= 28))
  )
    return 'busybox-1.28';
  return 'busybox';
}

export function dialectOf(image: string): 'busybox' | 'gnu' {
  const base = imageBaseName(image);
  const tag = /:([^@]+)/.exec(image.slice(image.lastIndexOf('/') + 1))?.[1] ?? '';
  if (tag.includes('alpine')) return 'busybox';
  return GNU_IMAGES.has(base) ? 'gnu' : 'busybox';
}

/**
 * The argv an image runs when the spec gives no `command` (its ENTRYPOINT and CMD, `args` replacing CMD); undefined
 * for an image the sandbox does not know (its entrypoint is "the image's program").
 */
export function imageArgv(image: string, args: readonly string[] | undefined): string[] | undefined {
  const base = imageBaseName(image);
  const a = args ?? [];
  // docker-entrypoint.sh images: arguments starting with `-` are the server's flags.
  const entrypoint = (program: string[], defaults: string[]) =>
    a.length === 0 ? [...program, ...defaults] : a[0].startsWith('-') ? [...program, ...a] : [...a];
  if (SHELL_IMAGES.has(base)) return a.length === 0 ? [base === 'bash' ? 'bash' : 'sh'] : [...a];
  switch (base) {
    case 'nginx':
    case 'nginx-unprivileged':
      return entrypoint(['nginx'], ['-g', 'daemon off;']);
    case 'httpd':
      return a.length === 0 ? ['httpd-foreground'] : [...a];
    case 'redis':
      return entrypoint(['redis-server'], []);
    case 'postgres':
      return entrypoint(['postgres'], []);
    case 'mysql':
    case 'mariadb':
      return entrypoint(['mysqld'], []);
    case 'agnhost':
      return ['/agnhost', ...a];
    case 'pause':
      return ['/pause', ...a];
    case 'perl':
      return a.length === 0 ? ['perl', '-de0'] : [...a];
    case 'python':
    case 'pypy':
      return a.length === 0 ? ['python3'] : [...a];
    case 'node':
      return a.length === 0 ? ['node'] : [...a];
    case 'ruby':
      return a.length === 0 ? ['irb'] : [...a];
    case 'goproxy':
      return ['/goproxy', ...a];
    default:
      return undefined;
  }
}

// ---- servers ------------------------------------------------------------------

function server(
  name: string,
  at: number,
  ports: readonly number[] | 'any',
  style: ImageStyle,
  signal: SignalHandling,
  http?: (path: string, t: number) => number,
  grpc = false,
): ServerProcess {
  return { name, startedAt: at, ports: sharedPorts(ports), http, grpc, signal, style };
}

/** The ports as one shared list per value (most servers of an image listen on the same: issue 16). */
function sharedPorts(ports: readonly number[] | 'any'): readonly number[] | 'any' {
  return ports === 'any' ? ports : sharedList(ports, ports.join(','));
}

function flagValue(argv: readonly string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
}

/**
 * A static web server: its index and the files in its document root answer 200, others 404; with a configuration
 * mounted over the image's (routes the sandbox cannot read), every path answers 200.
 */
/** The paths a static server's default site answers without reading its files (module constants, not one per pod). */
const NGINX_INDEX: readonly string[] = Object.freeze(['/', '/index.html', '/50x.html']);
const HTTPD_INDEX: readonly string[] = Object.freeze(['/', '/index.html']);

/**
 * A static web server as one object: the server's fields and what its answers read (issue 16: the server literal, a
 * closure and its context per nginx container otherwise, ~0.2 KiB). It keeps what it reads, not the program context
 * (its environment and closures); whether a configuration is mounted is decided once (the mounts do not change while
 * it runs).
 */
class StaticSite implements ServerProcess {
  readonly ports: readonly number[] | 'any';
  readonly grpc = false;
  private readonly custom: boolean;
  private readonly fs: ProgramContext['fs'];

  constructor(
    readonly name: string,
    readonly startedAt: number,
    ports: readonly number[] | 'any',
    readonly style: ImageStyle,
    readonly signal: SignalHandling,
    ctx: ProgramContext,
    private readonly docroot: string,
    confDir: string,
    private readonly index: readonly string[],
  ) {
    this.ports = sharedPorts(ports);
    this.fs = ctx.fs;
    this.custom = ctx.mountedPaths.some((m) => m === confDir || m.startsWith(`${confDir}/`));
  }

  http(path: string, t: number): number {
    const p = path.split('?')[0] || '/';
    if (this.custom || this.index.includes(p)) return 200;
    const file = `${this.docroot}${p.endsWith('/') ? `${p}index.html` : p}`;
    return this.fs?.stat(file, t) === 'file' ? 200 : 404;
  }
}

function startLines(style: ImageStyle, at: number, ctx: ProgramContext, port?: number, command?: string): LogLine[] {
  return style.startup(at, {
    image: ctx.image,
    container: ctx.container,
    podIP: ctx.podIP,
    port,
    behavior: ctx.behaviorText,
    command,
  });
}

const runs = (lines: LogLine[], process: ServerProcess): ProgramResult => ({ kind: 'runs', lines, process });

const graceful: SignalHandling = { kind: 'exit', code: 0 };
/** A Go program as PID 1 with no handler: the runtime re-raises SIGTERM, which PID 1 ignores, then exits 2. */
const goRuntime: SignalHandling = { kind: 'exit', code: 2 };
const ignores: SignalHandling = { kind: 'ignore' };

function nonEmpty(env: ReadonlyMap<string, string>, ...names: string[]): boolean {
  return names.some((n) => (env.get(n) ?? '') !== '');
}

function postgres(at: number, ctx: ProgramContext): ProgramResult {
  const style = styleFor('postgres');
  if (
    !nonEmpty(ctx.env, 'POSTGRES_PASSWORD', 'POSTGRES_PASSWORD_FILE') &&
    ctx.env.get('POSTGRES_HOST_AUTH_METHOD') !== 'trust'
  ) {
    const text = [
      'Error: Database is uninitialized and superuser password is not specified.',
      '       You must specify POSTGRES_PASSWORD to a non-empty value for the',
      '       superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".',
      '',
      '       You may also use "POSTGRES_HOST_AUTH_METHOD=trust" to allow all',
      '       connections without a password. This is *not* recommended.',
      '',
      '       See PostgreSQL documentation about "trust":',
      '       https://www.postgresql.org/docs/current/auth-trust.html',
    ];
    return { kind: 'exit', afterMs: ctx.draw(ctx.timing.quickExit), code: 1, stderr: `${text.join('\n')}\n` };
  }
  return runs(startLines(style, at, ctx), server('postgres', at, [5432], style, graceful));
}

function mysql(at: number, ctx: ProgramContext, mariadb: boolean): ProgramResult {
  const style = styleFor(mariadb ? 'mariadb' : 'mysql');
  const vars = mariadb
    ? ['MARIADB_ROOT_PASSWORD', 'MARIADB_ALLOW_EMPTY_ROOT_PASSWORD', 'MARIADB_RANDOM_ROOT_PASSWORD']
    : ['MYSQL_ROOT_PASSWORD', 'MYSQL_ALLOW_EMPTY_PASSWORD', 'MYSQL_RANDOM_ROOT_PASSWORD'];
  if (
    !nonEmpty(
      ctx.env,
      ...vars,
      'MYSQL_ROOT_PASSWORD',
      'MYSQL_ALLOW_EMPTY_PASSWORD',
      'MYSQL_RANDOM_ROOT_PASSWORD',
      'MYSQL_ROOT_PASSWORD_FILE',
    )
  ) {
    const when = new Date(at)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, '+00:00');
    const lines = [
      `${when} [Note] [Entrypoint]: Entrypoint script for MySQL Server ${mysqlVersion(ctx.image)}-1.el9 started.`,
      `${when} [Note] [Entrypoint]: Switching to dedicated user 'mysql'`,
      `${when} [Note] [Entrypoint]: Entrypoint script for MySQL Server ${mysqlVersion(ctx.image)}-1.el9 started.`,
      `${when} [ERROR] [Entrypoint]: Database is uninitialized and password option is not specified`,
      '    You need to specify one of the following as an environment variable:',
      `    - ${vars[0]}`,
      `    - ${vars[1]}`,
      `    - ${vars[2]}`,
    ];
    return {
      kind: 'exit',
      afterMs: ctx.draw(ctx.timing.quickExit),
      code: 1,
      lines: lines.map((text) => ({ at, text })),
    };
  }
  return runs(startLines(style, at, ctx), server(mariadb ? 'mariadb' : 'mysqld', at, [3306], style, graceful));
}

function mysqlVersion(image: string): string {
  const tag = /:([\d.]+)/.exec(image)?.[1];
  if (!tag) return '8.4.3';
  const parts = tag.split('.');
  while (parts.length < 3) parts.push('0');
  return parts.slice(0, 3).join('.');
}

/** agnhost subcommands (test/images/agnhost): liveness, netexec, serve-hostname, pause, test-webserver. */
function agnhost(argv: readonly string[], at: number, ctx: ProgramContext): ProgramResult {
  const sub = argv[1];
  const style = goLogStyle;
  const line = (text: string): LogLine => ({ at, text: style.line(at, 'info', text) });
  switch (sub) {
    case 'liveness':
      // /healthz answers 200 while no more than 10 s have passed since the start, then 500; /started 200; others 404.
      return runs([], {
        ...server('agnhost liveness', at, [8080], style, goRuntime, (path, t) => {
          const p = path.split('?')[0];
          if (p === '/healthz') return t - at > 10_000 ? 500 : 200;
          if (p === '/started' || p.startsWith('/sleep-') || p === '/slow-response' || p === '/redirect') return 200;
          return 404;
        }),
        changesAfter: (t) => (t < at + 10_001 ? at + 10_001 : undefined),
      });
    case 'netexec': {
      const port = Number(flagValue(argv, '--http-port') ?? 8080);
      const udp = Number(flagValue(argv, '--udp-port') ?? 8081);
      const lines = [line(`Started HTTP server on port ${port}`)];
      if (udp !== -1) lines.push(line(`Started UDP server on port  ${udp}`));
      return runs(
        lines,
        server('agnhost netexec', at, [port], style, goRuntime, () => 200),
      );
    }
    case 'serve-hostname': {
      const port = Number(flagValue(argv, '--port') ?? 9376);
      return runs(
        [line(`Serving on port ${port}.`)],
        server('agnhost serve-hostname', at, [port], style, goRuntime, () => 200),
      );
    }
    case 'test-webserver': {
      const port = Number(flagValue(argv, '--port') ?? 80);
      return runs(
        [],
        server('agnhost test-webserver', at, [port], style, goRuntime, () => 200),
      );
    }
    case 'pause':
      return runs([line('Paused')], server('agnhost pause', at, [], style, graceful));
    case undefined:
      return {
        kind: 'exit',
        afterMs: ctx.draw(ctx.timing.quickExit),
        code: 0,
        stdout:
          'agnhost: a test image with several subcommands (liveness, netexec, serve-hostname, pause, …)\n\nUsage:\n  agnhost [command]\n',
      };
    default:
      // Other subcommands serve something on their usual ports; the sandbox does not know which.
      return runs(
        [],
        server(`agnhost ${sub}`, at, 'any', style, goRuntime, () => 200, true),
      );
  }
}

// ---- interpreters -------------------------------------------------------------

/** String literals printed by a one-liner (`print("…")`, `console.log('…')`, `puts "…"`, `echo '…'`). */
function printedLiterals(code: string, calls: RegExp): string {
  let out = '';
  for (const m of code.matchAll(calls)) {
    const raw = m[2];
    out += `${raw
      .replace(/\\n/g, '\n')
      .replace(/\\t/g, '\t')
      .replace(/\\(["'\\])/g, '$1')}\n`;
  }
  return out;
}

function sleepsIn(code: string, re: RegExp): number {
  let ms = 0;
  for (const m of code.matchAll(re)) ms += Number(m[1]) * 1000;
  return ms;
}

function exitCodeIn(code: string, re: RegExp): number {
  const m = re.exec(code);
  return m ? Number(m[1]) & 255 : 0;
}

/** Code that serves forever: an HTTP server, an endless loop. */
const SERVES =
  /serve_forever|app\.run\(|uvicorn|\.listen\(|createServer|http\.server|while\s*\(?\s*(True|true|1)\s*\)?\s*:?|setInterval|loop\s*do|Thread\.sleep\(Long\.MAX/;

interface Interpreter {
  /** `-c`, `-e` flags taking the code. */
  codeFlags: readonly string[];
  print: RegExp;
  sleep: RegExp;
  exit: RegExp;
}

const INTERPRETERS: Record<string, Interpreter> = {
  python: {
    codeFlags: ['-c'],
    print: /print\s*\(\s*(['"])((?:\\.|(?!\1).)*)\1\s*\)/g,
    sleep: /time\.sleep\(\s*(\d+(?:\.\d+)?)\s*\)/g,
    exit: /(?:sys\.exit|exit|quit)\(\s*(\d+)\s*\)/,
  },
  node: {
    codeFlags: ['-e', '--eval', '-p'],
    print: /console\.(?:log|error|info)\s*\(\s*(['"`])((?:\\.|(?!\1).)*)\1\s*\)/g,
    sleep: /setTimeout\([^,]*,\s*(\d+)\s*\)/g,
    exit: /process\.exit\(\s*(\d+)\s*\)/,
  },
  ruby: {
    codeFlags: ['-e'],
    print: /(?:puts|print)\s*\(?\s*(['"])((?:\\.|(?!\1).)*)\1/g,
    sleep: /sleep\(?\s*(\d+(?:\.\d+)?)/g,
    exit: /exit!?\(?\s*(\d+)/,
  },
  perl: {
    codeFlags: ['-e', '-E'],
    print: /(?:print|say)\s*\(?\s*(['"])((?:\\.|(?!\1).)*)\1/g,
    sleep: /sleep\s*\(?\s*(\d+)/g,
    exit: /exit\s*\(?\s*(\d+)/,
  },
};

function interpreterOf(name: string): string | undefined {
  if (/^python(\d(\.\d+)?)?$/.test(name) || name === 'pypy3') return 'python';
  if (name === 'node' || name === 'nodejs') return 'node';
  if (name === 'ruby') return 'ruby';
  if (/^perl(\d[\d.]*)?$/.test(name)) return 'perl';
  return undefined;
}

function interpreter(kind: string, argv: readonly string[], at: number, ctx: ProgramContext): ProgramResult {
  const spec = INTERPRETERS[kind];
  const args = argv.slice(1);
  // Perl's bundled flags: -wle, -Mbignum=bpi -wle 'print bpi(2000)'.
  const codeIndex = args.findIndex((a) => spec.codeFlags.includes(a) || (kind === 'perl' && /^-[a-zA-Z]*e$/.test(a)));
  if (kind === 'python' && args[0] === '-m') return pythonModule(args.slice(1), at, ctx);
  if (codeIndex >= 0) {
    const code = args[codeIndex + 1] ?? '';
    const newline = kind === 'perl' && args.some((a) => /^-[a-zA-Z]*l/.test(a));
    const bpi = /bpi\(\s*(\d+)\s*\)/.exec(code);
    if (kind === 'perl' && bpi) {
      // π by Math::BigFloat: N²/1,000,000 s of work (2000 digits: 4 s), at least one second.
      const n = Number(bpi[1]);
      const work = Math.max(1000, Math.round((n * n) / 1000));
      return {
        kind: 'exit',
        afterMs: ctx.draw(ctx.timing.interpreter) + work,
        code: 0,
        stdout: `${piDigits(n)}${newline ? '\n' : ''}`,
      };
    }
    if (SERVES.test(code)) return unknownServer(argv, at, ctx, ignores);
    const py = kind === 'python' ? pythonExit(code, ctx) : undefined;
    if (py) return py;
    let stdout = printedLiterals(code, spec.print);
    if (kind === 'perl' && !newline) stdout = stdout.replace(/\n$/, '');
    return {
      kind: 'exit',
      afterMs: ctx.draw(ctx.timing.interpreter) + sleepsIn(code, spec.sleep) * (kind === 'node' ? 0.001 : 1),
      code: exitCodeIn(code, spec.exit),
      stdout,
    };
  }
  const script = args.find((a) => !a.startsWith('-'));
  if (script === undefined) {
    // The REPL with no terminal reads an empty stdin and exits.
    return { kind: 'exit', afterMs: ctx.draw(ctx.timing.interpreter), code: 0 };
  }
  // A script file the container has (a ConfigMap mounted, say) is read like a one-liner.
  const path = script.startsWith('/') ? script : `${ctx.env.get('PWD') ?? '/'}/${script}`.replace(/\/+/g, '/');
  const text = ctx.fs?.read(path, at);
  if (text !== undefined) {
    if (SERVES.test(text)) return unknownServer(argv, at, ctx, ignores);
    const py = kind === 'python' ? pythonExit(text, ctx) : undefined;
    if (py) return py;
    return {
      kind: 'exit',
      afterMs: ctx.draw(ctx.timing.interpreter) + sleepsIn(text, spec.sleep) * (kind === 'node' ? 0.001 : 1),
      code: exitCodeIn(text, spec.exit),
      stdout: printedLiterals(text, spec.print),
    };
  }
  // A script the sandbox cannot read: the image's program (server or batch work). Interpreters have no SIGTERM handler.
  return unknownProgram(argv, at, ctx, ignores);
}

/**
 * A Python script the sandbox can run statement by statement (pythonScript.ts): its exit code, sleeps and
 * prints follow the branches its environment takes (an indexed Job's `JOB_COMPLETION_INDEX`).
 */
function pythonExit(code: string, ctx: ProgramContext): ProgramResult | undefined {
  const run = runPythonScript(code, ctx.env);
  if (!run) return undefined;
  return {
    kind: 'exit',
    afterMs: ctx.draw(ctx.timing.interpreter) + Math.round(run.sleptSeconds * 1000),
    code: run.code,
    stdout: run.stdout,
  };
}

function pythonModule(args: readonly string[], at: number, ctx: ProgramContext): ProgramResult {
  if (args[0] === 'http.server') {
    const port = Number(args.slice(1).find((a) => /^\d+$/.test(a)) ?? 8000);
    const style = styleFor('python-http');
    // Read at the start (the environment does not change while the process runs): the server keeps no context.
    const cwd = ctx.env.get('PWD') ?? '/';
    const fs = ctx.fs;
    return runs(
      [{ at, text: `Serving HTTP on 0.0.0.0 port ${port} (http://0.0.0.0:${port}/) ...` }],
      server('python http.server', at, [port], style, { kind: 'exit', code: 0 }, (path, t) => {
        const p = path.split('?')[0];
        if (p === '/') return 200;
        return fs?.stat(`${cwd}${p}`.replace(/\/+/g, '/'), t) ? 200 : 404;
      }),
    );
  }
  return unknownProgram(['python', '-m', ...args], at, ctx, ignores);
}

// ---- the rest -----------------------------------------------------------------

/** Tools that do their job at once and print nothing the sandbox can know (package managers, editors, network). */
const QUIET_TOOLS = new Set([
  'sed',
  'awk',
  'gawk',
  'jq',
  'yq',
  'find',
  'xargs',
  'apk',
  'apt',
  'apt-get',
  'yum',
  'dnf',
  'microdnf',
  'pip',
  'pip3',
  'npm',
  'yarn',
  'git',
  'tar',
  'gzip',
  'gunzip',
  'unzip',
  'openssl',
  'base64',
  'md5sum',
  'sha256sum',
  'chpasswd',
  'useradd',
  'adduser',
  'addgroup',
  'groupadd',
  'update-ca-certificates',
  'ldconfig',
  'ping',
  'nc',
  'netcat',
  'telnet',
  'ssh-keygen',
  'envsubst',
  'stat',
  'df',
  'du',
  'free',
  'ps',
  'top',
  'kubectl',
  'helm',
  'mc',
  'aws',
  'gsutil',
  'psql',
  'mysql',
  'redis-cli',
  'mongosh',
  'mongo',
]);

/** `curl`/`wget`: a request to the container's own servers is answered by them; others succeed with no body. */
function httpClient(argv: readonly string[], at: number, ctx: ProgramContext): ProgramResult {
  const url = argv.find((a) => /^https?:\/\//.test(a) || /^(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(a));
  const failOnError = argv.some((a) => /^-[a-zA-Z]*f/.test(a) || a === '--fail') || basename(argv[0]) === 'wget';
  const quick = ctx.draw(ctx.timing.quickExit);
  if (!url) return { kind: 'exit', afterMs: quick, code: 0 };
  const m = /^(?:https?:\/\/)?([^/:]+)(?::(\d+))?(\/.*)?$/.exec(url);
  const host = m?.[1] ?? '';
  if (host !== 'localhost' && host !== '127.0.0.1' && host !== ctx.podIP) {
    // Another host: the name must resolve (a Service that exists); what answers is not simulated.
    if (ctx.resolve && !/^\d+\.\d+\.\d+\.\d+$/.test(host) && ctx.resolve(host, at).address === undefined)
      return basename(argv[0]) === 'wget'
        ? { kind: 'exit', afterMs: quick, code: 1, stderr: `wget: bad address '${host}'\n` }
        : { kind: 'exit', afterMs: quick, code: 6, stderr: `curl: (6) Could not resolve host: ${host}\n` };
    return { kind: 'exit', afterMs: quick, code: 0 };
  }
  const port = Number(m?.[2] ?? (url.startsWith('https') ? 443 : 80));
  const path = m?.[3] ?? '/';
  const target = ctx.servers(at).find((s) => s.ports === 'any' || s.ports.includes(port));
  const wget = basename(argv[0]) === 'wget';
  if (!target) {
    return wget
      ? {
          kind: 'exit',
          afterMs: quick,
          code: 1,
          stderr: `wget: can't connect to remote host (127.0.0.1): Connection refused\n`,
        }
      : {
          kind: 'exit',
          afterMs: quick,
          code: 7,
          stderr: `curl: (7) Failed to connect to ${host} port ${port} after 0 ms: Couldn't connect to server\n`,
        };
  }
  const status = target.http?.(path, at) ?? 200;
  if (status >= 400 && failOnError)
    return wget
      ? { kind: 'exit', afterMs: quick, code: 1, stderr: `wget: server returned error: HTTP/1.1 ${status}\n` }
      : { kind: 'exit', afterMs: quick, code: 22, stderr: `curl: (22) The requested URL returned error: ${status}\n` };
  return { kind: 'exit', afterMs: quick, code: 0 };
}

/** Client tools that ask a database in the same container (exec probes). */
function dbClient(name: string, argv: readonly string[], at: number, ctx: ProgramContext): ProgramResult | undefined {
  const quick = ctx.draw(ctx.timing.quickExit);
  const running = (n: string) => ctx.servers(at).some((s) => s.name === n);
  if (name === 'pg_isready')
    return running('postgres')
      ? { kind: 'exit', afterMs: quick, code: 0, stdout: '/var/run/postgresql:5432 - accepting connections\n' }
      : { kind: 'exit', afterMs: quick, code: 2, stdout: '/var/run/postgresql:5432 - no response\n' };
  if (name === 'redis-cli' && argv.some((a) => a.toLowerCase() === 'ping'))
    return running('redis')
      ? { kind: 'exit', afterMs: quick, code: 0, stdout: 'PONG\n' }
      : {
          kind: 'exit',
          afterMs: quick,
          code: 1,
          stdout: 'Could not connect to Redis at 127.0.0.1:6379: Connection refused\n',
        };
  if ((name === 'mysqladmin' || name === 'mariadb-admin') && argv.includes('ping'))
    return running('mysqld') || running('mariadb')
      ? { kind: 'exit', afterMs: quick, code: 0, stdout: 'mysqld is alive\n' }
      : { kind: 'exit', afterMs: quick, code: 1, stderr: "mysqladmin: connect to server at 'localhost' failed\n" };
  return undefined;
}

/** The generic server of an image the sandbox does not know: it answers every probe. */
function unknownServer(
  argv: readonly string[],
  at: number,
  ctx: ProgramContext,
  signal: SignalHandling = graceful,
): ProgramResult {
  const style = styleFor(ctx.image);
  return runs(
    startLines(style, at, ctx, ctx.ports[0], ctx.specCommand),
    server(basename(argv[0] ?? ctx.image), at, 'any', style, signal, () => 200, true),
  );
}

/**
 * A program the sandbox does not know: a server where the container restarts, batch work where it does not (it says
 * so in its first line, in the generic style, and exits 0).
 */
function unknownProgram(
  argv: readonly string[],
  at: number,
  ctx: ProgramContext,
  signal: SignalHandling = graceful,
): ProgramResult {
  if (!ctx.batch) return unknownServer(argv, at, ctx, signal);
  const took = ctx.draw(ctx.timing.batchWork);
  const style = styleFor(ctx.image);
  if (!isGeneric(style)) return { kind: 'exit', afterMs: took, code: 0 };
  const start = startLines(style, at, ctx, undefined, ctx.specCommand).map((l) =>
    l.text.includes('sandbox_behavior=')
      ? {
          at: l.at,
          text: l.text.replace(
            /sandbox_behavior=.*$/,
            `sandbox_behavior=${JSON.stringify(`runs as batch work: exits 0 after ${(took / 1000).toFixed(3).replace(/\.?0+$/, '')}s`)}`,
          ),
        }
      : l,
  );
  return {
    kind: 'exit',
    afterMs: took,
    code: 0,
    lines: [...start, { at: at + took, text: style.line(at + took, 'info', 'finished, exiting with code 0') }],
  };
}

/**
 * What `argv` does when a container's main process runs it at `at` (undefined: "not found", for `kubectl exec` of a
 * program the sandbox cannot run).
 */
export function runProgram(argv: readonly string[], at: number, ctx: ProgramContext): ProgramResult | undefined {
  const name = basename(argv[0] ?? '');
  const quick = () => ctx.draw(ctx.timing.quickExit);
  if (ctx.mode !== 'main') {
    const db = dbClient(name, argv, at, ctx);
    if (db) return db;
    if (name === 'curl' || name === 'wget') return httpClient(argv, at, ctx);
    if (QUIET_TOOLS.has(name)) return { kind: 'exit', afterMs: quick(), code: 0 };
    // A probe's command the sandbox does not know is taken to succeed; kubectl exec says it cannot run it.
    return ctx.mode === 'probe' ? { kind: 'exit', afterMs: quick(), code: 0 } : undefined;
  }
  const interp = interpreterOf(name);
  if (interp) return interpreter(interp, argv, at, ctx);
  switch (name) {
    case 'nginx':
    case 'nginx-debug': {
      const style = styleFor('nginx');
      const custom = ctx.mountedPaths.some((m) => m === '/etc/nginx' || m.startsWith('/etc/nginx/'));
      const port = imageBaseName(ctx.image) === 'nginx-unprivileged' ? 8080 : 80;
      return runs(
        startLines(style, at, ctx),
        new StaticSite(
          'nginx',
          at,
          custom ? 'any' : [port],
          style,
          graceful,
          ctx,
          '/usr/share/nginx/html',
          '/etc/nginx',
          NGINX_INDEX,
        ),
      );
    }
    case 'docker-entrypoint.sh':
      return runProgram(argv.length > 1 ? argv.slice(1) : (imageArgv(ctx.image, undefined) ?? ['sh']), at, ctx);
    case 'httpd':
    case 'httpd-foreground':
    case 'apachectl': {
      const style = styleFor('httpd');
      return runs(
        startLines(style, at, ctx),
        new StaticSite(
          'httpd',
          at,
          ctx.mountedPaths.some((m) => m.startsWith('/usr/local/apache2/conf')) ? 'any' : [80],
          style,
          graceful,
          ctx,
          '/usr/local/apache2/htdocs',
          '/usr/local/apache2/conf',
          HTTPD_INDEX,
        ),
      );
    }
    case 'redis-server': {
      const style = styleFor('redis');
      const port = Number(flagValue(argv, '--port') ?? 6379);
      return runs(startLines(style, at, ctx), server('redis', at, [port], style, graceful));
    }
    case 'postgres':
      return postgres(at, ctx);
    case 'mysqld':
    case 'mariadbd':
      return mysql(at, ctx, imageBaseName(ctx.image) === 'mariadb' || name === 'mariadbd');
    case 'agnhost':
      return agnhost(argv, at, ctx);
    case 'pause':
      // The pause image exits cleanly on SIGTERM / SIGINT.
      return runs([], server('pause', at, [], goLogStyle, graceful));
    case 'goproxy':
      return runs(
        [],
        server('goproxy', at, [8080], goLogStyle, goRuntime, () => 200),
      );
    case 'etcd': {
      const urls = flagValue(argv, '--listen-client-urls') ?? 'http://localhost:2379';
      const ports = [...urls.matchAll(/:(\d+)/g)].map((m) => Number(m[1]));
      return runs(
        [{ at, text: goLogStyle.line(at, 'info', 'serving client traffic insecurely; this is strongly discouraged!') }],
        server('etcd', at, ports.length > 0 ? ports : [2379], goLogStyle, graceful, () => 200, true),
      );
    }
    case 'java':
      return unknownProgram(argv, at, ctx, { kind: 'exit', code: 143 });
    case 'curl':
    case 'wget':
      return httpClient(argv, at, ctx);
    default:
      break;
  }
  if (QUIET_TOOLS.has(name) || name === 'redis-cli' || name === 'pg_isready' || name === 'mysqladmin')
    return dbClient(name, argv, at, ctx) ?? { kind: 'exit', afterMs: quick(), code: 0 };
  return unknownProgram(argv, at, ctx);
}
