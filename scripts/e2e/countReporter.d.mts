// Types of what scripts/e2e/countReporter.mjs exports, for its unit tests.

export interface Results {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
}

/** The node:test reporter: yields one line, the JSON of `Results`. */
export default function countReporter(source: AsyncIterable<unknown>): AsyncGenerator<string>;
/** The lines that close an e2e run (the "N passed, N failed, N skipped" line last) and its exit code. */
export function summarize(
  code: number,
  results: Results | undefined,
  skipped: boolean,
): { lines: string[]; exit: number };
