/**
 * Glob matching for include/exclude settings (the language server's validation, the
 * extension's desired state), with VS Code's glob
 * semantics (src/vs/base/common/glob.ts) on picomatch:
 * - `**` matches any number of path segments, including none, so `a/**`
 *   matches `a` itself and everything below it;
 * - `*` and `?` stay within one segment and match dot files too (VS Code has
 *   no hidden-file rule: `*.yaml` matches `.hidden.yaml`);
 * - `{a,b}` alternatives (nesting allowed), `[abc]`, `[a-z]`, and `[!a]` or
 *   `[^a]` character classes;
 * - case matters; no extglobs (`+(a)`), no leading `!` negation: those
 *   characters match themselves, as in VS Code;
 * - the pattern is trimmed. Paths use `/`.
 */
import picomatch from 'picomatch';

/** A compiled pattern: true when the whole `/`-separated path matches. */
export type GlobMatcher = (path: string) => boolean;

const OPTIONS: picomatch.PicomatchOptions = {
  dot: true,
  nocase: false,
  noextglob: true,
  nonegate: true,
  // `[!a]` as negation (picomatch reads it so only in POSIX mode).
  posix: true,
};

/** Compiles `pattern`. Never throws: a pattern that does not compile matches nothing. */
export function compileGlob(pattern: string): GlobMatcher {
  try {
    // picomatch reads parentheses and `|` as regular-expression groups even without extglobs; VS Code does not.
    const isMatch = picomatch(
      pattern.trim().replace(/[()|]/g, (c) => `\\${c}`),
      OPTIONS,
    );
    return (path) => isMatch(path);
  } catch {
    return () => false;
  }
}

/** True when any of `patterns` matches `path`. */
export function matchesAny(matchers: readonly GlobMatcher[], path: string): boolean {
  return matchers.some((m) => m(path));
}
