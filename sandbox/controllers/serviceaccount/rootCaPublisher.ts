/**
 * The root CA certificate publisher (upstream: pkg/controller/certificates/rootcacertpublisher/publisher.go,
 * `syncNamespace`): every active namespace holds the ConfigMap `kube-root-ca.crt` with the cluster's CA bundle
 * under `ca.crt` — what the projected `kube-api-access-…` volume of every pod mounts — recreated when deleted and
 * restored when edited. The sandbox's CA is a fixed placeholder PEM (no TLS is spoken inside the sandbox).
 */
import { isApiError } from '../../api/errors';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';
import { enqueueMapped } from '../framework/handlers';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the ' +
  'internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes ' +
  'clusters.';

/** A placeholder bundle: the shape of a PEM certificate, no real key material. */
export const SANDBOX_CA_PEM =
  '-----BEGIN CERTIFICATE-----\n' +
  'S3ViZSBSZWNvbmNpbGUgc2FuZGJveCBjbHVzdGVyIENBIChwbGFjZWhvbGRlciwgbm8ga2V5KQ==\n' +
  '-----END CERTIFICATE-----\n';

export class RootCaPublisher extends Controller {
  private namespaces!: Informer<ObjectsByResource['namespaces']>;
  private configMaps!: Informer<ObjectsByResource['configmaps']>;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'root-ca-cert-publisher' });
  }

  /** Namespaces on add and update; the ConfigMap on update and delete (`configMapUpdated`, `configMapDeleted`). */
  protected watch(w: Watches): void {
    this.namespaces = w.watch(
      'namespaces',
      enqueueMapped((ns) => ns.metadata.name, { events: ['add', 'update'] }),
    );
    this.configMaps = w.watch(
      'configmaps',
      enqueueMapped((cm) => (cm.metadata.name === ROOT_CA_CONFIGMAP ? cm.metadata.namespace : undefined), {
        events: ['update', 'delete'],
      }),
    );
  }

  protected reconcile(name: string): ReconcileResult {
    const ns = this.namespaces.cache.get(name);
    if (!ns || ns.metadata.deletionTimestamp || ns.status?.phase !== 'Active') return;
    const cm = this.configMaps.cache.get(`${name}/${ROOT_CA_CONFIGMAP}`);
    try {
      if (!cm) {
        this.ctx.api.create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: ROOT_CA_CONFIGMAP,
            namespace: name,
            annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION },
          },
          data: { 'ca.crt': SANDBOX_CA_PEM },
        });
        return;
      }
      const data = cm.data ?? {};
      const sameData = Object.keys(data).length === 1 && data['ca.crt'] === SANDBOX_CA_PEM;
      if (sameData && cm.metadata.annotations?.[DESCRIPTION_ANNOTATION] === DESCRIPTION) return;
      this.ctx.api.update({
        ...cm,
        metadata: {
          ...cm.metadata,
          annotations: { ...cm.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION },
        },
        data: { 'ca.crt': SANDBOX_CA_PEM },
      });
    } catch (e) {
      if (isApiError(e, 409) || isApiError(e, 403) || isApiError(e, 404)) return;
      throw e;
    }
  }
}
