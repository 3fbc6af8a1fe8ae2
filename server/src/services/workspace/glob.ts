/**
 * The workspace globs (VS Code's glob semantics on picomatch) live in core, shared with the extension's
 * desired-state selection.
 */
export { compileGlob, matchesAny } from '../../../../sandbox/util/glob';
export type { GlobMatcher } from '../../../../sandbox/util/glob';
