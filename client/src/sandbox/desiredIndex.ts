/**
 * The host's copy of the GitOps desired state: every object a saved file
 * declares, with the declaration in the cluster and the files that declare
 * it too — what sync status, ownership warnings and "Sync" read. Replaced
 * whole by each `desired` notification of the worker. No `vscode` import.
 */
import type { DesiredObject } from './protocol';

function key(resource: string, namespace: string | undefined, name: string): string {
  return `${resource}|${namespace ?? ''}|${name}`;
}

export class DesiredIndex {
  private byKey = new Map<string, DesiredObject>();
  private changes = 0;

  /** Counts replacements: a view that cached something per revision knows when to drop it. */
  get revision(): number {
    return this.changes;
  }

  /** Replaces the whole desired state. */
  replace(objects: readonly DesiredObject[]): void {
    this.byKey = new Map(objects.map((o) => [key(o.resource, o.namespace, o.name), o]));
    this.changes++;
  }

  /** The object a file declares at this place, if any (`namespace` as the live object has it). */
  get(resource: string, namespace: string | undefined, name: string): DesiredObject | undefined {
    return this.byKey.get(key(resource, namespace, name));
  }

  all(): DesiredObject[] {
    return [...this.byKey.values()];
  }
}
