/**
 * The TypeScript import graph of the repository, read with the TypeScript parser (no type checking, so the
 * whole tree takes about a second): every `import`, `export … from`, `import x = require(…)`, dynamic
 * `import(…)` and `import('…').T` type, with its line and whether it brings in types only, and every
 * `/// <reference lib="…" />` directive.
 */
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

export interface ImportEdge {
  /** The importing file, relative to the root, with `/` separators. */
  readonly from: string;
  /** 1-based line of the import. */
  readonly line: number;
  /** The module specifier as written. */
  readonly specifier: string;
  /**
   * What it names: a file relative to the root (`sandbox/api/types.ts`; a relative import of a file that does not
   * exist yet keeps the path it names), `npm:<package>` for a package, `node:<module>` for a Node built-in.
   */
  readonly to: string;
  /** `import type`, `export type`, all-`type` named imports, or an `import('…')` type: nothing at run time. */
  readonly typeOnly: boolean;
}

export interface LibReference {
  readonly file: string;
  readonly line: number;
  /** `dom`, `es2022`, … as written. */
  readonly lib: string;
}

export interface ImportGraph {
  /** Every source file read, relative to the root, sorted. */
  readonly files: string[];
  readonly imports: ImportEdge[];
  readonly libReferences: LibReference[];
}

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'out', '.vscode-test', '.git']);
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.d.ts', '/index.ts', '/index.tsx'];

/** The graph of every TypeScript file under `dirs` (relative to `root`). */
export function buildImportGraph(root: string, dirs: readonly string[]): ImportGraph {
  const files = dirs.flatMap((d) => (existsSync(join(root, d)) ? sourceFiles(root, join(root, d)) : [])).sort();
  const imports: ImportEdge[] = [];
  const libReferences: LibReference[] = [];
  for (const file of files) {
    const found = importsOf(file, readFileSync(join(root, file), 'utf8'), (p) => existsSync(join(root, p)));
    imports.push(...found.imports);
    libReferences.push(...found.libReferences);
  }
  return { files, imports, libReferences };
}

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(root, p));
    else if (SOURCE.test(name)) out.push(toPosix(relative(root, p)));
  }
  return out;
}

/** The imports and lib references of one file's text; `exists` says whether a root-relative path is a file. */
export function importsOf(
  file: string,
  text: string,
  exists: (path: string) => boolean,
): { imports: ImportEdge[]; libReferences: LibReference[] } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const lineOf = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const imports: ImportEdge[] = [];
  const add = (node: ts.Node, specifier: string, typeOnly: boolean): void => {
    const line = lineOf(node.getStart(sf));
    imports.push({ from: file, line, specifier, to: resolve(file, specifier, exists), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, importIsTypeOnly(node));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, exportIsTypeOnly(node));
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      add(node, node.moduleReference.expression.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node, node.arguments[0].text, false);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const libReferences = sf.libReferenceDirectives.map((r) => ({ file, line: lineOf(r.pos), lib: r.fileName }));
  return { imports, libReferences };
}

function scriptKind(file: string): ts.ScriptKind {
  return file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  if (!clause || !ts.isNamedExports(clause)) return false;
  return clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

const BUILTINS = new Set(
  [
    'assert',
    'buffer',
    'child_process',
    'crypto',
    'events',
    'fs',
    'http',
    'https',
    'module',
    'net',
    'os',
    'path',
    'perf_hooks',
    'process',
    'stream',
    'tls',
    'url',
    'util',
    'worker_threads',
    'zlib',
  ].flatMap((m) => [m, `${m}/promises`]),
);

/** What a specifier in `file` names (see `ImportEdge.to`). */
export function resolve(file: string, specifier: string, exists: (path: string) => boolean): string {
  if (specifier.startsWith('node:')) return specifier;
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) {
    if (BUILTINS.has(specifier)) return `node:${specifier}`;
    const parts = specifier.split('/');
    return `npm:${specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]}`;
  }
  const base = toPosix(normalize(join(dirname(file), specifier)));
  // `./x.js` written for a `./x.ts` file (node16-style specifiers).
  const candidates = [base, base.replace(/\.(m|c)?js$/, '.$1ts')];
  for (const c of candidates) {
    for (const suffix of RESOLVE_SUFFIXES) if (exists(c + suffix) && SOURCE_OR_DATA.test(c + suffix)) return c + suffix;
  }
  return base;
}

const SOURCE_OR_DATA = /\.(ts|tsx|mts|cts|json|js|mjs|cjs)$/;

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}
