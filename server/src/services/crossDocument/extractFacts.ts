/**
 * A parsed manifest → the {@link ObjectFacts} the cross-document checks use,
 * with ranges into its file. Must run before single-document validation,
 * which applies defaults to the manifest's object in place.
 */
import type { LineCounter } from 'yaml';
import type { KubeObject } from '../../../../sandbox/api/types';
import { parseApiVersion } from '../../../../sandbox/api/types';
import { isKubectlList, listItems } from '../listItems';
import type { ManifestDocument } from '../parseManifests';
import { fieldRange } from '../../../../sandbox/manifests/pathToRange';
import type { Range } from 'vscode-languageserver-types';
import { builtInGroups } from '../../schema/schema';
import { MAX_FIELD_RANGES, fieldPathKey, keyOnly } from './facts';
import type { ObjectFacts, ScaleTargetReference, ServiceSelector } from './facts';
import { podReferences } from './podReferences';
import { at, podSelectorTerms, podTemplates, stringMap } from './podTemplates';

/** The facts of a manifest: one object, or one per item of a kubectl `List`. */
export function extractFacts(m: ManifestDocument, lc: LineCounter): ObjectFacts[] {
  if (isKubectlList(m)) return listItems(m).flatMap((item) => extractFacts(item, lc));
  const { apiVersion, kind, object } = m;
  const group = parseApiVersion(apiVersion).group;
  const metadata = at(object, 'metadata') ?? {};
  const templates = podTemplates(group, kind, object);
  // Built field by field in the order the fields are listed (fieldRanges only for custom resources): the same object
  // as one literal with a spread for fieldRanges, which took the literal off V8's fast path for every document.
  const facts: Mutable<ObjectFacts> = {
    apiVersion,
    kind,
    group,
    name: nonEmptyString(metadata.name),
    namespace: nonEmptyString(metadata.namespace),
    nameRange: fieldRange(m.root, 'metadata.name', lc),
    kindRange: fieldRange(m.root, 'kind', lc),
  } as Mutable<ObjectFacts>;
  if (!builtInGroups().has(group)) facts.fieldRanges = fieldRanges(m, lc);
  facts.labels = stringMap(metadata.labels);
  facts.podTemplateLabels = templates.map((t) => t.labels);
  facts.serviceSelector = group === '' && kind === 'Service' ? serviceSelector(m, lc) : undefined;
  facts.podSelectorTerms = templates
    .flatMap((t) => podSelectorTerms(t.spec, t.specPath, nonEmptyString(metadata.namespace)))
    .map((t) => ({ ...t, range: fieldRange(m.root, t.field, lc) }));
  facts.references = templates
    .flatMap((t) => podReferences(t.spec, t.specPath, t.replacedVolumes))
    .map((r) => ({ ...r, range: fieldRange(m.root, r.field, lc) }));
  facts.scaleTarget = kind === 'HorizontalPodAutoscaler' && group === 'autoscaling' ? scaleTarget(m, lc) : undefined;
  facts.object = object as unknown as KubeObject;
  return [facts];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A non-empty selector of a Service that selects pods (ExternalName Services select nothing). */
function serviceSelector(m: ManifestDocument, lc: LineCounter): ServiceSelector | undefined {
  const spec = at(m.object, 'spec');
  if (spec === undefined || spec.type === 'ExternalName') return undefined;
  const labels = stringMap(spec.selector);
  if (Object.keys(labels).length === 0) return undefined;
  return { labels, range: fieldRange(m.root, 'spec.selector', lc) };
}

function scaleTarget(m: ManifestDocument, lc: LineCounter): ScaleTargetReference | undefined {
  const ref = at(m.object, 'spec', 'scaleTargetRef');
  if (ref === undefined) return undefined;
  const { apiVersion, kind, name } = ref;
  if (typeof kind !== 'string' || typeof name !== 'string' || name === '') return undefined;
  return {
    apiVersion: typeof apiVersion === 'string' ? apiVersion : '',
    kind,
    name,
    range: fieldRange(m.root, 'spec.scaleTargetRef.name', lc),
  };
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Every key and index of a custom resource's source with its range (the root, `''`, too), depth first; undefined
 * when there are more than {@link MAX_FIELD_RANGES}.
 */
function fieldRanges(m: ManifestDocument, lc: LineCounter): ReadonlyMap<string, Range> | undefined {
  const out = new Map<string, Range>();
  const stack: { path: (string | number)[]; value: unknown }[] = [{ path: [], value: m.object }];
  while (stack.length > 0) {
    const { path, value } = stack.pop()!;
    if (out.size >= MAX_FIELD_RANGES) return undefined;
    const key = fieldPathKey(path.map(String));
    const range = fieldRange(m.root, path, lc);
    out.set(key, range);
    // A map key's own range, where the value's differs (an unknown field is marked at its key).
    if (typeof path[path.length - 1] === 'string') {
      const keyRange = fieldRange(m.root, path, lc, { part: 'key' });
      if (!sameStart(keyRange, range)) out.set(keyOnly(key), keyRange);
    }
    if (Array.isArray(value)) value.forEach((v, i) => stack.push({ path: [...path, i], value: v }));
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) stack.push({ path: [...path, k], value: v });
  }
  return out;
}

function sameStart(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character;
}
