/**
 * A saved YAML file → the documents to apply, each with the 0-based line it
 * starts on, read by the same parser as the language server's (core's
 * sandbox/manifests/, so "what is a manifest" means the same in squiggles and
 * in the sandbox). Documents with YAML errors are not offered; the errors are
 * returned so the caller can say why.
 */
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import type { ManifestInput } from '../sandbox/protocol';

export interface ParsedForApply {
  manifests: ManifestInput[];
  /** YAML errors (not warnings), with their 0-based lines, in source order. */
  yamlErrors: { line: number; message: string }[];
}

export function manifestsForApply(text: string): ParsedForApply {
  const { manifests, errors } = manifestObjects(text);
  return { manifests, yamlErrors: errors };
}
