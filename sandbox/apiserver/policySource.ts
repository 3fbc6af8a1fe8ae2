/** What ValidatingAdmissionPolicy admission reads from the API server's store (policies, bindings, params). */
import type { PolicySource } from '../admission/policy/index';
import type { ResourceType } from '../api/resources';
import { resourceFor as builtInResourceFor } from '../api/resources';
import type { ObjectStore } from '../store/objectStore';
import { kindKey } from './kindKey';

const POLICIES = 'admissionregistration.k8s.io/v1|ValidatingAdmissionPolicy';
const BINDINGS = 'admissionregistration.k8s.io/v1|ValidatingAdmissionPolicyBinding';

/** `resourceFor` resolves a kind as the server serves it (its release's kinds and its CRDs' kinds). */
export function storePolicySource(
  store: ObjectStore,
  resourceFor: (apiVersion: string, kind: string) => ResourceType | undefined = builtInResourceFor,
): PolicySource {
  const key = (gvk: string): string => {
    const [apiVersion, kind] = gvk.split('|');
    return kindKey(builtInResourceFor(apiVersion, kind)!);
  };
  // Resolved once: every write asks for the policies.
  const policies = key(POLICIES);
  const bindings = key(BINDINGS);
  const namespaces = key('v1|Namespace');
  return {
    policies: () => store.list(policies),
    bindings: () => store.list(bindings),
    namespace: (name) => store.get(namespaces, '', name),
    params: (apiVersion, kind, namespace) => {
      const r = resourceFor(apiVersion, kind);
      if (!r) return undefined;
      return { namespaced: r.namespaced, objects: store.list(kindKey(r), r.namespaced ? namespace : undefined) };
    },
  };
}
