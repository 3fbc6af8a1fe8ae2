/**
 * One label requirement (`key op values`): construction with upstream's
 * checks (`labels.NewRequirement`), a compiled matcher, and the canonical
 * string form (`Requirement.String`).
 */
import { labelValueErrors, qualifiedNameErrors } from './labelSyntax';

export type RequirementOperator =
  | 'In'
  | 'NotIn'
  | 'Equals'
  | 'DoubleEquals'
  | 'NotEquals'
  | 'Exists'
  | 'DoesNotExist'
  | 'GreaterThan'
  | 'LessThan';

/** A validated requirement. `values` is sorted and free of duplicates for set operators. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: RequirementOperator;
  readonly values: readonly string[];
}

export type LabelMatcher = (labels: Readonly<Record<string, string>>) => boolean;

const INT_RE = /^[+-]?\d+$/;

/** Go's `%#v` of a `[]string`, used in field error messages. */
function goStringSlice(values: readonly string[] | undefined): string {
  if (values === undefined) return '[]string(nil)';
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** `field: Invalid value: <value>: <detail>`, the text of a field.Invalid error. */
export function invalidValue(field: string, shown: string, detail: string): string {
  return `${field}: Invalid value: ${shown}: ${detail}`;
}

function valuesCountError(op: RequirementOperator, values: readonly string[] | undefined): string | undefined {
  const n = values?.length ?? 0;
  switch (op) {
    case 'In':
    case 'NotIn':
      return n === 0 ? "for 'in', 'notin' operators, values set can't be empty" : undefined;
    case 'Equals':
    case 'DoubleEquals':
    case 'NotEquals':
      return n !== 1 ? 'exact-match compatibility requires one single value' : undefined;
    case 'Exists':
    case 'DoesNotExist':
      return n !== 0 ? 'values set must be empty for exists and does not exist' : undefined;
    case 'GreaterThan':
    case 'LessThan':
      return n !== 1 ? "for 'Gt', 'Lt' operators, exactly one value is required" : undefined;
  }
}

/**
 * Validates and builds a requirement. Returns the error messages instead when
 * it is invalid; several are joined upstream-style as `[e1, e2]` by the caller.
 * `values === undefined` stands for Go's nil slice (it shows in messages).
 */
export function newRequirement(
  key: string,
  operator: RequirementOperator,
  values: readonly string[] | undefined,
): LabelRequirement | string[] {
  const errs: string[] = [];
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length > 0) errs.push(invalidValue('key', JSON.stringify(key), keyErrs.join('; ')));
  const countErr = valuesCountError(operator, values);
  if (countErr) errs.push(invalidValue('values', goStringSlice(values), countErr));
  const vals = values ?? [];
  if (operator === 'GreaterThan' || operator === 'LessThan') {
    vals.forEach((v, i) => {
      if (!INT_RE.test(v))
        errs.push(
          invalidValue(`values[${i}]`, JSON.stringify(v), "for 'Gt', 'Lt' operators, the value must be an integer"),
        );
    });
  }
  vals.forEach((v, i) => {
    const valueErrs = labelValueErrors(v);
    if (valueErrs.length > 0) errs.push(invalidValue(`values[${i}][${key}]`, JSON.stringify(v), valueErrs.join('; ')));
  });
  if (errs.length > 0) return errs;
  const isSet = operator === 'In' || operator === 'NotIn';
  return Object.freeze({ key, operator, values: Object.freeze(isSet ? [...new Set(vals)].sort() : [...vals]) });
}

/** Upstream aggregate text: one error as is, several as `[e1, e2]`. */
export function aggregate(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

// Object.prototype has no string-valued members, so a string here is an own label.
function has(labels: Readonly<Record<string, string>>, key: string): boolean {
  return typeof labels[key] === 'string';
}

/** Compiles a requirement into a predicate; absent keys behave as upstream `Requirement.Matches`. */
export function compileRequirement(r: LabelRequirement): LabelMatcher {
  const { key, values } = r;
  const single = values[0];
  switch (r.operator) {
    case 'Equals':
    case 'DoubleEquals':
      return (l) => l[key] === single;
    case 'In':
      if (values.length === 1) return (l) => l[key] === single;
      return (l) => has(l, key) && values.includes(l[key]);
    case 'NotEquals':
      return (l) => !has(l, key) || l[key] !== single;
    case 'NotIn':
      return (l) => !has(l, key) || !values.includes(l[key]);
    case 'Exists':
      return (l) => has(l, key);
    case 'DoesNotExist':
      return (l) => !has(l, key);
    case 'GreaterThan':
    case 'LessThan': {
      const bound = Number(single);
      const greater = r.operator === 'GreaterThan';
      return (l) => {
        if (!has(l, key) || !INT_RE.test(l[key])) return false;
        const n = Number(l[key]);
        return greater ? n > bound : n < bound;
      };
    }
  }
}

const OPERATOR_TEXT: Record<RequirementOperator, string> = {
  Equals: '=',
  DoubleEquals: '==',
  NotEquals: '!=',
  In: ' in ',
  NotIn: ' notin ',
  GreaterThan: '>',
  LessThan: '<',
  Exists: '',
  DoesNotExist: '',
};

/** `app=web`, `env in (a,b)`, `!legacy`, `tier`: the form kubectl prints. */
export function formatRequirement(r: LabelRequirement): string {
  if (r.operator === 'Exists') return r.key;
  if (r.operator === 'DoesNotExist') return `!${r.key}`;
  const op = OPERATOR_TEXT[r.operator];
  if (r.operator === 'In' || r.operator === 'NotIn') return `${r.key}${op}(${[...r.values].sort().join(',')})`;
  return `${r.key}${op}${r.values[0]}`;
}
