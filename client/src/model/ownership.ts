/**
 * Warnings for objects two saved files declare (Argo CD's "shared resource"):
 * one on each declaring document, saying which file's declaration is in the
 * cluster (the one applied last) and what happens when a file lets go of it.
 * From the desired state the worker sends, so they stay true as files change.
 */
import type { DesiredObject } from '../sandbox/protocol';

export interface OwnershipWarning {
  source: string;
  /** 0-based line of the declaring document. */
  line: number;
  message: string;
}

/** `deployment.apps/web`, as kubectl names objects. */
export function declaredRef(o: Pick<DesiredObject, 'manifest' | 'name'>): string {
  const apiVersion = o.manifest.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return `${(o.manifest.kind ?? '').toLowerCase()}${group ? `.${group}` : ''}/${o.name}`;
}

const at = (d: { source: string; line: number }) => `${d.source}:${d.line + 1}`;

export function ownershipWarnings(objects: readonly DesiredObject[]): OwnershipWarning[] {
  const out: OwnershipWarning[] = [];
  for (const o of objects) {
    if (o.shadowed.length === 0) continue;
    const ref = declaredRef(o);
    const others = [...o.shadowed].reverse();
    out.push({
      source: o.source,
      line: o.line,
      message: `${ref} is also declared in ${others.map(at).join(', ')}. This file was applied last, so its declaration is the one in the cluster; if it stops declaring ${ref}, ${others[0].source}'s declaration is applied instead.`,
    });
    for (const s of o.shadowed) {
      out.push({
        source: s.source,
        line: s.line,
        message: `${ref} is also declared in ${at(o)}, which was applied later: its declaration is the one in the cluster. This one is applied again if ${o.source} stops declaring ${ref}.`,
      });
    }
  }
  return out;
}
