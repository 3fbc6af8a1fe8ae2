/** Small helpers shared by the benchmark scripts: percentiles and a machine description. */
import os from 'node:os';

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summarize(samples: number[]): { p50: number; p99: number; max: number; n: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1], n: s.length };
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}

export function fmt(n: number, digits = 2): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
