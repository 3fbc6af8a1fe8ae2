/**
 * π to a number of significant digits, rounded as Perl's `bignum` `bpi(N)`
 * prints it (the Kubernetes Job documentation's `perl -Mbignum=bpi -wle
 * 'print bpi(2000)'`). Machin's formula on BigInts.
 */

/** arctan(1/x) scaled by `unity`. */
function arctanInverse(x: bigint, unity: bigint): bigint {
  let sum = 0n;
  let power = unity / x;
  const x2 = x * x;
  for (let n = 1n, sign = 1n; power !== 0n; n += 2n, sign = -sign) {
    sum += (sign * power) / n;
    power /= x2;
  }
  return sum;
}

/** `3.14159…` with `digits` significant digits (at least 1, at most 20,000). */
export function piDigits(digits: number): string {
  const n = Math.max(1, Math.min(20_000, Math.floor(digits)));
  const guard = 10;
  const unity = 10n ** BigInt(n + guard);
  const pi = 16n * arctanInverse(5n, unity) - 4n * arctanInverse(239n, unity);
  // pi is scaled by 10^(n+guard): round to n significant digits (n - 1 after the point).
  const scale = 10n ** BigInt(guard + 1);
  const rounded = (pi + scale / 2n) / scale;
  const text = rounded.toString();
  return n === 1 ? text : `${text[0]}.${text.slice(1)}`;
}
