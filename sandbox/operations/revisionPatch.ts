/**
 * A StatefulSet's or DaemonSet's ControllerRevision data: the strategic merge
 * patch that puts its pod template back (`getPatch` of the StatefulSet and
 * DaemonSet controllers, `getStatefulSetPatch` and `getDaemonSetPatch` of
 * kubectl's rollback and history). Upstream marshals the object, reads it into
 * a `map[string]interface{}` and marshals that again, so the bytes are compact
 * JSON with every key sorted — `goJson` writes the same bytes from the same
 * value. Shared by the controllers (which write revisions) and kubectl's
 * `rollout history` and `rollout undo`.
 */
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import { goJson } from '../apiserver/goText';
import { cloneJson } from '../util/json';

/** The bytes upstream stores as `data.raw` for this value. */
export function revisionBytes(data: unknown): string {
  return goJson(data);
}

/**
 * The patch that restores `template` (`getPatch` of the StatefulSet and DaemonSet controllers and kubectl):
 * `{"spec":{"template":{…,"$patch":"replace"}}}`. The template is as Go encodes a `PodTemplateSpec`, whose
 * `metadata.creationTimestamp` is never omitted (`null` when unset).
 */
export function templatePatch(template: PodTemplateSpec | undefined): Record<string, unknown> {
  const t = cloneJson(template ?? {}) as Record<string, unknown> & { metadata?: Record<string, unknown> };
  const metadata = t.metadata ?? {};
  if (metadata.creationTimestamp === undefined) metadata.creationTimestamp = null;
  t.metadata = metadata;
  t.$patch = 'replace';
  return { spec: { template: t } };
}

/** The template a revision's patch restores (what `ApplyRevision` puts in `spec.template`). */
export function templateOfRevision(revision: ControllerRevision): PodTemplateSpec | undefined {
  const spec = (revision.data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec;
  if (!spec?.template) return undefined;
  const { $patch: _patch, ...template } = cloneJson(spec.template);
  const metadata = template.metadata as Record<string, unknown> | undefined;
  if (metadata && metadata.creationTimestamp === null) delete metadata.creationTimestamp;
  return template as PodTemplateSpec;
}
