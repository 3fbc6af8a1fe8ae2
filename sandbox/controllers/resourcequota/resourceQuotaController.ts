/**
 * The resource quota controller (upstream: pkg/controller/resourcequota/resource_quota_controller.go,
 * `syncResourceQuota`): keeps each ResourceQuota's `status.hard` equal to its `spec.hard` and `status.used` equal to
 * what the namespace's objects use (sandbox/admission/plugins/resourceQuota.ts `computeQuotaUsed`), so usage
 * admitted at creation is released when objects go or pods finish. Works per namespace: any change of a quota'd kind
 * in a namespace recomputes that namespace's quotas. Kinds counted with `count/<resource>.<group>` that it does not
 * watch are read when it recomputes (upstream watches them through its quota monitors and resyncs every 5 minutes).
 */
import { computeQuotaUsed } from '../../admission/plugins/resourceQuota';
import type { ObjectsByResource } from '../../api/resourceObjects';
import { resourceByName } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { jsonEqual } from '../../util/json';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';
import { enqueueMapped } from '../framework/handlers';

/** The core kinds whose changes the controller follows. */
const WATCHED = [
  'pods',
  'services',
  'configmaps',
  'secrets',
  'persistentvolumeclaims',
] as const satisfies readonly (keyof ObjectsByResource)[];

export class ResourceQuotaController extends Controller {
  private quotas!: Informer<ObjectsByResource['resourcequotas']>;
  private readonly watched = new Map<string, Informer<KubeObject>>();

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'resourcequota-controller' });
  }

  protected watch(w: Watches): void {
    const byNamespace = enqueueMapped((o: KubeObject) => o.metadata.namespace);
    this.quotas = w.watch('resourcequotas', byNamespace);
    for (const plural of WATCHED) this.watched.set(plural, w.watch(plural, byNamespace) as Informer<KubeObject>);
  }

  /** `syncResourceQuota` for every quota of the namespace. */
  protected reconcile(namespace: string): ReconcileResult {
    for (const quota of this.quotas.cache.list(namespace)) {
      if (quota.metadata.deletionTimestamp) continue;
      const used = computeQuotaUsed(quota, (plural, group) => this.objects(namespace, plural, group));
      const hard = { ...(quota.spec?.hard ?? {}) };
      const status = quota.status ?? {};
      if (jsonEqual(status.hard ?? {}, hard) && jsonEqual(status.used ?? {}, used)) continue;
      this.ctx.api.updateStatus({ ...quota, status: { ...status, hard, used } });
    }
  }

  private objects(namespace: string, plural: string, group: string): readonly KubeObject[] {
    const cached = group === '' ? this.watched.get(plural) : undefined;
    if (cached) return cached.cache.list(namespace);
    const r = resourceByName(group === '' ? plural : `${plural}.${group}`);
    if (!r || r.plural !== plural || r.group !== group || !r.namespaced) return [];
    return this.ctx.api.list(r, { namespace }).items;
  }
}
