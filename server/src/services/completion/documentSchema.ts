/**
 * The schema of the document under the cursor, from its top-level
 * `apiVersion` and `kind` as typed so far. Lenient on purpose: with a wrong
 * or missing apiVersion the kind's current version still tells completion and
 * hover which fields exist (the validator reports the apiVersion).
 */
import { definition, kindEntry, kindsFor } from '../../schema/schema';
import type { Definition, KindEntry } from '../../schema/types';
import { rootScalar } from '../yamlPosition';
import type { DocumentBounds, Lines } from '../yamlLines';

export interface DocumentSchema {
  readonly entry: KindEntry;
  readonly definition: Definition;
}

/** The apiVersion a kind is served as today: the last served one in the schema's order (`autoscaling/v2` over `v1`). */
export function preferredEntry(kind: string): KindEntry | undefined {
  return kindsFor(kind)
    .filter((k) => k.removed !== true)
    .at(-1);
}

/**
 * The kind entry for a document's apiVersion/kind: the exact pair if the schema has it, else the kind's preferred
 * version.
 */
export function entryFor(apiVersion: string | undefined, kind: string | undefined): KindEntry | undefined {
  if (kind === undefined || kind === '') return undefined;
  return (apiVersion === undefined ? undefined : kindEntry(apiVersion, kind)) ?? preferredEntry(kind);
}

/** The schema of the document in `bounds`, or undefined when its kind is missing or unknown. */
export function documentSchema(lines: Lines, bounds: DocumentBounds): DocumentSchema | undefined {
  const entry = entryFor(rootScalar(lines, bounds, 'apiVersion')?.value, rootScalar(lines, bounds, 'kind')?.value);
  const def = entry === undefined ? undefined : definition(entry.definition);
  return entry === undefined || def === undefined ? undefined : { entry, definition: def };
}
