/**
 * Stands in for prettier in the bundled monaco-yaml worker (scripts/build.mjs
 * aliases `prettier/standalone` and its plugins here): the views never format
 * YAML, and prettier would be 440 kB of the worker.
 */
export async function format(): Promise<string> {
  throw new Error('Formatting is not available in this view.');
}
