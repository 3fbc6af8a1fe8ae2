/**
 * The one-method interface every cross-document rule implements, and the
 * context they share: every object of one scope (a workspace folder, or a
 * single file outside any folder) with the namespace it lands in.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { KubeObject } from '../../../../sandbox/api/types';
import type { FileFacts, ObjectFacts } from './facts';
import { effectiveNamespace } from './scope';

/** An object with its file and the namespace it is created in (`` for cluster-scoped kinds). */
export interface LocatedObject {
  readonly file: FileFacts;
  readonly facts: ObjectFacts;
  readonly namespace: string;
}

export interface CrossDocumentContext {
  /** Every object in scope, files in the order given, objects in source order. */
  readonly objects: readonly LocatedObject[];
  /** How messages name the scope: `this workspace folder` or `this file`. */
  readonly scopeName: string;
  /**
   * CustomResourceDefinitions from outside the scope (the `kubeReconcile.crdFolders` catalogue, the running
   * sandbox's), serving after the scope's own: customSchema/externalCrds.ts.
   */
  readonly externalCrds: readonly KubeObject[];
}

/** A diagnostic for one file of the scope. */
export interface FileDiagnostic {
  readonly uri: string;
  readonly diagnostic: Diagnostic;
}

/** One cross-document rule: a stable code and a pure check over the whole scope. */
export interface CrossDocumentRule {
  readonly code: string;
  check(ctx: CrossDocumentContext): FileDiagnostic[];
}

/** The context for `files`. */
export function buildContext(
  files: readonly FileFacts[],
  scopeName: string,
  externalCrds: readonly KubeObject[] = [],
): CrossDocumentContext {
  const objects: LocatedObject[] = [];
  for (const file of files) {
    for (const facts of file.objects) {
      objects.push({
        file,
        facts,
        namespace: effectiveNamespace(facts.apiVersion, facts.group, facts.kind, facts.namespace),
      });
    }
  }
  return { objects, scopeName, externalCrds };
}

/** The identity of an object on the API server: the same key twice is the same object. */
export function objectKey(group: string, kind: string, namespace: string, name: string): string {
  // The lengths of the first three fields, then the four: one key per identity (the lengths say where each field
  // ends), cheaper than JSON of the four; anything not a string (which the types rule out) takes the JSON form,
  // which starts with `[` and so never equals a key of the first form, which starts with a digit.
  if (
    typeof group === 'string' &&
    typeof kind === 'string' &&
    typeof namespace === 'string' &&
    typeof name === 'string'
  )
    return `${group.length}/${kind.length}/${namespace.length}/${group}${kind}${namespace}${name}`;
  return JSON.stringify([group, kind, namespace, name]);
}

/** `in namespace "default"`, or nothing for cluster-scoped objects. */
export function inNamespace(namespace: string): string {
  return namespace === '' ? '' : ` in namespace "${namespace}"`;
}

/** The labels of every pod template in the scope (Deployments', Jobs', bare Pods'…), by namespace. */
export function podTemplateLabelsByNamespace(
  ctx: CrossDocumentContext,
): Map<string, Readonly<Record<string, string>>[]> {
  const byNamespace = new Map<string, Readonly<Record<string, string>>[]>();
  for (const o of ctx.objects) {
    if (o.facts.podTemplateLabels.length === 0) continue;
    const list = byNamespace.get(o.namespace) ?? [];
    list.push(...o.facts.podTemplateLabels);
    byNamespace.set(o.namespace, list);
  }
  return byNamespace;
}

/**
 * The pod templates' labels of one namespace, indexed by label: a selector with a `key=value` requirement can only
 * match the templates carrying that label, so matching looks at those instead of every template in scope (which made
 * the selector rules grow with the square of the files checked).
 */
export class PodTemplateLabels {
  private readonly byLabel = new Map<string, Readonly<Record<string, string>>[]>();
  private listed: string | undefined;

  constructor(readonly all: readonly Readonly<Record<string, string>>[]) {
    for (const labels of all) {
      for (const k of Object.keys(labels)) {
        const key = labelKey(k, labels[k]);
        const list = this.byLabel.get(key);
        if (list === undefined) this.byLabel.set(key, [labels]);
        else list.push(labels);
      }
    }
  }

  /** The templates that carry `key=value` (a superset of those a selector requiring it matches). */
  withLabel(key: string, value: unknown): readonly Readonly<Record<string, string>>[] {
    return typeof value === 'string' ? (this.byLabel.get(labelKey(key, value)) ?? []) : [];
  }

  /** `list(all)` computed once. */
  listOnce(list: (all: readonly Readonly<Record<string, string>>[]) => string): string {
    this.listed ??= list(this.all);
    return this.listed;
  }
}

function labelKey(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

/** {@link podTemplateLabelsByNamespace}, indexed by label. */
export function podTemplateIndexByNamespace(ctx: CrossDocumentContext): Map<string, PodTemplateLabels> {
  const out = new Map<string, PodTemplateLabels>();
  for (const [ns, all] of podTemplateLabelsByNamespace(ctx)) out.set(ns, new PodTemplateLabels(all));
  return out;
}
