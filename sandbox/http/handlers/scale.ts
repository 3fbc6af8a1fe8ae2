/**
 * The `/scale` subresource of Deployments, ReplicaSets and StatefulSets: an
 * `autoscaling/v1` Scale (spec.replicas; status.replicas and the selector as a
 * string) read from the parent; PUT and PATCH write `spec.replicas` back to
 * the parent, with the Scale's resourceVersion as the precondition.
 */
import { badRequest, invalid, resourceNotFound } from '../../api/errors';
import { applyPatch } from '../../api/patch/index';
import { formatLabelSelector } from '../../api/selectors/labelSelector';
import type { LabelSelector } from '../../api/selectors/labelSelector';
import type { ResourceType } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import { decodePatchBody } from '../body';
import type { RequestContext } from '../context';
import { dryRunParam, updateManager } from '../query';
import { checkName, decodeTyped } from './decode';

const SCALE = { apiVersion: 'autoscaling/v1', kind: 'Scale' } as const;
/** How 422s on a Scale name it (`Scale.autoscaling "web" is invalid: …`). */
const SCALE_RESOURCE: ResourceType = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
  plural: 'scale',
  singular: 'scale',
  namespaced: true,
  shortNames: [],
  categories: [],
  statusSubresource: false,
  scaleSubresource: false,
  hasGeneration: false,
};

interface Spec {
  replicas?: number;
  selector?: LabelSelector;
}

/** The Scale of a parent object, as upstream's scaleFromDeployment builds it. */
export function scaleOf(parent: KubeObject): KubeObject {
  const spec = (parent.spec ?? {}) as Spec;
  const status = (parent.status ?? {}) as { replicas?: number };
  const m = parent.metadata;
  const selector = formatLabelSelector(spec.selector);
  const scale: KubeObject = {
    kind: SCALE.kind,
    apiVersion: SCALE.apiVersion,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: spec.replicas ? { replicas: spec.replicas } : {},
    status: {
      replicas: status.replicas ?? 0,
      ...(selector === '<none>' || selector === '<error>' ? {} : { selector }),
    },
  };
  return scale;
}

function parentOf(ctx: RequestContext): KubeObject {
  const { resource, namespace, name } = ctx.info;
  if (!resource.scaleSubresource) throw resourceNotFound();
  return ctx.api.get(resource, namespace, name!);
}

export function getScale(ctx: RequestContext): void {
  ctx.send(200, scaleOf(parentOf(ctx)));
}

/** Writes a Scale's spec.replicas to the parent; 409 when its resourceVersion is stale. */
function writeScale(ctx: RequestContext, parent: KubeObject, scale: KubeObject): void {
  const replicas = (scale.spec as Spec | undefined)?.replicas ?? 0;
  const name = parent.metadata.name!;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    throw badRequest(
      `Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`,
    );
  }
  if (replicas < 0)
    throw invalid(SCALE_RESOURCE, name, [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: `Invalid value: ${replicas}: must be greater than or equal to 0`,
      },
    ]);
  const rv = scale.metadata?.resourceVersion || parent.metadata.resourceVersion;
  const next = {
    ...parent,
    metadata: { ...parent.metadata, resourceVersion: rv },
    spec: { ...(parent.spec as object), replicas },
  };
  const updated = ctx.api.update(next, {
    dryRun: dryRunParam(ctx.query, 'UpdateOptions'),
    namespace: parent.metadata.namespace,
    fieldManager: updateManager(ctx.query, 'UpdateOptions', ctx.clientKey),
  });
  ctx.send(200, scaleOf(updated));
}

export async function updateScale(ctx: RequestContext): Promise<void> {
  const parent = parentOf(ctx);
  const scale = await decodeTyped(ctx, SCALE);
  checkName(scale, ctx.info.name!, ctx.info.namespace);
  writeScale(ctx, parent, scale);
}

export async function patchScale(ctx: RequestContext): Promise<void> {
  const parent = parentOf(ctx);
  const { type, patch } = decodePatchBody(await ctx.body(), ctx.req.headers['content-type']);
  // An apply of a Scale can only own spec.replicas: it merges like a merge patch.
  const patched = applyPatch(type === 'apply' ? 'merge' : type, scaleOf(parent), patch) as KubeObject;
  writeScale(ctx, parent, patched);
}
