/**
 * A saved YAML file → the documents to apply, each with the 0-based line it
 * starts on, using the language server's parser (so "what is a manifest"
 * means the same in squiggles and in the sandbox). Documents with YAML errors
 * are not offered; the errors are returned so the caller can say why. Where a
 * field of a document is in the text, for rejections that name fields.
 */
import { parseManifests } from '../../../server/src/services/parseManifests';
import { fieldRange } from '../../../server/src/services/pathToRange';
import { positionAt } from '../../../server/src/services/ranges';
import type { KubeObject } from '../../../sandbox/api/types';
import type { ManifestInput } from '../sandbox/protocol';

/** A single-line span: 0-based line and characters. */
export interface LineSpan {
  line: number;
  character: number;
  endCharacter: number;
}

export interface ParsedForApply {
  manifests: ManifestInput[];
  /** YAML errors (not warnings), with their 0-based lines, in source order. */
  yamlErrors: { line: number; message: string }[];
  /**
   * The key of `field` (an upstream path, `spec.containers[0].poarts`) in the document starting at `line`, or the
   * nearest key the text has; undefined when no document starts there or the span would cross lines.
   */
  keyOf(line: number, field: string): LineSpan | undefined;
}

const ERROR = 1;

export function manifestsForApply(text: string): ParsedForApply {
  const parsed = parseManifests(text);
  const lineOf = (offset: number) => positionAt(parsed.lineCounter, offset).line;
  const manifests = parsed.manifests.map((m) => ({
    line: lineOf(m.root.range?.[0] ?? 0),
    object: m.object as unknown as KubeObject,
  }));
  const yamlErrors = parsed.diagnostics
    .filter((d) => d.severity === ERROR)
    .map((d) => ({ line: d.range.start.line, message: typeof d.message === 'string' ? d.message : d.message.value }));
  const keyOf = (line: number, field: string): LineSpan | undefined => {
    const doc = parsed.manifests.find((m) => lineOf(m.root.range?.[0] ?? 0) === line);
    if (doc === undefined) return undefined;
    const { start, end } = fieldRange(doc.root, field, parsed.lineCounter, { part: 'key' });
    return start.line === end.line
      ? { line: start.line, character: start.character, endCharacter: end.character }
      : undefined;
  };
  return { manifests, yamlErrors, keyOf };
}
