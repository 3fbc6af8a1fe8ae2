/**
 * Argo CD's sync status, per object: does the cluster hold what the saved
 * files declare? The desired side is the declaration in effect (the file
 * applied last); fields are compared with `diffObjects`, so defaults and
 * server-owned fields are not drift.
 *
 * - `Synced`: declared, and the live object matches the manifest.
 * - `OutOfSync`: declared, and some field differs (or the object is being deleted).
 * - `Missing`: declared, but not in the cluster.
 * - `Extra`: in the cluster, applied from a file or by `kubectl apply` (it
 *   carries the source or last-applied annotation), but no saved file declares it now.
 *
 * Objects the cluster made (a ReplicaSet's pods, the `kubernetes` Service) have no sync status.
 */
import { LAST_APPLIED, SOURCE_ANNOTATION } from '../../../sandbox/api/annotations';
import type { KubeObject } from '../../../sandbox/api/types';
import { differences, diffObjects } from './diff';

import type { SyncStatusCode } from './types';

export type { SyncStatusCode };

export interface SyncStatus {
  status: SyncStatusCode;
  /** One line for a tooltip or the Desired vs Actual header: `OutOfSync: spec.replicas differs from web.yaml:9`. */
  message: string;
  /** The paths that differ (OutOfSync). */
  drift: string[];
}

/** The declaration behind an object: its manifest and where it is written. */
export interface Declared {
  manifest: KubeObject;
  source: string;
  /** 0-based line of its document. */
  line: number;
}

/** Paths named in a message before "and N more". */
const LISTED = 3;

function where(d: Declared): string {
  return `${d.source}:${d.line + 1}`;
}

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, LISTED).join(', ');
  return paths.length > LISTED ? `${shown} and ${paths.length - LISTED} more` : shown;
}

/** True for an object someone applied (a saved file, or `kubectl apply`), rather than one the cluster made. */
export function wasApplied(live: KubeObject): boolean {
  const annotations = live.metadata.annotations ?? {};
  const owned = live.metadata.ownerReferences?.some((r) => r.controller) ?? false;
  return !owned && (SOURCE_ANNOTATION in annotations || LAST_APPLIED in annotations);
}

/** The sync status of one object, or undefined when it is neither declared nor applied by anyone. */
export function syncStatusOf(declared: Declared | undefined, live: KubeObject | undefined): SyncStatus | undefined {
  if (declared === undefined) {
    if (live === undefined || !wasApplied(live)) return undefined;
    const from = live.metadata.annotations?.[SOURCE_ANNOTATION];
    const how = from ? `applied from ${from}, which no longer declares it` : 'applied by kubectl apply';
    return { status: 'Extra', message: `Extra: no saved file declares it (${how})`, drift: [] };
  }
  if (live === undefined)
    return { status: 'Missing', message: `Missing: declared in ${where(declared)}, not in the cluster`, drift: [] };
  if (live.metadata.deletionTimestamp)
    return { status: 'OutOfSync', message: `OutOfSync: being deleted; declared in ${where(declared)}`, drift: [] };
  const drift = differences(diffObjects(declared.manifest, live)).map((e) => e.path);
  if (drift.length === 0) return { status: 'Synced', message: `Synced with ${where(declared)}`, drift };
  const verb = drift.length === 1 ? 'differs' : 'differ';
  return { status: 'OutOfSync', message: `OutOfSync: ${listed(drift)} ${verb} from ${where(declared)}`, drift };
}
