/**
 * cel-go's strings extension (ext.Strings, the version Kubernetes 1.32 enables) where the library lacks it:
 * `replace`, `charAt`, `reverse`; and the conversions of the standard library it lacks: `string` of a timestamp or a
 * duration, `int` of a timestamp.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import type { Duration } from '@marcbachmann/cel-js/evaluator';
import { chargeActive, stringCost } from '../cost';

function replaceN(s: string, from: string, to: string, n: bigint): string {
  chargeActive(stringCost(s));
  if (n < 0n) return s.split(from).join(to);
  let out = '';
  let rest = s;
  for (let i = 0n; i < n; i++) {
    const at = rest.indexOf(from);
    if (at < 0) break;
    out += rest.slice(0, at) + to;
    rest = rest.slice(at + Math.max(from.length, 0));
    if (from.length === 0) {
      out += rest.slice(0, 1);
      rest = rest.slice(1);
    }
  }
  return out + rest;
}

function fraction(n: bigint, unit: bigint): string {
  const whole = n / unit;
  const rest = n % unit;
  if (rest === 0n) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

export function registerStrings(env: Environment): void {
  env.registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) =>
    replaceN(s, a, b, -1n),
  );
  env.registerFunction('string.replace(string, string, int): string', replaceN);
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = [...s];
    if (i < 0n || i > BigInt(chars.length)) throw new EvaluationError(`index out of range: ${i}`);
    return chars[Number(i)] ?? '';
  });
  env.registerFunction('string.reverse(): string', (s: string) => {
    chargeActive(stringCost(s));
    return [...s].reverse().join('');
  });
  env.registerFunction('string(google.protobuf.Timestamp): string', (t: Date) =>
    t.toISOString().replace(/\.000Z$/, 'Z'),
  );
  env.registerFunction('string(google.protobuf.Duration): string', (d: Duration) => {
    const nanos = d.seconds * 1_000_000_000n + BigInt(d.nanos);
    return `${fraction(nanos < 0n ? -nanos : nanos, 1_000_000_000n).replace(/^/, nanos < 0n ? '-' : '')}s`;
  });
  env.registerFunction('int(google.protobuf.Timestamp): int', (t: Date) => BigInt(Math.floor(t.getTime() / 1000)));
}
