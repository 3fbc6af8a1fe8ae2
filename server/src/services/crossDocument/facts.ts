/**
 * What the cross-document checks need to know about each Kubernetes object:
 * small plain data (no YAML nodes), so that a workspace index can keep it for
 * every file without keeping every syntax tree. Ranges are LSP ranges in the
 * object's own file.
 */
import type { Range } from 'vscode-languageserver-types';
import type { KubeObject } from '../../../../sandbox/api/types';

/** The kinds of object a pod spec refers to by name. */
export type ReferencedKind = 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim' | 'ServiceAccount';

/** A name in a pod spec that must resolve to an object in the pod's namespace. */
export interface ObjectReference {
  readonly kind: ReferencedKind;
  readonly name: string;
  /** The range of the name value. */
  readonly range: Range;
  /** The field that holds the name, in upstream notation: `spec.template.spec.volumes[0].configMap.name`. */
  readonly field: string;
}

/** `spec.scaleTargetRef` of a HorizontalPodAutoscaler. */
export interface ScaleTargetReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly range: Range;
}

/** A Service's `spec.selector` (equality only: Services have no set-based selectors). */
export interface ServiceSelector {
  readonly labels: Readonly<Record<string, string>>;
  readonly range: Range;
}

/**
 * A label selector in a pod template that selects other pods: a required or preferred pod (anti-)affinity term's, or
 * a topology spread constraint's.
 */
export interface PodSelectorTerm {
  /** How messages name it: `pod anti-affinity term`, `pod affinity term`, `topology spread constraint`. */
  readonly what: string;
  /** The field of the selector, in upstream notation. */
  readonly field: string;
  /** The selector as written (`matchLabels`, `matchExpressions`). */
  readonly selector: Readonly<Record<string, unknown>>;
  /** Whether it may select pods of other namespaces (`namespaces` naming another, or a `namespaceSelector`). */
  readonly otherNamespaces: boolean;
  readonly range: Range;
}

export interface ObjectFacts {
  readonly apiVersion: string;
  readonly kind: string;
  /** The API group of `apiVersion` (`apps`; `` for core): objects are the same object across versions. */
  readonly group: string;
  /** `metadata.name`; undefined when absent (say, only `generateName`). */
  readonly name: string | undefined;
  /** `metadata.namespace` as written; undefined when absent. */
  readonly namespace: string | undefined;
  /** The range of the `metadata.name` value, or of the nearest key that exists. */
  readonly nameRange: Range;
  /** The range of the `kind` value (where a kind's own diagnostics sit). */
  readonly kindRange: Range;
  /**
   * A custom resource's (a kind of no built-in group) ranges by field path, so that its schema's and rules'
   * errors sit at the exact key or value: {@link fieldPathKey} of each key and index in the source → its range as
   * `fieldRange` gives it (and, at {@link keyOnly}, a key's own range where it differs). Undefined for built-in
   * kinds, and beyond {@link MAX_FIELD_RANGES} fields.
   */
  readonly fieldRanges?: ReadonlyMap<string, Range>;
  /** `metadata.labels` (string values only). */
  readonly labels: Readonly<Record<string, string>>;
  /** Labels of each pod the object creates: a workload's pod template, or a bare Pod's own labels. */
  readonly podTemplateLabels: readonly Readonly<Record<string, string>>[];
  readonly serviceSelector: ServiceSelector | undefined;
  /** The pod-selecting label selectors of its pod templates (affinity, anti-affinity, topology spread). */
  readonly podSelectorTerms: readonly PodSelectorTerm[];
  readonly references: readonly ObjectReference[];
  readonly scaleTarget: ScaleTargetReference | undefined;
  /**
   * The document itself, as admission leaves it (defaulted in place by single-document validation): the one fact
   * that is not small, kept because a ValidatingAdmissionPolicy may read any field of any object.
   */
  readonly object: KubeObject;
}

/** The objects of one file, in source order, with the name used for the file in messages. */
export interface FileFacts {
  readonly uri: string;
  /** The file as messages name it: a path relative to its workspace folder, or its base name. */
  readonly display: string;
  readonly objects: readonly ObjectFacts[];
}

/** At most this many fields of one custom resource keep their ranges (a larger one marks its name). */
export const MAX_FIELD_RANGES = 5000;

/** The map key of a field path's segments (keys and indices alike, as upstream prints both in brackets). */
export function fieldPathKey(segments: readonly string[]): string {
  return segments.join('\u0000');
}

/** The {@link ObjectFacts.fieldRanges} key of a map key's own range (kept only where it differs from the value's). */
export function keyOnly(pathKey: string): string {
  return `${pathKey}\u0001key`;
}
