/**
 * Parsed manifests placed in their file, with 1-based lines, as the plan engine (`PlanManifest`), `simulate`, `serve`
 * and `plan` take them: the one mapping from `manifestObjects`' 0-based positions, shared by the CLI, the sandbox
 * worker (foresight) and the extension host (Plan Against Cluster). Core, so that every layer may import it.
 */
import type { KubeObject } from '../api/types';
import type { ManifestToApply } from './parseManifests';

/** A manifest of a file: a `PlanManifest` whose fields can always be placed. */
export interface PlacedManifest {
  /** The file, as the user named it. */
  source: string;
  /** 1-based line of the document's first key. */
  line: number;
  object: KubeObject;
  /** 1-based line of a field (an upstream path) of the document, or of its nearest key the text has. */
  lineOf(field: string): number;
}

/** `manifests` (from `manifestObjects`) of the file named `source`, with 1-based lines. */
export function placeManifests(manifests: readonly ManifestToApply[], source: string): PlacedManifest[] {
  return manifests.map((m) => ({
    source,
    line: m.line + 1,
    object: m.object,
    lineOf: (field: string) => m.fieldSpan(field).line + 1,
  }));
}
