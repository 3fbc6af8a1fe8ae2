/**
 * How well-known images write their logs — nginx, httpd, redis, postgres,
 * mysql — and a generic structured style for every other image. A style
 * prints a few start-up lines, formats a line at a level, and says what the
 * program prints on its stop signal, on a request from the kubelet's HTTP
 * probe, and when it has stopped. The lines are short imitations, not copies.
 */
import { imageBaseName } from '../images';
import type { LinePart, LogLine, PartLine } from './lineSource';
import { strftime } from './logTime';

export type Level = 'info' | 'warn' | 'error';

export interface StyleContext {
  /** As written in the pod spec. */
  image: string;
  container: string;
  podIP: string;
  /** The container's first declared port. */
  port?: number;
  /** What the sandbox makes this container do, in words (generic style only). */
  behavior: string;
  /** The command line when the spec overrides the image's, for the generic style. */
  command?: string;
}

export interface ProbeRequest {
  path: string;
  status: number;
  remote: string;
  userAgent: string;
}

export interface ImageStyle {
  /** Program names that start this image's server (a script that `exec`s one prints its start-up). */
  readonly programs: readonly string[];
  /** Logs every request (an access log); otherwise only failing ones. */
  readonly accessLog: boolean;
  /** Logs no request at all (a Go test server). */
  readonly quietRequests?: boolean;
  startup(at: number, ctx: StyleContext): LogLine[];
  line(at: number, level: Level, message: string): string;
  request(at: number, r: ProbeRequest): string;
  /** On the stop signal (`ignored`: the behaviour `ignore-sigterm`). */
  signal(at: number, ignored: boolean): string[];
  /** After a graceful stop, just before the process exits. */
  stopped(at: number): string[];
}

/** The version a tag names (`1.27` → `1.27.0`), else the image's current default. */
function version(image: string, parts: number, fallback: string): string {
  const tag = /:([^:/@]+)(@|$)/.exec(image)?.[1] ?? '';
  const m = /^\d+(\.\d+){0,2}/.exec(tag);
  if (!m) return fallback;
  const nums = m[0].split('.');
  while (nums.length < parts) nums.push('0');
  return nums.slice(0, Math.max(parts, nums.length)).join('.');
}

/** A start-up line: its text, or the style's line of a level and message (built when read: `styledLine`). */
type StartLine = string | { level: Level; message: string };

const lines = (style: ImageStyle, at: number, texts: readonly StartLine[]): LogLine[] =>
  texts.map((text) => (typeof text === 'string' ? { at, text } : styledLine(style, at, text.level, text.message)));

/** What a styled line's text is made from, shared by every container that prints the same message. */
class LineTemplate implements LinePart {
  constructor(
    readonly style: ImageStyle,
    readonly level: Level,
    readonly message: string,
  ) {}

  lineAt(at: number): LogLine {
    return new StyledLine(at, this);
  }
}

/**
 * A line whose text is the style's prefix (its time) and a shared message, built on each read: a container keeps its
 * time as a number and a template, not the text (issue 16: a start-up line's text per container otherwise).
 */
class StyledLine implements PartLine {
  constructor(
    readonly at: number,
    private readonly template: LineTemplate,
  ) {}

  get part(): LinePart {
    return this.template;
  }

  get text(): string {
    const { style, level, message } = this.template;
    return style.line(this.at, level, message);
  }
}

/** Templates by style, level and message (bounded: a message per image version, a few per style). */
const templates = new Map<ImageStyle, Map<string, LineTemplate>>();
const TEMPLATES_MAX = 256;

/** `style.line(at, level, message)` as a line whose text is built when read (the same text). */
export function styledLine(style: ImageStyle, at: number, level: Level, message: string): LogLine {
  let byKey = templates.get(style);
  if (!byKey) templates.set(style, (byKey = new Map()));
  const key = `${level}\u0000${message}`;
  let template = byKey.get(key);
  if (!template) {
    if (byKey.size >= TEMPLATES_MAX) byKey.clear();
    byKey.set(key, (template = new LineTemplate(style, level, message)));
  }
  return new StyledLine(at, template);
}

const BYTES: Record<number, number> = { 200: 615, 404: 153, 500: 177, 503: 197 };

function accessLine(at: number, r: ProbeRequest, extra: string): string {
  return `${r.remote} - - [${strftime(at, '%d/%b/%Y:%H:%M:%S +0000')}] "GET ${r.path} HTTP/1.1" ${r.status} ${BYTES[r.status] ?? 0}${extra.replace('%UA%', r.userAgent)}`;
}

/** A failing health check, for servers that keep no access log. */
function healthLine(style: ImageStyle, at: number, r: ProbeRequest): string {
  return style.line(
    at,
    r.status >= 400 ? 'warn' : 'info',
    `health check GET ${r.path} answered ${r.status} (from ${r.remote})`,
  );
}

const nginx: ImageStyle = {
  programs: ['nginx', 'nginx-debug', 'docker-entrypoint.sh'],
  accessLog: true,
  line: (at, level, message) =>
    `${strftime(at, '%Y/%m/%d %H:%M:%S')} [${{ info: 'notice', warn: 'warn', error: 'emerg' }[level]}] 1#1: ${message}`,
  startup(at, ctx) {
    return lines(nginx, at, [
      '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
      '/docker-entrypoint.sh: Configuration complete; ready for start up',
      { level: 'info', message: `nginx/${version(ctx.image, 3, '1.27.3')}` },
      { level: 'info', message: 'start worker processes' },
    ]);
  },
  request: (at, r) => accessLine(at, r, ' "-" "%UA%" "-"'),
  // The nginx image stops with SIGQUIT (its STOPSIGNAL): a graceful shutdown.
  signal: (at, ignored) => [
    nginx.line(
      at,
      'info',
      `signal 3 (SIGQUIT) received, ${ignored ? 'ignored (sandbox: ignore-sigterm)' : 'shutting down'}`,
    ),
  ],
  stopped: (at) => [nginx.line(at, 'info', 'exit')],
};

const httpd: ImageStyle = {
  programs: ['httpd', 'httpd-foreground', 'apachectl'],
  accessLog: true,
  line: (at, level, message) =>
    `[${strftime(at, '%a %b %d %H:%M:%S.%6N %Y')}] [${level === 'info' ? 'mpm_event:notice' : level === 'warn' ? 'core:warn' : 'core:emerg'}] [pid 1:tid 1] ${message}`,
  startup(at, ctx) {
    return lines(httpd, at, [
      `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${ctx.podIP}. Set the 'ServerName' directive globally to suppress this message`,
      {
        level: 'info',
        message: `AH00489: Apache/${version(ctx.image, 3, '2.4.62')} (Unix) configured -- resuming normal operations`,
      },
    ]);
  },
  request: (at, r) => accessLine(at, r, ''),
  // httpd's image stops with SIGWINCH: a graceful stop.
  signal: (at, ignored) => [
    httpd.line(
      at,
      'info',
      ignored
        ? 'AH00492: caught SIGWINCH, ignored (sandbox: ignore-sigterm)'
        : 'AH00492: caught SIGWINCH, shutting down gracefully',
    ),
  ],
  stopped: () => [],
};

const redisTime = (at: number) => strftime(at, '%d %b %Y %H:%M:%S.%3N');
const redis: ImageStyle = {
  programs: ['redis-server', 'docker-entrypoint.sh'],
  accessLog: false,
  line: (at, level, message) => `1:M ${redisTime(at)} ${level === 'info' ? '*' : '#'} ${message}`,
  startup(at, ctx) {
    return lines(redis, at, [
      `1:C ${redisTime(at)} * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo`,
      `1:C ${redisTime(at)} * Redis version=${version(ctx.image, 3, '7.4.1')}, bits=64, commit=00000000, modified=0, pid=1, just started`,
      { level: 'info', message: 'Running mode=standalone, port=6379.' },
      { level: 'info', message: 'Ready to accept connections tcp' },
    ]);
  },
  request: (at, r) => healthLine(redis, at, r),
  signal: (at, ignored) => [
    `1:signal-handler (${Math.floor(at / 1000)}) Received SIGTERM ${ignored ? 'but ignored it (sandbox: ignore-sigterm)' : 'scheduling shutdown...'}`,
  ],
  stopped: (at) => [
    redis.line(at, 'warn', 'User requested shutdown...'),
    redis.line(at, 'warn', 'Redis is now ready to exit, bye bye...'),
  ],
};

const postgres: ImageStyle = {
  programs: ['postgres', 'docker-entrypoint.sh'],
  accessLog: false,
  line: (at, level, message) =>
    `${strftime(at, '%Y-%m-%d %H:%M:%S.%3N')} UTC [1] ${{ info: 'LOG', warn: 'WARNING', error: 'FATAL' }[level]}:  ${message}`,
  startup(at, ctx) {
    const v = version(ctx.image, 2, '17.2');
    return lines(postgres, at, [
      'PostgreSQL init process complete; ready for start up.',
      { level: 'info', message: `starting PostgreSQL ${v} on x86_64-pc-linux-gnu, compiled by gcc, 64-bit` },
      { level: 'info', message: 'listening on IPv4 address "0.0.0.0", port 5432' },
      { level: 'info', message: 'database system is ready to accept connections' },
    ]);
  },
  request: (at, r) => healthLine(postgres, at, r),
  // The postgres image stops with SIGINT: a fast shutdown.
  signal: (at, ignored) => [
    postgres.line(
      at,
      'info',
      ignored ? 'received fast shutdown request, ignored (sandbox: ignore-sigterm)' : 'received fast shutdown request',
    ),
  ],
  stopped: (at) => [postgres.line(at, 'info', 'database system is shut down')],
};

const mysqlVersion = (image: string) => version(image, 3, '8.4.3');
const mysql: ImageStyle = {
  programs: ['mysqld', 'docker-entrypoint.sh'],
  accessLog: false,
  line: (at, level, message) =>
    `${strftime(at, '%Y-%m-%dT%H:%M:%S.%6NZ')} 0 [${{ info: 'System', warn: 'Warning', error: 'ERROR' }[level]}] [MY-010000] [Server] ${message}`,
  startup(at, ctx) {
    const v = mysqlVersion(ctx.image);
    return lines(mysql, at, [
      { level: 'info', message: `/usr/sbin/mysqld (mysqld ${v}) starting as process 1` },
      {
        level: 'info',
        message: `/usr/sbin/mysqld: ready for connections. Version: '${v}'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306  MySQL Community Server - GPL.`,
      },
    ]);
  },
  request: (at, r) => healthLine(mysql, at, r),
  signal: (at, ignored) => [
    mysql.line(
      at,
      'info',
      ignored
        ? 'Received SIGTERM, ignored (sandbox: ignore-sigterm)'
        : 'Received SHUTDOWN from user <via user signal>. Shutting down mysqld.',
    ),
  ],
  stopped: (at) => [mysql.line(at, 'info', '/usr/sbin/mysqld: Shutdown complete.  MySQL Community Server - GPL.')],
};

/** A logfmt value, quoted when it needs to be. */
export function logfmt(value: string | number): string {
  const s = String(value);
  return /^[^\s"=]+$/.test(s) ? s : JSON.stringify(s);
}

const generic: ImageStyle = {
  programs: [],
  accessLog: false,
  line: (at, level, message) =>
    `time=${strftime(at, '%Y-%m-%dT%H:%M:%S.%3NZ')} level=${level.toUpperCase()} msg=${logfmt(message)}`,
  startup(at, ctx) {
    const command = ctx.command ? ` command=${logfmt(ctx.command)}` : '';
    const out = [
      `${generic.line(at, 'info', 'starting')} image=${logfmt(ctx.image)} container=${logfmt(ctx.container)}${command} sandbox_behavior=${logfmt(ctx.behavior)}`,
    ];
    if (ctx.port !== undefined) out.push(`${generic.line(at, 'info', 'listening')} addr=:${ctx.port}`);
    return lines(generic, at, out);
  },
  request: (at, r) =>
    `${generic.line(at, r.status >= 400 ? 'warn' : 'info', `GET ${r.path} ${r.status}`)} remote=${r.remote} user_agent=${logfmt(r.userAgent)}`,
  signal: (at, ignored) => [
    ignored
      ? `${generic.line(at, 'warn', 'received SIGTERM, ignoring it')} sandbox_behavior=ignore-sigterm`
      : generic.line(at, 'info', 'received SIGTERM, shutting down'),
  ],
  stopped: (at) => [generic.line(at, 'info', 'stopped')],
};

/** Go's standard `log` package: `2026/01/01 00:00:01 message` (agnhost, goproxy, etcd's fallback). */
export const goLogStyle: ImageStyle = {
  programs: [],
  accessLog: false,
  quietRequests: true,
  line: (at, _level, message) => `${strftime(at, '%Y/%m/%d %H:%M:%S')} ${message}`,
  startup: () => [],
  request: (at, r) => goLogStyle.line(at, 'info', `GET ${r.path}`),
  signal: () => [],
  stopped: () => [],
};

/** `python -m http.server`: its access log on stderr. */
const pythonHttp: ImageStyle = {
  programs: [],
  accessLog: true,
  line: (_at, _level, message) => message,
  startup: () => [],
  request: (at, r) => `${r.remote} - - [${strftime(at, '%d/%b/%Y %H:%M:%S')}] "GET ${r.path} HTTP/1.1" ${r.status} -`,
  signal: () => [],
  stopped: () => [],
};

const STYLES: Record<string, ImageStyle> = {
  nginx,
  'nginx-unprivileged': nginx,
  httpd,
  redis,
  postgres,
  mysql,
  mariadb: mysql,
  'python-http': pythonHttp,
};

/**
 * The style of an image, by its base name (`nginx:1.27`, `docker.io/library/redis@sha256:…`); the generic one when
 * unknown.
 */
export function styleFor(image: string): ImageStyle {
  const base = imageBaseName(image);
  return Object.prototype.hasOwnProperty.call(STYLES, base) ? STYLES[base] : generic;
}

export function isGeneric(style: ImageStyle): boolean {
  return style === generic;
}
