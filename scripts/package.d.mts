// Types of what scripts/package.mjs exports, for the unit tests (test/scripts/package.test.ts).

/** Files the extension opens by path at run time, besides `main` and what `contributes` names. */
export const RUNTIME_FILES: readonly string[];
/** The files package.json names: `main`, the icon, and every file path under `contributes`. */
export function manifestFiles(manifest: unknown): string[];
/** Relative `require("./…")` targets in a bundle's text. */
export function relativeRequires(text: string): string[];
/** Long plain strings of a generated JSON file's text. */
export function fingerprints(jsonText: string, count?: number): string[];
/** The problems of a package's file list, one sentence each; [] when it is right. */
export function checkPackageFiles(
  files: readonly string[],
  manifest: unknown,
  read: (file: string) => string,
): string[];
