/** What ValidatingAdmissionPolicy admission reads from the API server's store (policies, bindings, params). */
import type { PolicySource } from '../admission/policy/index';
import { resourceFor } from '../api/resources';
import type { ObjectStore } from '../store/objectStore';
import { kindKey } from './kindKey';

const POLICIES = 'admissionregistration.k8s.io/v1|ValidatingAdmissionPolicy';
const BINDINGS = 'admissionregistration.k8s.io/v1|ValidatingAdmissionPolicyBinding';

export function storePolicySource(store: ObjectStore): PolicySource {
  const key = (gvk: string): string => {
    const [apiVersion, kind] = gvk.split('|');
    return kindKey(resourceFor(apiVersion, kind)!);
  };
  return {
    policies: () => store.list(key(POLICIES)),
    bindings: () => store.list(key(BINDINGS)),
    namespace: (name) => store.get(key('v1|Namespace'), '', name),
    params: (apiVersion, kind, namespace) => {
      const r = resourceFor(apiVersion, kind);
      if (!r) return undefined;
      return { namespaced: r.namespaced, objects: store.list(kindKey(r), r.namespaced ? namespace : undefined) };
    },
  };
}
