/**
 * A saved YAML file → the documents to apply, each with the 0-based line it
 * starts on, read by the same parser as the language server's (core's
 * sandbox/manifests/, so "what is a manifest" means the same in squiggles and
 * in the sandbox). Documents with YAML errors are not offered; the errors are
 * returned so the caller can say why. Where a field of a document is in the
 * text, for rejections that name fields.
 */
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
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

export function manifestsForApply(text: string): ParsedForApply {
  const { manifests, errors } = manifestObjects(text);
  const keyOf = (line: number, field: string): LineSpan | undefined => {
    const doc = manifests.find((m) => m.line === line);
    if (doc === undefined) return undefined;
    const span = doc.fieldSpan(field);
    return span.line === span.endLine
      ? { line: span.line, character: span.character, endCharacter: span.endCharacter }
      : undefined;
  };
  return { manifests: manifests.map(({ line, object }) => ({ line, object })), yamlErrors: errors, keyOf };
}
