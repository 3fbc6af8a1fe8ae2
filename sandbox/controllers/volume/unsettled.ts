/**
 * Claims short of Bound, for the settled report (`describeUnsettled`): each Pending or Lost
 * PersistentVolumeClaim with why — the latest event the PersistentVolume controller or the provisioner recorded for
 * it (`storageclass.storage.k8s.io "x" not found`, `waiting for first consumer to be created before binding`, …).
 */
import type { PersistentVolumeClaim } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';

interface EventLike {
  reason?: string;
  message?: string;
  lastTimestamp?: string;
  eventTime?: string;
  involvedObject?: { kind?: string; name?: string; uid?: string };
}

export function unsettledClaims(api: ApiServer): string[] {
  const lines: string[] = [];
  for (const obj of api.list('persistentvolumeclaims').items) {
    const pvc = obj as PersistentVolumeClaim;
    const phase = pvc.status?.phase ?? 'Pending';
    if (phase === 'Bound') continue;
    const ns = obj.metadata.namespace ?? 'default';
    const events = api
      .list('events', { namespace: ns })
      .items.map((e) => e as EventLike)
      .filter((e) => e.involvedObject?.kind === 'PersistentVolumeClaim' && e.involvedObject.uid === obj.metadata.uid);
    const last = events.at(-1);
    const why = last ? `${last.reason}: ${last.message}` : 'no volume bound yet';
    lines.push(`persistentvolumeclaim ${ns}/${obj.metadata.name}: ${phase} (${why})`);
  }
  return lines;
}
