/**
 * A saved YAML file → the documents to apply, each with the 0-based line it
 * starts on, using the language server's parser (so "what is a manifest"
 * means the same in squiggles and in the sandbox). Documents with YAML errors
 * are not offered; the errors are returned so the caller can say why.
 */
import { parseManifests } from '../../../server/src/services/parseManifests';
import { positionAt } from '../../../server/src/services/ranges';
import type { KubeObject } from '../../../sandbox/api/types';
import type { ManifestInput } from '../sandbox/protocol';

export interface ParsedForApply {
  manifests: ManifestInput[];
  /** YAML errors (not warnings), with their 0-based lines, in source order. */
  yamlErrors: { line: number; message: string }[];
}

const ERROR = 1;

export function manifestsForApply(text: string): ParsedForApply {
  const parsed = parseManifests(text);
  const manifests = parsed.manifests.map((m) => ({
    line: positionAt(parsed.lineCounter, m.root.range?.[0] ?? 0).line,
    object: m.object as unknown as KubeObject,
  }));
  const yamlErrors = parsed.diagnostics
    .filter((d) => d.severity === ERROR)
    .map((d) => ({ line: d.range.start.line, message: typeof d.message === 'string' ? d.message : d.message.value }));
  return { manifests, yamlErrors };
}
