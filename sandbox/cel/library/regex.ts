/**
 * Kubernetes' regex library (upstream: apiserver/pkg/cel/library/regex.go): `find` and `findAll`, over RE2 patterns.
 * Patterns run as JavaScript regular expressions after the RE2 spellings JavaScript lacks are translated (leading
 * `(?i)`, `(?s)`, `(?m)` flags; `\z`); what RE2 refuses but JavaScript accepts (look-around, back-references) is
 * refused here too, in RE2's words. The standard `matches` is the library's own (JavaScript semantics, without the
 * translation): the library does not let an overload be replaced.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { chargeActive, stringCost } from '../cost';

const cache = new Map<string, RegExp>();

/** The JavaScript form of an RE2 pattern; throws cel-go's error for an invalid one. */
export function re2(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let body = pattern;
  let flags = 'u';
  const lead = /^\(\?([imsU]+)\)/.exec(body);
  if (lead) {
    body = body.slice(lead[0].length);
    for (const f of lead[1]) if (f !== 'U' && !flags.includes(f)) flags += f;
  }
  body = body.replace(/\\z/g, '$(?![\\s\\S])');
  const unsupported = /\(\?[=!<]|\\[1-9]/.exec(body);
  if (unsupported)
    throw new EvaluationError(`error parsing regexp: invalid or unsupported Perl syntax: \`${unsupported[0]}\``);
  let re: RegExp;
  try {
    re = new RegExp(body, flags);
  } catch (e) {
    throw new EvaluationError(`error parsing regexp: ${(e as Error).message}`);
  }
  if (cache.size < 1000) cache.set(pattern, re);
  return re;
}

export function registerRegex(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, p: string) => {
    chargeActive(stringCost(s) + stringCost(p));
    return re2(p).exec(s)?.[0] ?? '';
  });
  const findAll = (s: string, p: string, limit: bigint): string[] => {
    chargeActive(stringCost(s) + stringCost(p));
    if (limit === 0n) return [];
    const g = new RegExp(re2(p).source, `${re2(p).flags}g`);
    const out: string[] = [];
    for (const m of s.matchAll(g)) {
      if (limit > 0n && BigInt(out.length) >= limit) break;
      out.push(m[0]);
    }
    return out;
  };
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n));
  env.registerFunction('string.findAll(string, int): list<string>', findAll);
}
