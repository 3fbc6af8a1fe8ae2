/**
 * The resources kube-apiserver answers without storing anything: the reviews (`TokenReview`,
 * `SelfSubjectReview`, `SubjectAccessReview` and friends — created, answered, never stored), `bindings` (the
 * namespaced spelling of `pods/binding`), and `componentstatuses` (computed when read). Each answer says what the
 * sandbox really does: one user with every permission, no RBAC enforcement, no service account tokens.
 *
 * upstream: pkg/registry/authentication/{tokenreview,selfsubjectreview}, pkg/registry/authorization/*,
 * pkg/registry/core/pod/storage (BindingREST), pkg/registry/core/componentstatus.
 */
import { badRequest } from '../api/errors';
import type { ResourceType } from '../api/resources';
import { apiVersionOf } from '../api/resources';
import type { KubeList, KubeObject } from '../api/types';
import type { WriteOptions } from './options';
/** What `bindings` needs of the API server: the `pods/binding` verb. */
interface Binder {
  bind(namespace: string, name: string, nodeName: string, options: WriteOptions & { uid?: string }): unknown;
}

const ALLOWED_REASON = 'the sandbox does not enforce RBAC: every request is allowed';

/** The user the sandbox's bearer token authenticates (kubeconfig user `kube-reconcile`), an administrator. */
export const SANDBOX_USER = { username: 'kube-reconcile', groups: ['system:masters', 'system:authenticated'] };

function answer(r: ResourceType, body: KubeObject, status: Record<string, unknown>): KubeObject {
  return {
    kind: r.kind,
    apiVersion: apiVersionOf(r),
    metadata: { ...(body.metadata.name ? { name: body.metadata.name } : {}) },
    ...(body.spec !== undefined ? { spec: body.spec } : {}),
    status,
  };
}

/** POST on a create-only resource: the answer, nothing stored. */
export function virtualCreate(api: Binder, r: ResourceType, body: KubeObject, options: WriteOptions): KubeObject {
  switch (r.kind) {
    case 'Binding': {
      const target = (body as { target?: { name?: string } }).target;
      const ns = body.metadata.namespace ?? options.namespace ?? 'default';
      if (!body.metadata.name) throw badRequest('name is required');
      api.bind(ns, body.metadata.name, target?.name ?? '', { dryRun: options.dryRun, uid: body.metadata.uid });
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KubeObject;
    }
    case 'SelfSubjectReview':
      return answer(r, body, { userInfo: SANDBOX_USER });
    case 'TokenReview':
      return answer(r, body, {
        authenticated: false,
        user: {},
        error: 'the sandbox issues no tokens to review: only its own bearer token authenticates',
      });
    case 'SelfSubjectAccessReview':
    case 'SubjectAccessReview':
    case 'LocalSubjectAccessReview':
      return answer(r, body, { allowed: true, reason: ALLOWED_REASON });
    case 'SelfSubjectRulesReview':
      return answer(r, body, {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
        evaluationError: ALLOWED_REASON,
      });
    default:
      throw badRequest(`${r.kind} cannot be created in this sandbox`);
  }
}

/** GET of a computed resource: the control plane's components, all healthy (they run in this process). */
export function virtualList(r: ResourceType): KubeList {
  const items: KubeObject[] =
    r.kind === 'ComponentStatus'
      ? ['controller-manager', 'etcd-0', 'scheduler'].map((name) => ({
          kind: 'ComponentStatus',
          apiVersion: 'v1',
          metadata: { name },
          conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
        }))
      : [];
  return { kind: `${r.kind}List`, apiVersion: apiVersionOf(r), metadata: { resourceVersion: '' }, items } as KubeList;
}
