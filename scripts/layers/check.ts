/**
 * Checks an import graph against the layer table (rules.ts): every import goes down the layers (or stays in its
 * module), no module imports a package it must not, no file names the DOM library, every file belongs
 * to a module, and no import cycle exists anywhere. Each problem names the file and line, the import, and the
 * rule it breaks.
 */
import type { ImportEdge, ImportGraph } from './graph';
import type { Exception, Module } from './rules';

export interface Violation {
  readonly rule: 'layer' | 'forbidden-import' | 'dom-lib' | 'unassigned-file' | 'cycle' | 'never-loads';
  /** The file the problem is in (for a cycle: its first file in path order). */
  readonly file: string;
  /** Human-readable, several lines: where, what, which rule, how to fix. */
  readonly message: string;
}

export interface CheckResult {
  readonly violations: Violation[];
  /** Exceptions that matched no import: the change they waited for has landed; remove them. */
  readonly staleExceptions: Exception[];
}

/** The module a root-relative path belongs to: the longest matching path wins. */
export function moduleOf(path: string, modules: readonly Module[]): Module | undefined {
  let best: { module: Module; length: number } | undefined;
  for (const m of modules) {
    for (const p of m.paths) {
      const matches = p.endsWith('/') ? path.startsWith(p) : path === p;
      if (matches && (!best || p.length > best.length)) best = { module: m, length: p.length };
    }
  }
  return best?.module;
}

function allows(from: Module, to: Module, typeOnly: boolean): boolean {
  if (from.name === to.name || from.mayImport.includes('*') || from.mayImport.includes(to.name)) return true;
  return typeOnly && (from.mayImportTypes ?? []).includes(to.name);
}

function matchesException(edge: ImportEdge, e: Exception): boolean {
  return edge.from === e.from && (e.to.endsWith('/') ? edge.to.startsWith(e.to) : edge.to === e.to);
}

const describeModule = (m: Module): string => `${m.name} (${m.layer}: ${m.paths.join(', ')})`;

function allowedList(m: Module): string {
  const run = m.mayImport.length > 0 ? m.mayImport.join(', ') : 'nothing outside itself';
  const types = m.mayImportTypes?.length ? `; types only from ${m.mayImportTypes.join(', ')}` : '';
  return run + types;
}

function where(edge: ImportEdge): string {
  const target = edge.to.startsWith('npm:') || edge.to.startsWith('node:') ? '' : ` (${edge.to})`;
  return `${edge.from}:${edge.line}: ${edge.typeOnly ? 'import type' : 'import'} '${edge.specifier}'${target}`;
}

export function checkGraph(
  graph: ImportGraph,
  modules: readonly Module[],
  exceptions: readonly Exception[] = [],
): CheckResult {
  const violations: Violation[] = [];
  const usedExceptions = new Set<Exception>();
  /** Imports already reported by the layer table (a never-loads chain of one step says nothing more). */
  const reported = new Set<ImportEdge>();

  for (const file of graph.files) {
    if (moduleOf(file, modules)) continue;
    violations.push({
      rule: 'unassigned-file',
      file,
      message:
        `${file} belongs to no layer.\n` +
        '  rule [unassigned-file]: every source file belongs to a module of scripts/layers/rules.ts; ' +
        'add its folder to the module it belongs to (and to the layer diagram in ARCHITECTURE.md).',
    });
  }

  for (const edge of graph.imports) {
    const from = moduleOf(edge.from, modules);
    if (!from) continue; // reported above
    const forbidden = (from.forbidden ?? []).find((f) => f.target === edge.to);
    if (forbidden) {
      reported.add(edge);
      violations.push({
        rule: 'forbidden-import',
        file: edge.from,
        message:
          `${where(edge)}\n` +
          `  rule [forbidden-import]: ${describeModule(from)} never imports ${edge.to.replace(/^npm:/, '')}: ` +
          `${forbidden.why}.`,
      });
      continue;
    }
    if (edge.to.startsWith('npm:') || edge.to.startsWith('node:')) continue;
    const to = moduleOf(edge.to, modules);
    if (to && allows(from, to, edge.typeOnly)) continue;
    const exception = exceptions.find((e) => matchesException(edge, e));
    if (exception) {
      usedExceptions.add(exception);
      continue;
    }
    const runtimeOnly =
      to && edge.typeOnly === false && (from.mayImportTypes ?? []).includes(to.name)
        ? ` (it may import types from ${to.name}: use \`import type\` if types are all it needs)`
        : '';
    reported.add(edge);
    violations.push({
      rule: 'layer',
      file: edge.from,
      message:
        `${where(edge)}\n` +
        `  rule [layer]: ${describeModule(from)} may import ${allowedList(from)} — ` +
        `not ${to ? describeModule(to) : `${edge.to}, which belongs to no layer`}${runtimeOnly}.\n` +
        `  why: ${from.why}. Move what both need down to a layer both may use.`,
    });
  }

  for (const ref of graph.libReferences) {
    if (ref.lib.toLowerCase() !== 'dom' && !ref.lib.toLowerCase().startsWith('dom.')) continue;
    violations.push({
      rule: 'dom-lib',
      file: ref.file,
      message:
        `${ref.file}:${ref.line}: /// <reference lib="${ref.lib}" />\n` +
        '  rule [dom-lib]: the DOM library comes only from the tsconfig of code that runs in a page ' +
        '(client/webview/tsconfig.json, test/e2e/tsconfig.json); a reference directive would put DOM globals in ' +
        'scope for sandbox/, server/ and every other file of the program that reaches it.',
    });
  }

  violations.push(...findCycles(graph));
  for (const m of modules) if (m.neverLoads) violations.push(...findLoads(graph, modules, m, reported));
  return { violations, staleExceptions: exceptions.filter((e) => !usedExceptions.has(e)) };
}

/**
 * Every import cycle, as one violation per strongly connected component of the file graph (Tarjan), showing one
 * concrete cycle through it. Type-only imports count: a cycle of types still ties the files' layers together.
 */
export function findCycles(graph: ImportGraph): Violation[] {
  const known = new Set(graph.files);
  const out = new Map<string, ImportEdge[]>();
  for (const e of graph.imports) {
    if (!known.has(e.to)) continue;
    const list = out.get(e.from) ?? [];
    list.push(e);
    out.set(e.from, list);
  }

  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  // Iterative Tarjan: the graph is deep enough (hundreds of files) that recursion is best avoided.
  for (const start of graph.files) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = out.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++].to;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== frame.node);
        const selfLoop = (out.get(frame.node) ?? []).some((e) => e.to === frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }

  return components
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map((component) => {
      const path = cycleThrough(component, out);
      const steps = path.map((e) => `    ${e.from}:${e.line} imports '${e.specifier}'`).join('\n');
      const others = component.length > path.length ? ` (${component.length} files are tangled in all)` : '';
      return {
        rule: 'cycle' as const,
        file: component[0],
        message:
          `import cycle: ${[...path.map((e) => e.from), path[0].from].join(' → ')}${others}\n` +
          `${steps}\n` +
          '  rule [cycle]: no import cycles anywhere; move what the files share into a module both may import.',
      };
    });
}

/** One shortest cycle from the component's first file back to it, staying inside the component (BFS). */
function cycleThrough(component: string[], out: Map<string, ImportEdge[]>): ImportEdge[] {
  const members = new Set(component);
  const start = component[0];
  const via = new Map<string, ImportEdge>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const e of out.get(queue[i]) ?? []) {
      if (!members.has(e.to)) continue;
      if (e.to === start) {
        const path = [e];
        for (let at = e.from; at !== start; at = via.get(at)!.from) path.unshift(via.get(at)!);
        return path;
      }
      if (!via.has(e.to)) {
        via.set(e.to, e);
        queue.push(e.to);
      }
    }
  }
  throw new Error(`no cycle through ${start}: not a strongly connected component`);
}

const underAny = (path: string, paths: readonly string[]): boolean =>
  paths.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));

/**
 * Where `module`'s code loads what its `neverLoads` names, through any number of imports that load code: one
 * violation per import that steps into a named file, with a shortest chain to it from one of the module's files
 * (breadth-first from all of them at once).
 */
export function findLoads(
  graph: ImportGraph,
  modules: readonly Module[],
  module: Module,
  reported: ReadonlySet<ImportEdge> = new Set(),
): Violation[] {
  const { paths, why } = module.neverLoads!;
  const known = new Set(graph.files);
  const out = new Map<string, ImportEdge[]>();
  for (const e of graph.imports) {
    if (e.typeOnly || !known.has(e.to)) continue;
    const list = out.get(e.from) ?? [];
    list.push(e);
    out.set(e.from, list);
  }
  const starts = graph.files.filter((f) => moduleOf(f, modules) === module && !underAny(f, paths));
  const via = new Map<string, ImportEdge | undefined>(starts.map((f) => [f, undefined]));
  const queue = [...starts];
  const found: ImportEdge[] = [];
  for (let i = 0; i < queue.length; i++) {
    for (const e of out.get(queue[i]) ?? []) {
      if (underAny(e.to, paths)) {
        if (!reported.has(e)) found.push(e);
        continue;
      }
      if (via.has(e.to)) continue;
      via.set(e.to, e);
      queue.push(e.to);
    }
  }
  return found.map((edge) => {
    const chain = [edge];
    for (let e = via.get(edge.from); e; e = via.get(e.from)) chain.unshift(e);
    const steps = chain.map((e) => `    ${e.from}:${e.line} imports '${e.specifier}'`).join('\n');
    return {
      rule: 'never-loads' as const,
      file: chain[0].from,
      message:
        `${chain[0].from} loads ${edge.to}: ${[...chain.map((e) => e.from), edge.to].join(' → ')}\n` +
        `${steps}\n` +
        `  rule [never-loads]: ${describeModule(module)} never loads ${paths.join(', ')}, even indirectly: ${why}. ` +
        'Import types only (`import type`), move the small helper it needs out of the heavy file, or ask the worker.',
    };
  });
}

/** The report printed by `npm run check:layers`. */
export function formatReport(result: CheckResult, fileCount: number, importCount: number): string {
  const lines: string[] = [];
  for (const v of result.violations) lines.push(v.message, '');
  for (const e of result.staleExceptions) {
    lines.push(
      `note: the exception for ${e.from} → ${e.to} matched no import; remove it from scripts/layers/rules.ts.`,
    );
  }
  const verdict =
    result.violations.length === 0
      ? `layers: ${fileCount} files, ${importCount} imports, no violation, no cycle`
      : `layers: ${result.violations.length} violation(s) in ${fileCount} files`;
  lines.push(verdict);
  return lines.join('\n');
}
