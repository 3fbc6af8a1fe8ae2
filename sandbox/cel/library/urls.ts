/**
 * Kubernetes' URL library (upstream: apiserver/pkg/cel/library/urls.go): `url`, `isURL` and the accessors of
 * `kubernetes.URL`, parsing as Go's net/url `ParseRequestURI` does (an absolute URI or an absolute path; the
 * fragment is not split off).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';

export class KubeURL {
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
  ) {}
}

/** net/url.ParseRequestURI, far enough for the accessors; an error text in Go's words otherwise. */
export function parseRequestURI(raw: string): KubeURL | string {
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return `parse "${raw}": net/url: invalid control character in URL`;
  let rest = raw;
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (rest.startsWith('/') && !rest.startsWith('//')) return new KubeURL('', '', rest, query);
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/.exec(rest);
  if (!m) return `parse "${raw}": invalid URI for request`;
  const scheme = m[1].toLowerCase();
  rest = m[2];
  if (!rest.startsWith('/')) {
    if (rest === '') return `parse "${raw}": invalid URI for request`;
    return new KubeURL(scheme, '', rest, query);
  }
  if (!rest.startsWith('//')) return new KubeURL(scheme, '', rest, query);
  rest = rest.slice(2);
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash);
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (/[^a-zA-Z0-9.\-_~:[\]%!$&'()*+,;=]/.test(host)) return `parse "${raw}": invalid character in host name`;
  const port = /:([^\]]*)$/.exec(host);
  if (port && !/^\d*$/.test(port[1])) return `parse "${raw}": invalid port "${port[0]}" after host`;
  return new KubeURL(scheme, host, path, query);
}

function hostname(u: KubeURL): string {
  const h = u.host;
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

function port(u: KubeURL): string {
  const m = /:(\d*)$/.exec(u.host);
  return m && !u.host.endsWith(']') ? m[1] : '';
}

function query(u: KubeURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (u.rawQuery === '') return out;
  for (const part of u.rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const decode = (s: string): string => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    const k = decode(eq < 0 ? part : part.slice(0, eq));
    const v = decode(eq < 0 ? '' : part.slice(eq + 1));
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

const URL_TYPE = 'kubernetes.URL';

export function registerUrls(env: Environment): void {
  env.registerType(URL_TYPE, KubeURL);
  env.registerFunction(`url(string): ${URL_TYPE}`, (s: string) => {
    const u = parseRequestURI(s);
    if (typeof u === 'string') throw new EvaluationError(`URL parse error during conversion from string: ${u}`);
    return u;
  });
  env.registerFunction('isURL(string): bool', (s: string) => typeof parseRequestURI(s) !== 'string');
  env.registerFunction(`${URL_TYPE}.getScheme(): string`, (u: KubeURL) => u.scheme);
  env.registerFunction(`${URL_TYPE}.getHost(): string`, (u: KubeURL) => u.host);
  env.registerFunction(`${URL_TYPE}.getHostname(): string`, hostname);
  env.registerFunction(`${URL_TYPE}.getPort(): string`, port);
  env.registerFunction(`${URL_TYPE}.getEscapedPath(): string`, (u: KubeURL) => encodeURI(decodeSafe(u.path)));
  env.registerFunction(`${URL_TYPE}.getQuery(): map<string, list<string>>`, query);
}

function decodeSafe(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}
