/**
 * Desired (the saved manifest) against actual (the live object), field by
 * field. Fields the manifest leaves out but the API server fills in with its
 * defaults are `defaulted`, not drift: the desired side is defaulted with the
 * sandbox's own `applyDefaults` before comparing. Server-owned fields
 * (status, uid, resourceVersion, controller annotations…) are
 * `extra-by-server`.
 */
import { applyDefaults } from '../../../sandbox/admission/defaults';
import { deprecatedServiceAccount } from '../../../sandbox/admission/defaults/podSpec';
import { asAdmittedServiceAccount } from '../../../sandbox/admission/plugins/serviceAccount';
import { resourceFor } from '../../../sandbox/api/resources';
import type { JsonValue, KubeObject } from '../../../sandbox/api/types';
import { cloneJson, jsonEqual } from '../../../sandbox/util/json';
import { flatten, type Leaf, type PathSegment } from './flatten';
import { isServerManaged } from './serverFields';

/**
 * - `same`: declared and equal.
 * - `drift`: the live value differs from the declared one (or from the default for an undeclared field),
 *   or the live object has an extra element in a declared list.
 * - `defaulted`: not declared; the live value is the API server's default.
 * - `missing`: declared (or defaulted) but absent from the live object.
 * - `extra-by-server`: set by the server or controllers (status, uid, allocated IPs…).
 */
export type DiffKind = 'same' | 'drift' | 'defaulted' | 'missing' | 'extra-by-server';

export interface DiffEntry {
  path: string;
  /** The declared value, or the default for a `defaulted` field. */
  desired?: JsonValue;
  live?: JsonValue;
  kind: DiffKind;
}

/** UTF-8 then base64, as a Secret's `data` holds values (no Node Buffer: the webview's program reads this file). */
function utf8Base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * A Secret's write-only `stringData` merged into `data` (base64, `stringData` winning) and dropped, as the API server
 * stores it (sandbox/apiserver/prepare.ts mergeSecretStringData; upstream's v1 → internal conversion).
 */
function mergeStringData(secret: KubeObject): void {
  const stringData = secret.stringData;
  if (typeof stringData !== 'object' || stringData === null || Array.isArray(stringData)) return;
  const data: Record<string, unknown> =
    typeof secret.data === 'object' && secret.data !== null && !Array.isArray(secret.data) ? { ...secret.data } : {};
  for (const [k, v] of Object.entries(stringData)) if (typeof v === 'string') data[k] = utf8Base64(v);
  secret.data = data as JsonValue;
  delete secret.stringData;
}

/**
 * The manifest as the API server would store it: a copy with upstream defaults applied (and a Secret's write-only
 * `stringData` merged into `data`, as the API server does).
 */
export function defaultedManifest(manifest: KubeObject, live: KubeObject | undefined): KubeObject {
  const copy = cloneJson(manifest);
  const resource = resourceFor(copy.apiVersion, copy.kind);
  if (!resource) return copy;
  if (resource.kind === 'Secret' && resource.group === '') mergeStringData(copy);
  if (resource.namespaced && copy.metadata && !copy.metadata.namespace)
    copy.metadata.namespace = live?.metadata.namespace ?? 'default';
  applyDefaults(copy, resource);
  // A pod as the ServiceAccount admission plugin stored it: the account name and the kube-api-access volume.
  const spec = copy.spec;
  const liveSpec = live?.spec;
  if (resource.kind === 'Pod' && resource.group === '' && isRecord(spec) && isRecord(liveSpec)) {
    asAdmittedServiceAccount(spec, liveSpec);
    deprecatedServiceAccount(spec);
  }
  return copy;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when a live-only path sits in a list the manifest declares (the list grew: drift, not a server addition). */
function inDeclaredList(
  segments: readonly PathSegment[],
  declared: ReadonlySet<string>,
  leaves: ReadonlyMap<string, Leaf>,
): boolean {
  for (let i = segments.length - 1; i > 0; i--) {
    if (typeof segments[i] !== 'number') continue;
    const parent = segments.slice(0, i);
    const siblingDeclared = [...leaves.values()].some((l) => declared.has(l.path) && startsWith(l.segments, parent));
    if (siblingDeclared) return true;
  }
  return false;
}

function startsWith(segments: readonly PathSegment[], prefix: readonly PathSegment[]): boolean {
  return prefix.length <= segments.length && prefix.every((s, i) => segments[i] === s);
}

function classifyDesired(
  path: string,
  segments: PathSegment[],
  value: JsonValue,
  declared: boolean,
  live: Leaf | undefined,
): DiffEntry {
  if (isServerManaged(segments))
    return live
      ? { path, desired: value, live: live.value, kind: 'extra-by-server' }
      : { path, desired: value, kind: 'extra-by-server' };
  if (!live) return { path, desired: value, kind: 'missing' };
  if (jsonEqual(value, live.value))
    return { path, desired: value, live: live.value, kind: declared ? 'same' : 'defaulted' };
  return { path, desired: value, live: live.value, kind: 'drift' };
}

/**
 * Every leaf of the defaulted manifest and of the live object, classified.
 * Declared and defaulted fields come first in manifest order, then live-only fields in live order.
 */
export function diffObjects(manifest: KubeObject, live: KubeObject | undefined): DiffEntry[] {
  const declared = new Set(flatten(manifest).map((l) => l.path));
  const desiredLeaves = new Map(flatten(defaultedManifest(manifest, live)).map((l) => [l.path, l]));
  const liveLeaves = new Map(flatten(live).map((l) => [l.path, l]));
  const out: DiffEntry[] = [];
  for (const d of desiredLeaves.values())
    out.push(classifyDesired(d.path, d.segments, d.value, declared.has(d.path), liveLeaves.get(d.path)));
  for (const l of liveLeaves.values()) {
    if (desiredLeaves.has(l.path)) continue;
    const grew = !isServerManaged(l.segments) && inDeclaredList(l.segments, declared, desiredLeaves);
    out.push({ path: l.path, live: l.value, kind: grew ? 'drift' : 'extra-by-server' });
  }
  return out;
}

/** Only the entries that need a reader's attention: drift and missing fields. */
export function differences(entries: readonly DiffEntry[]): DiffEntry[] {
  return entries.filter((e) => e.kind === 'drift' || e.kind === 'missing');
}
