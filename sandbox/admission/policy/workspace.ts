/**
 * ValidatingAdmissionPolicy over a set of documents instead of a store, for the editor and `validate`: the policies,
 * bindings, namespaces and params of a workspace decide what they would do to each manifest created from it.
 */
import type { KubeObject } from '../../api/types';
import { parseApiVersion } from '../../api/types';
import { qualifiedResource, resourceFor } from '../../api/resources';
import type { PolicySource } from './dispatch';
import { denialMessage, evaluatePolicies } from './dispatch';
import { BINDING_KIND, POLICY_GROUP, POLICY_KIND } from './types';
import { cloneJson, deepFreeze } from '../../util/json';
import { typeMismatch } from '../../schema/typeCheck';

function isPolicyKind(o: KubeObject, kind: string): boolean {
  return parseApiVersion(o.apiVersion).group === POLICY_GROUP && o.kind === kind;
}

/** Whether any of `objects` is a ValidatingAdmissionPolicy (nothing to check otherwise). */
export function hasPolicies(objects: readonly KubeObject[]): boolean {
  return objects.some((o) => isPolicyKind(o, POLICY_KIND));
}

/**
 * The documents as the plugin's source. Objects must carry the namespace they are created in. A Namespace that no
 * document declares is still there, with the label the API server gives every namespace.
 */
export function workspacePolicySource(objects: readonly KubeObject[]): PolicySource {
  const namespaces = new Map<string, KubeObject>();
  for (const o of objects)
    if (o.apiVersion === 'v1' && o.kind === 'Namespace' && o.metadata.name) namespaces.set(o.metadata.name, o);
  // Found once: the plugin asks for them on every manifest judged. Frozen copies, so each compiles once and is then
  // found by identity (a spec that may change is compared by its JSON text on every manifest judged).
  // A policy or binding with a field of the wrong JSON type is one the API server refuses to store (its decoding
  // fails: apiServer.ts refuseMistyped), so it is not in force; its own document reports the wrong type.
  const decodes = (o: KubeObject) => typeMismatch(o, o.apiVersion, o.kind) === undefined;
  const policies = objects
    .filter((o) => isPolicyKind(o, POLICY_KIND) && decodes(o))
    .map((o) => deepFreeze(cloneJson(o)));
  const bindings = objects.filter((o) => isPolicyKind(o, BINDING_KIND) && decodes(o));
  return {
    policies: () => policies,
    bindings: () => bindings,
    namespace: (name) => {
      const declared = namespaces.get(name);
      const labels = { ...(declared?.metadata.labels ?? {}), 'kubernetes.io/metadata.name': name };
      return { apiVersion: 'v1', kind: 'Namespace', ...declared, metadata: { ...declared?.metadata, name, labels } };
    },
    params: (apiVersion, kind, namespace) => {
      const same = objects.filter((o) => o.apiVersion === apiVersion && o.kind === kind);
      const namespaced = resourceFor(apiVersion, kind)?.namespaced ?? same.some((o) => !!o.metadata.namespace);
      return {
        namespaced,
        objects: namespaced && namespace !== undefined ? same.filter((o) => o.metadata.namespace === namespace) : same,
      };
    },
  };
}

export interface PolicyVerdict {
  /** The API server's message when a Deny binding refuses the object. */
  readonly denied?: string;
  /** The `Warning`s a Warn binding returns. */
  readonly warnings: readonly string[];
}

/**
 * What the policies would do to `obj` if it were created now (it should be defaulted, as the API server's plugin
 * sees it, and carry its namespace). Kinds the sandbox does not serve are not checked.
 */
export function checkAgainstPolicies(source: PolicySource, obj: KubeObject): PolicyVerdict {
  const resource = resourceFor(obj.apiVersion, obj.kind);
  if (!resource) return { warnings: [] };
  const name = obj.metadata.name ?? '';
  const outcome = evaluatePolicies(source, {
    operation: 'CREATE',
    resource,
    subresource: '',
    name,
    namespace: resource.namespaced ? (obj.metadata.namespace ?? 'default') : '',
    object: obj,
    dryRun: false,
  });
  const subject = name === '' ? qualifiedResource(resource) : `${qualifiedResource(resource)} "${name}"`;
  return {
    denied: outcome.denied && `${subject} is forbidden: ${denialMessage(outcome.denied)}`,
    warnings: outcome.warnings,
  };
}
