/**
 * `npm run check:layers`: reads the import graph of the whole tree and fails (exit 1) on any layer violation
 * or import cycle, printing each with its file, line, import and rule. `--root DIR` checks another tree laid out
 * the same way (the tests plant violations in a temporary copy).
 */
import { fileURLToPath } from 'node:url';
import { buildImportGraph } from './graph';
import { checkGraph, formatReport } from './check';
import { EXCEPTIONS, MODULES, ROOTS } from './rules';

const at = process.argv.indexOf('--root');
const root = at >= 0 ? process.argv[at + 1] : fileURLToPath(new URL('../..', import.meta.url));
const graph = buildImportGraph(root, ROOTS);
const result = checkGraph(graph, MODULES, EXCEPTIONS);
const report = formatReport(result, graph.files.length, graph.imports.length);
if (result.violations.length > 0) {
  console.error(report);
  process.exit(1);
}
console.log(report);
