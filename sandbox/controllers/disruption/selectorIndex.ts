/**
 * Finding budgets for a pod and pods for a budget without scanning the
 * namespace: upstream lists them (`GetPodPodDisruptionBudgets`,
 * `getPodsForPdb`) and matches each selector; here both caches are indexed by
 * one label a selector requires (`k=v` or `k in (v)`), so only candidates are
 * matched. The answers are the same; selectors without such a label fall back
 * to the namespace.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { NOTHING, labelSelectorFromObject } from '../../api/selectors/labelSelector';
import type { LabelSelector, Selector } from '../../api/selectors/labelSelector';
import type { KubeObject } from '../../api/types';
import type { ObjectCache } from '../../client/cache';

const PDB_INDEX = 'disruption/selector-label';
const POD_INDEX = 'disruption/pod-label';
/** The index value of selectors with no single required label (and of the empty one, which selects everything). */
const ANY = '*';

/** Compiled selectors by budget object (cached objects are frozen: a change is a new object). */
const compiled = new WeakMap<object, Selector>();

/** `metav1.LabelSelectorAsSelector`: nil selects nothing, `{}` everything; an invalid one nothing. */
export function selectorOf(pdb: PodDisruptionBudget): Selector {
  let sel = compiled.get(pdb);
  if (!sel) {
    try {
      sel = labelSelectorFromObject(pdb.spec?.selector as LabelSelector | undefined);
    } catch {
      sel = NOTHING;
    }
    compiled.set(pdb, sel);
  }
  return sel;
}

/** One `key=value` every selected pod has, if the selector requires one. */
function anchorOf(sel: Selector): string | undefined {
  for (const r of sel.requirements) {
    const equality = r.operator === 'Equals' || r.operator === 'DoubleEquals' || r.operator === 'In';
    if (equality && r.values.length === 1) return `${r.key}=${r.values[0]}`;
  }
  return undefined;
}

function ensureIndex<T extends KubeObject>(
  cache: ObjectCache<T>,
  name: string,
  fn: (obj: T) => readonly string[],
): void {
  if (!cache.hasIndex(name)) cache.addIndex(name, fn);
}

export function ensureSelectorIndexes<B extends KubeObject, P extends KubeObject>(
  pdbs: ObjectCache<B>,
  pods: ObjectCache<P>,
): void {
  ensureIndex(pdbs, PDB_INDEX, (obj) => {
    const sel = selectorOf(obj as PodDisruptionBudget);
    if (sel === NOTHING) return [];
    return [`${obj.metadata.namespace ?? ''}/${anchorOf(sel) ?? ANY}`];
  });
  ensureIndex(pods, POD_INDEX, (obj) =>
    Object.entries(obj.metadata.labels ?? {}).map(([k, v]) => `${obj.metadata.namespace ?? ''}/${k}=${v}`),
  );
}

/** The budgets of the pod's namespace whose selector matches it, by name. */
export function budgetsFor<B extends KubeObject>(pdbs: ObjectCache<B>, pod: Pod): PodDisruptionBudget[] {
  const ns = pod.metadata?.namespace ?? '';
  const labels = pod.metadata?.labels ?? {};
  const candidates = new Set(pdbs.byIndex(PDB_INDEX, `${ns}/${ANY}`));
  for (const [k, v] of Object.entries(labels))
    for (const pdb of pdbs.byIndex(PDB_INDEX, `${ns}/${k}=${v}`)) candidates.add(pdb);
  return ([...candidates] as KubeObject[] as PodDisruptionBudget[])
    .filter((pdb) => selectorOf(pdb).matches(labels))
    .sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
}

/** The pods of the budget's namespace its selector matches. */
export function podsFor<P extends KubeObject>(pods: ObjectCache<P>, pdb: PodDisruptionBudget): Pod[] {
  const sel = selectorOf(pdb);
  if (sel === NOTHING) return [];
  const ns = pdb.metadata?.namespace ?? '';
  const anchor = anchorOf(sel);
  const candidates = anchor !== undefined ? pods.byIndex(POD_INDEX, `${ns}/${anchor}`) : pods.list(ns);
  return (candidates as KubeObject[] as Pod[]).filter((p) => sel.matches(p.metadata?.labels));
}
