/**
 * Property names as CEL sees them (upstream: apiserver/pkg/cel/escaping.go: Escape). A name that is a CEL keyword
 * becomes `__keyword__`; `__`, `.`, `-` and `/` become `__underscores__`, `__dot__`, `__dash__` and `__slash__`; a
 * name with any other character cannot be reached from CEL at all.
 */

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const ESCAPABLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** The CEL name of a property, or undefined when it has none. */
export function escapeProperty(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, (m) =>
    m === '__' ? '__underscores__' : m === '.' ? '__dot__' : m === '-' ? '__dash__' : '__slash__',
  );
}
