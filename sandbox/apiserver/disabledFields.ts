/**
 * Pod fields of features whose gate is off by default in the served release: the API server clears them on create,
 * and on update unless the old object already used them (upstream pkg/api/pod/util.go `dropDisabledPodFields`, run by
 * the pod and workload strategies' PrepareForCreate / PrepareForUpdate through `DropDisabledPodFields` and
 * `DropDisabledTemplateFields`). No error and no warning: `kubectl apply` succeeds and the object simply lacks them,
 * which is what the documentation's examples of newer features meet on a 1.32 cluster.
 */
import { podSpecOf } from '../admission/podSpecs';
import type { KubeObject } from '../api/types';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** The minor release number of `1.32`, or undefined for a version this does not read. */
function minorOf(version: string): number | undefined {
  const m = /^1\.(\d+)/.exec(version);
  return m ? Number(m[1]) : undefined;
}

/**
 * The gated pod fields: the release that added the field, and the first release whose default turns the gate on
 * (upstream pkg/features/kube_features.go): PodLevelResources alpha in 1.32–1.33, beta and on in 1.34; ImageVolume
 * alpha in 1.31–1.32, beta but off in 1.33–1.34; ClusterTrustBundleProjection alpha from 1.29, then beta off by
 * default, through 1.34; InPlacePodVerticalScaling alpha in 1.27–1.32, beta and on in 1.33. A release without the
 * field rejects it as an unknown field already.
 */
const GATES = {
  podLevelResources: { gate: 'PodLevelResources', since: 32, on: 34 },
  imageVolume: { gate: 'ImageVolume', since: 31, on: 35 },
  clusterTrustBundle: { gate: 'ClusterTrustBundleProjection', since: 29, on: 35 },
  resizePolicy: { gate: 'InPlacePodVerticalScaling', since: 27, on: 33 },
} as const;

function gateOff(g: { since: number; on: number }, minor: number): boolean {
  return minor >= g.since && minor < g.on;
}

/** A field `dropDisabledPodFields` clears, for the editor's warning: its path, its gate, and what is lost. */
export interface DroppedField {
  readonly path: readonly (string | number)[];
  readonly gate: string;
  readonly what: string;
}

/** The fields of `obj`'s pod spec that `version`'s API server drops on create (none for an unreadable version). */
export function droppedPodFields(obj: KubeObject, version: string): DroppedField[] {
  const minor = minorOf(version);
  const at = podSpecOf(obj);
  if (minor === undefined || at === undefined) return [];
  const base = at.path.split('.');
  const spec = at.spec as Obj;
  const out: DroppedField[] = [];
  if (gateOff(GATES.podLevelResources, minor) && spec.resources !== undefined && spec.resources !== null)
    out.push({ path: [...base, 'resources'], gate: GATES.podLevelResources.gate, what: 'pod-level resources' });
  if (gateOff(GATES.resizePolicy, minor))
    (Array.isArray(spec.containers) ? spec.containers : []).forEach((c, i) => {
      if (isObj(c) && c.resizePolicy !== undefined && c.resizePolicy !== null)
        out.push({
          path: [...base, 'containers', i, 'resizePolicy'],
          gate: GATES.resizePolicy.gate,
          what: "the container's resize policy",
        });
    });
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  volumes.forEach((v, i) => {
    if (!isObj(v)) return;
    if (gateOff(GATES.imageVolume, minor) && v.image !== undefined && v.image !== null)
      out.push({
        path: [...base, 'volumes', i, 'image'],
        gate: GATES.imageVolume.gate,
        what: 'this volume and its mounts',
      });
    if (!gateOff(GATES.clusterTrustBundle, minor) || !isObj(v.projected)) return;
    const sources = Array.isArray(v.projected.sources) ? v.projected.sources : [];
    sources.forEach((src, j) => {
      if (isObj(src) && src.clusterTrustBundle !== undefined && src.clusterTrustBundle !== null)
        out.push({
          path: [...base, 'volumes', i, 'projected', 'sources', j, 'clusterTrustBundle'],
          gate: GATES.clusterTrustBundle.gate,
          what: 'this projected source',
        });
    });
  });
  return out;
}

function hasImageVolume(spec: Obj | undefined): boolean {
  return objects(spec?.volumes).some((v) => v.image !== undefined && v.image !== null);
}

function hasClusterTrustBundle(spec: Obj | undefined): boolean {
  return objects(spec?.volumes).some((v) =>
    objects(isObj(v.projected) ? v.projected.sources : undefined).some(
      (s) => s.clusterTrustBundle !== undefined && s.clusterTrustBundle !== null,
    ),
  );
}

/** upstream `inPlacePodVerticalScalingInUse`: a regular container has a resize policy. */
function hasResizePolicy(spec: Obj | undefined): boolean {
  return objects(spec?.containers).some((c) => Array.isArray(c.resizePolicy) && c.resizePolicy.length > 0);
}

/** upstream `dropImageVolumes`: the image volumes go, and every container's mounts of them. */
function dropImageVolumes(spec: Obj): void {
  const names = new Set<string>();
  const kept = objects(spec.volumes).filter((v) => {
    if (v.image === undefined || v.image === null) return true;
    if (typeof v.name === 'string') names.add(v.name);
    return false;
  });
  if (kept.length > 0) spec.volumes = kept;
  else delete spec.volumes;
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of objects(spec[key])) {
      if (!Array.isArray(c.volumeMounts)) continue;
      const mounts = objects(c.volumeMounts).filter((m) => !(typeof m.name === 'string' && names.has(m.name)));
      if (mounts.length > 0) c.volumeMounts = mounts;
      else delete c.volumeMounts;
    }
  }
}

/** upstream `dropDisabledClusterTrustBundleProjection`: each projected source's `clusterTrustBundle` is cleared. */
function dropClusterTrustBundles(spec: Obj): void {
  for (const v of objects(spec.volumes)) {
    if (!isObj(v.projected)) continue;
    for (const s of objects(v.projected.sources)) delete s.clusterTrustBundle;
  }
}

/** Clears, in place, the fields `version`'s API server drops from `obj`'s pod spec (`old`: the stored object). */
export function dropDisabledPodFields(obj: KubeObject, version: string, old?: KubeObject): void {
  const minor = minorOf(version);
  if (minor === undefined) return;
  const at = podSpecOf(obj);
  if (at === undefined) return;
  const spec = at.spec as Obj;
  const oldSpec = old === undefined ? undefined : (podSpecOf(old)?.spec as Obj | undefined);
  // upstream `dropPodLevelResources`
  if (
    gateOff(GATES.podLevelResources, minor) &&
    spec.resources !== undefined &&
    (oldSpec?.resources ?? undefined) === undefined
  )
    delete spec.resources;
  if (gateOff(GATES.imageVolume, minor) && hasImageVolume(spec) && !hasImageVolume(oldSpec)) dropImageVolumes(spec);
  if (gateOff(GATES.clusterTrustBundle, minor) && hasClusterTrustBundle(spec) && !hasClusterTrustBundle(oldSpec))
    dropClusterTrustBundles(spec);
  // upstream: dropDisabledFields clears each container's ResizePolicy while InPlacePodVerticalScaling is off
  if (gateOff(GATES.resizePolicy, minor) && !hasResizePolicy(oldSpec))
    for (const c of objects(spec.containers)) delete c.resizePolicy;
}
