/** `spec.replicas 5 → 3, metadata.labels.tier <none> → web`: changes as the reconciliation log words them. */
import type { FieldChangeInfo } from '../sandbox/protocol';

/** Changes listed before "and N more" (as sandbox/gitops/drift.ts). */
const LISTED = 5;

function show(value: unknown): string {
  if (value === undefined) return '<none>';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function describeFieldChanges(changes: readonly FieldChangeInfo[]): string {
  const listed = changes.slice(0, LISTED).map((c) => `${c.path} ${show(c.live)} → ${show(c.desired)}`);
  const more = changes.length - listed.length;
  return more > 0 ? `${listed.join(', ')} and ${more} more` : listed.join(', ');
}
