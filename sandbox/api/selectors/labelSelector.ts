/**
 * Label selectors: the `?labelSelector=` / `kubectl -l` string form and the
 * `metav1.LabelSelector` object form, both compiled into one `Selector` whose
 * `matches` is a tight loop over precompiled predicates (it runs over every
 * pod on each LIST).
 */
import { badRequest } from '../errors';
import { LabelSelectorSyntaxError, parseLabelRequirements } from './labelParser';
import type { LabelMatcher, LabelRequirement, RequirementOperator } from './requirement';
import { aggregate, compileRequirement, formatRequirement, newRequirement } from './requirement';

export type { LabelRequirement, RequirementOperator } from './requirement';

/** `operator` is checked when the selector is compiled: `In`, `NotIn`, `Exists` or `DoesNotExist`. */
export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** A compiled selector. `empty` is true when it selects everything. */
export interface Selector {
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  readonly empty: boolean;
  /** The requirements, sorted by key; `[]` both for "everything" and "nothing" (tell them apart with `empty`). */
  readonly requirements: readonly LabelRequirement[];
  toString(): string;
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

/** Selects every object (upstream `labels.Everything()`). */
export const EVERYTHING: Selector = Object.freeze({
  matches: () => true,
  empty: true,
  requirements: Object.freeze([]),
  toString: () => '',
});

/** Selects no object (upstream `labels.Nothing()`, what a nil `LabelSelector` means). */
export const NOTHING: Selector = Object.freeze({
  matches: () => false,
  empty: false,
  requirements: Object.freeze([]),
  toString: () => '',
});

function selectorOf(reqs: readonly LabelRequirement[]): Selector {
  if (reqs.length === 0) return EVERYTHING;
  const text = reqs.map(formatRequirement).join(',');
  const requirements = Object.freeze([...reqs]);
  return Object.freeze({
    matches: compileAll(reqs.map(compileRequirement)),
    empty: false,
    requirements,
    toString: () => text,
  });
}

function compileAll(ms: LabelMatcher[]): Selector['matches'] {
  if (ms.length === 1) {
    const [only] = ms;
    return (labels) => only(labels ?? NO_LABELS);
  }
  return (labels) => {
    const l = labels ?? NO_LABELS;
    for (let i = 0; i < ms.length; i++) if (!ms[i](l)) return false;
    return true;
  };
}

/**
 * Parses the string form. `''` selects everything. Throws ApiError 400
 * BadRequest with upstream's message, e.g. `unable to parse requirement:
 * found '', expected: identifier` or `found ')', expected: !, identifier, or 'end of string'`.
 */
export function parseLabelSelector(text: string): Selector {
  try {
    return selectorOf(parseLabelRequirements(text));
  } catch (e) {
    if (e instanceof LabelSelectorSyntaxError) throw badRequest(e.message);
    throw e;
  }
}

const OBJECT_OPERATORS: ReadonlySet<string> = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

function requirementsOf(sel: LabelSelector): LabelRequirement[] | string {
  const reqs: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(sel.matchLabels ?? {})) {
    const r = newRequirement(key, 'Equals', [value]);
    if (Array.isArray(r)) return aggregate(r);
    reqs.push(r);
  }
  for (const expr of sel.matchExpressions ?? []) {
    if (!OBJECT_OPERATORS.has(expr.operator))
      return `${JSON.stringify(expr.operator)} is not a valid label selector operator`;
    const r = newRequirement(
      expr.key,
      expr.operator as RequirementOperator,
      expr.values?.length ? expr.values : undefined,
    );
    if (Array.isArray(r)) return aggregate(r);
    reqs.push(r);
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Compiles a `LabelSelector` object with `metav1.LabelSelectorAsSelector`
 * semantics: `null`/`undefined` selects nothing (`NOTHING`), `{}` selects
 * everything (`EVERYTHING`). An unknown operator or a bad key/value throws
 * ApiError 400 with upstream's message.
 */
export function labelSelectorFromObject(sel: LabelSelector | null | undefined): Selector {
  if (sel === null || sel === undefined) return NOTHING;
  const compiled = compiledSelector(sel);
  if (typeof compiled === 'string') throw badRequest(compiled);
  return compiled;
}

/**
 * Compiled selectors of frozen selector objects (a stored ReplicaSet's, a cached Service's): such a selector cannot
 * change, and controllers compile the same one on every sync and event. Compiled selectors are frozen and pure, so
 * one is shared; an invalid selector keeps its message.
 */
const compiledFrozen = new WeakMap<LabelSelector, Selector | string>();

function compiledSelector(sel: LabelSelector): Selector | string {
  const known = compiledFrozen.get(sel);
  if (known !== undefined) return known;
  const reqs = requirementsOf(sel);
  const compiled = typeof reqs === 'string' ? reqs : selectorOf(reqs);
  if (frozenSelector(sel)) compiledFrozen.set(sel, compiled);
  return compiled;
}

/** Whether nothing in a selector object can change. */
function frozenSelector(sel: LabelSelector): boolean {
  if (!Object.isFrozen(sel)) return false;
  if (sel.matchLabels !== undefined && !Object.isFrozen(sel.matchLabels)) return false;
  const exprs = sel.matchExpressions;
  if (exprs === undefined) return true;
  if (!Object.isFrozen(exprs)) return false;
  return exprs.every((e) => Object.isFrozen(e) && (e.values === undefined || Object.isFrozen(e.values)));
}

/**
 * Does this selector object match these labels (nil selects nothing, `{}` everything). Invalid selectors match nothing.
 */
export function labelSelectorMatches(
  sel: LabelSelector | null | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (sel === null || sel === undefined) return false;
  const compiled = compiledSelector(sel);
  return typeof compiled !== 'string' && compiled.matches(labels);
}

/**
 * The SELECTOR column text (upstream `metav1.FormatLabelSelector`):
 * `app=web,tier in (a,b)`, `<none>` when it selects everything or nothing,
 * `<error>` when it is invalid.
 */
export function formatLabelSelector(sel: LabelSelector | null | undefined): string {
  if (sel === null || sel === undefined) return '<none>';
  const reqs = requirementsOf(sel);
  if (typeof reqs === 'string') return '<error>';
  const text = reqs.map(formatRequirement).join(',');
  return text === '' ? '<none>' : text;
}
