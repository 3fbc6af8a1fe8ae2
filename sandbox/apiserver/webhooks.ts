/**
 * Admission webhooks, as far as the sandbox can know their answer without running their servers (upstream:
 * apiserver/pkg/admission/plugin/webhook/{generic/webhook.go, validating/dispatcher.go, mutating/dispatcher.go}).
 *
 * A webhook whose rules, namespaceSelector and objectSelector match a write is called by a real API server at
 * `https://<service>.<namespace>.svc:<port><path>`. kube-apiserver resolves the Service to its ClusterIP
 * (aggregator `ResolveCluster`, the default without --enable-aggregator-routing) and dials it: with no Service the
 * dial fails with the lister's `service "x" not found`, and with no ready endpoint behind the ClusterIP kube-proxy
 * refuses the connection. Either way the call fails, and the webhook's failurePolicy decides: `Fail` (the default)
 * refuses the write with 500 `Internal error occurred: failed calling webhook …`, `Ignore` admits it. That is the
 * common first sight of ingress-nginx: an Ingress applied before the controller is Ready.
 *
 * A webhook that a real server would reach (a ready endpoint, or a `url`) runs code the sandbox does not have: the
 * write is admitted and a warning says the webhook was not called. So are webhooks with matchConditions (whether
 * they would be called is not decided here).
 */
import { internalError } from '../api/errors';
import type { KubeObject } from '../api/types';
import type { AdmissionAttributes } from '../admission/policy/matching';
import { matchesResources } from '../admission/policy/matching';
import type { MatchResources } from '../admission/policy/types';

/** What the webhooks read from the API server's store. */
export interface WebhookSource {
  configurations(phase: 'mutating' | 'validating'): readonly KubeObject[];
  service(namespace: string, name: string): KubeObject | undefined;
  endpoints(namespace: string, name: string): KubeObject | undefined;
  namespace(name: string): KubeObject | undefined;
}

interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

interface Webhook extends MatchResources {
  name?: string;
  clientConfig?: { url?: string; service?: ServiceReference };
  rules?: MatchResources['resourceRules'];
  failurePolicy?: string;
  timeoutSeconds?: number;
  matchConditions?: unknown[];
}

/**
 * upstream: admissionregistration `IsExemptAdmissionConfigurationResource` — webhooks are never called for the
 * admission configuration kinds themselves, so that a broken webhook cannot lock them.
 */
const EXEMPT = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

/** Why a call to the Service would fail, or undefined when a real API server would reach a webhook server. */
function unreachable(source: WebhookSource, ref: ServiceReference, port: number): string | undefined {
  const svc = source.service(ref.namespace ?? '', ref.name ?? '') as
    | (KubeObject & { spec?: { type?: string; clusterIP?: string; ports?: { port?: number }[] } })
    | undefined;
  if (svc === undefined) return `service "${ref.name ?? ''}" not found`;
  const spec = svc.spec ?? {};
  if (spec.type === 'ExternalName') return undefined;
  if (spec.clusterIP === 'None') return `cannot route to service with ClusterIP "None"`;
  // upstream: aggregator findServicePort
  if (!(spec.ports ?? []).some((p) => p.port === port))
    return `no service port ${port} found for service "${svc.metadata.name ?? ''}"`;
  const ep = source.endpoints(ref.namespace ?? '', ref.name ?? '') as
    | (KubeObject & { subsets?: { addresses?: unknown[] }[] })
    | undefined;
  const ready = (ep?.subsets ?? []).some((s) => (s.addresses ?? []).length > 0);
  // kube-proxy rejects connections to a ClusterIP with no ready endpoint.
  return ready ? undefined : `dial tcp ${spec.clusterIP ?? ''}:${port}: connect: connection refused`;
}

/**
 * The webhooks of one phase on one write: throws the first failing call of a `Fail` webhook, as upstream's
 * dispatcher returns it; warns of each matching webhook the sandbox would have had to call.
 */
export function admitWebhooks(
  source: WebhookSource,
  phase: 'mutating' | 'validating',
  a: AdmissionAttributes,
  warn: ((text: string) => void) | undefined,
): void {
  if (a.resource.group === 'admissionregistration.k8s.io' && EXEMPT.has(a.resource.plural)) return;
  const configurations = source.configurations(phase);
  if (configurations.length === 0) return;
  const nsLabels = (name: string): Readonly<Record<string, string>> | undefined =>
    source.namespace(name)?.metadata.labels;
  for (const config of configurations) {
    for (const hook of ((config as { webhooks?: Webhook[] }).webhooks ?? []) as Webhook[]) {
      const m: MatchResources = {
        resourceRules: hook.rules ?? [],
        namespaceSelector: hook.namespaceSelector,
        objectSelector: hook.objectSelector,
        matchPolicy: hook.matchPolicy,
      };
      if ((hook.rules ?? []).length === 0 || !matchesResources(m, a, nsLabels)) continue;
      const name = hook.name ?? '';
      const ref = hook.clientConfig?.service;
      const port = ref?.port ?? 443;
      const why =
        ref !== undefined && !(hook.matchConditions ?? []).length ? unreachable(source, ref, port) : undefined;
      if (why === undefined) {
        warn?.(
          `admission webhook "${name}" (${phase}) was not called: the sandbox does not run webhook servers; ` +
            `the request is admitted as if it allowed it`,
        );
        continue;
      }
      if (hook.failurePolicy === 'Ignore') continue;
      const url = `https://${ref!.name ?? ''}.${ref!.namespace ?? ''}.svc:${port}${ref!.path ?? ''}?timeout=${hook.timeoutSeconds ?? 10}s`;
      throw internalError(`failed calling webhook "${name}": failed to call webhook: Post "${url}": ${why}`);
    }
  }
}
