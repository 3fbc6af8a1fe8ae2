/**
 * `kubectl rollout undo deployment/<name>`: puts the pod template of the
 * previous revision's ReplicaSet back into the Deployment (without the
 * pod-template-hash label); the Deployment controller does the rest.
 */
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import type { KubeObject } from '../../../sandbox/api/types';
import { REVISION_ANNOTATION } from '../../../sandbox/controllers/deployment/annotations';
import { POD_TEMPLATE_HASH_LABEL } from '../../../sandbox/controllers/deployment/replicaSets';
import { cloneJson } from '../../../sandbox/util/json';

interface Template {
  metadata?: { labels?: Record<string, string> };
  [field: string]: unknown;
}

function revision(rs: KubeObject): number {
  const n = Number(rs.metadata.annotations?.[REVISION_ANNOTATION]);
  return Number.isInteger(n) ? n : 0;
}

/** Rolls the Deployment back one revision; returns kubectl's message. Throws when there is no earlier revision. */
export function rollBack(api: ApiServer, namespace: string, name: string): string {
  const d = api.get('deployments', namespace, name);
  const owned = api
    .list('replicasets', { namespace })
    .items.filter((rs) => rs.metadata.ownerReferences?.some((r) => r.controller && r.uid === d.metadata.uid));
  const byRevision = owned.filter((rs) => revision(rs) > 0).sort((a, b) => revision(b) - revision(a));
  const previous = byRevision[1];
  if (!previous) throw new Error(`no rollout history found for deployment "${name}"`);
  const template = cloneJson((previous.spec as { template?: Template }).template ?? {});
  const labels = Object.fromEntries(
    Object.entries(template.metadata?.labels ?? {}).filter(([k]) => k !== POD_TEMPLATE_HASH_LABEL),
  );
  template.metadata = { ...(template.metadata ?? {}), labels };
  api.patch('deployments', namespace, name, 'json', [{ op: 'replace', path: '/spec/template', value: template }]);
  return `deployment.apps/${name} rolled back`;
}
