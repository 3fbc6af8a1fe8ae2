/**
 * Apply conflicts: an applied field whose value differs from what another
 * manager set. Reported as upstream does — 409 Conflict, one cause
 * (`FieldManagerConflict`) per field, and a message naming managers and paths:
 * `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas`.
 */
import { statusFailure } from '../../api/errors';
import type { StatusCause, ApiError } from '../../api/errors';
import { pathText } from './pathElement';

export interface Conflict {
  /** The other manager's identity (managedFields.ts `identity`). */
  manager: string;
  path: readonly string[];
}

/** Thrown inside the apply pipeline; turned into the 409 by `conflictError`. */
export class ApplyConflicts extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(`${conflicts.length} apply conflicts`);
  }
}

/** `"kubectl-client-side-apply" using apps/v1`, `"kubectl"`, `"kubelet" with subresource "status" using v1`. */
export function describeManager(id: string): string {
  let entry: { manager?: unknown; operation?: unknown; apiVersion?: unknown; subresource?: unknown };
  try {
    entry = JSON.parse(id) as typeof entry;
  } catch {
    return JSON.stringify(id);
  }
  let text = JSON.stringify(typeof entry.manager === 'string' ? entry.manager : '');
  if (typeof entry.subresource === 'string' && entry.subresource !== '')
    text += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') text += ` using ${typeof entry.apiVersion === 'string' ? entry.apiVersion : ''}`;
  return text;
}

/** The 409 for a failed apply, worded as upstream words it. */
export function conflictError(conflicts: readonly Conflict[]): ApiError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${describeManager(c.manager)}`,
    field: pathText(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${describeManager(conflicts[0].manager)}: ${pathText(conflicts[0].path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const list = byManager.get(c.manager) ?? [];
      list.push(pathText(c.path));
      byManager.set(c.manager, list);
    }
    const lines: string[] = [];
    for (const id of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${describeManager(id)}:`);
      for (const p of byManager.get(id)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return statusFailure(409, 'Conflict', message, { causes });
}
