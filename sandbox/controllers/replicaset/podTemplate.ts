/**
 * The pod a controller creates from its template (`GetPodFromTemplate` in
 * pkg/controller/controller_utils.go): the template's labels, annotations,
 * finalizers and spec, `generateName: <owner>-`, and the controller reference.
 */
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import type { KubeObject, OwnerReference } from '../../api/types';
import { cloneJson } from '../../util/json';

/** DNS-1123 subdomain rules for the part before the random suffix. */
const NAME_PREFIX = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?-$/;

/** `<name>-`, or the bare name when that is not a valid name prefix (`getPodsPrefix`). */
export function podNamePrefix(ownerName: string): string {
  const prefix = `${ownerName}-`;
  return NAME_PREFIX.test(prefix) && prefix.length <= 253 ? prefix : ownerName;
}

/**
 * A new Pod body for `namespace`, controlled by `controllerRef`. With `shareSpec`, the body's `spec` is the template's
 * own (not a copy): for a caller that sends the body as it is. The API server copies what it decodes, and a spec it
 * has seen frozen (the cached owner's) is checked for unknown fields once rather than per pod.
 */
export function podFromTemplate(
  template: PodTemplateSpec,
  owner: KubeObject,
  controllerRef: OwnerReference,
  options: { shareSpec?: boolean } = {},
): KubeObject {
  const meta = template.metadata ?? {};
  const metadata: KubeObject['metadata'] = {
    generateName: podNamePrefix(owner.metadata.name ?? ''),
    namespace: owner.metadata.namespace,
  };
  if (meta.labels) metadata.labels = { ...meta.labels };
  if (meta.annotations) metadata.annotations = { ...meta.annotations };
  if (meta.finalizers) metadata.finalizers = [...meta.finalizers];
  metadata.ownerReferences = [controllerRef];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: options.shareSpec && template.spec ? template.spec : cloneJson(template.spec ?? {}),
  };
}
