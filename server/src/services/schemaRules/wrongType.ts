/**
 * `wrong-type`: a value of the wrong JSON type, which the API server cannot
 * even decode (`json: cannot unmarshal number into Go struct field
 * EnvVar.spec.template.spec.containers.env.value of type string`). Kubernetes'
 * own rules apply: IntOrString takes an integer or a string, Quantity an
 * number or a quantity string, null is accepted anywhere (it means unset),
 * and an integral float (`3.0`) is an integer. Unquoted numbers and YAML 1.1
 * booleans (`yes`) where a string is required come with a quoted replacement.
 */
import { MAP_TYPE, SCALAR_TYPE, SEQ_TYPE, nodeType } from '../../../../sandbox/manifests/yamlNodes';
import type { Node, Scalar } from 'yaml';
import type { Diagnostic } from 'vscode-languageserver-types';
import { QUANTITY_FORMAT_ERROR, parseQuantity } from '../../../../sandbox/api/quantity';
import { describeType } from '../../schema/schema';
import type { SchemaType } from '../../schema/types';
import { makeDiagnostic } from '../diagnostic';
import type { SchemaDiagnosticData } from './diagnosticData';
import { goStructField } from './paths';
import type { SchemaRule } from './rule';
import { nodeRange, scalarKind, scalarSource } from './scalars';
import type { ScalarKind } from './scalars';
import { walkSchema } from './walkSchema';

/** Go's encoding/json names for the JSON types in "cannot unmarshal X" errors. */
const JSON_TYPE: Record<Exclude<ScalarKind, 'null'>, string> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'bool',
};

export const wrongTypeRule: SchemaRule = {
  code: 'wrong-type',
  validate(doc, ctx) {
    const out: Diagnostic[] = [];
    walkSchema(doc.root, ctx.definition, wrongTypeRule.visitor!(doc, ctx, out));
    return out;
  },
  visitor(_doc, ctx, out) {
    return {
      value(node, type, _key, path) {
        const problem = mismatch(node, type);
        if (problem === undefined) return;
        let message = `Expected ${describeType(type)}, got ${problem.actual}`;
        if (problem.int32 !== undefined) {
          // upstream: encoding/json (sigs.k8s.io/json) refuses a number that overflows the Go field.
          const go = `json: cannot unmarshal number ${problem.int32} into Go struct field ${goStructField(ctx.definition, path)} of type int32`;
          message = `${problem.int32} does not fit an int32 (${INT32_MIN} to ${INT32_MAX}); the API server answers: ${go}`;
        } else if (problem.quoted !== undefined) {
          const go = `json: cannot unmarshal ${problem.jsonType} into Go struct field ${goStructField(ctx.definition, path)} of type string`;
          message += `; quote it: ${problem.quoted} (the API server answers: ${go})`;
        } else if (problem.detail !== undefined) {
          message += `: ${problem.detail}`;
        }
        const data: SchemaDiagnosticData = {
          rule: 'wrong-type',
          path: [...path],
          expected: describeType(type),
          ...(problem.quoted === undefined ? {} : { replacement: problem.quoted }),
        };
        out.push({ ...makeDiagnostic(nodeRange(node, ctx.lineCounter), 'wrong-type', message), data });
      },
    };
  },
};

interface Mismatch {
  /** `integer 1`, `a list`. */
  actual: string;
  /** For a scalar where a string belongs: the scalar, quoted. */
  quoted?: string;
  jsonType?: string;
  detail?: string;
  /** An integer out of range for an int32 field: its source text. */
  int32?: string;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function mismatch(node: Node, type: SchemaType): Mismatch | undefined {
  if (type.kind === 'any') return undefined;
  // The node's kind read once (see nodeType).
  const nt = nodeType(node);
  if (nt === MAP_TYPE) return type.kind === 'ref' || type.kind === 'map' ? undefined : { actual: 'a map' };
  if (nt === SEQ_TYPE) return type.kind === 'array' ? undefined : { actual: 'a list' };
  if (nt !== SCALAR_TYPE) return undefined;
  return scalarMismatch(node as Scalar, type);
}

function scalarMismatch(node: Scalar, type: SchemaType): Mismatch | undefined {
  const kind = scalarKind(node);
  if (kind === 'null') return undefined;
  const source = scalarSource(node);
  switch (type.kind) {
    case 'string':
      if (kind === 'string') return undefined;
      return { actual: `${label(kind, source)} ${source}`, quoted: JSON.stringify(source), jsonType: JSON_TYPE[kind] };
    case 'integer': {
      if (kind !== 'integer') return { actual: described(kind, source) };
      const n = Number(node.value);
      if (type.format === 'int32' && (n < INT32_MIN || n > INT32_MAX))
        return { actual: `integer ${source}`, int32: source };
      return undefined;
    }
    case 'number':
      return kind === 'integer' || kind === 'number' ? undefined : { actual: described(kind, source) };
    case 'boolean':
      return kind === 'boolean' ? undefined : { actual: described(kind, source) };
    case 'intOrString':
      return kind === 'integer' || kind === 'string' ? undefined : { actual: described(kind, source) };
    case 'quantity':
      return quantityMismatch(node, kind, source);
    default:
      return { actual: described(kind, source) };
  }
}

function quantityMismatch(node: Scalar, kind: ScalarKind, source: string): Mismatch | undefined {
  if (kind === 'boolean') return { actual: described(kind, source) };
  const value = node.value;
  if ((typeof value === 'string' || typeof value === 'number') && parseQuantity(value) !== undefined) return undefined;
  return { actual: described(kind, source), detail: QUANTITY_FORMAT_ERROR };
}

/** `integer` or `number` by how the number is written (`1.0` reads as a number), else the kind. */
function label(kind: ScalarKind, source: string): string {
  if (kind === 'integer' && /[.eE]/.test(source) && !/^[-+]?0x/i.test(source)) return 'number';
  return kind;
}

function described(kind: ScalarKind, source: string): string {
  return kind === 'string' ? `string ${JSON.stringify(source)}` : `${label(kind, source)} ${source}`;
}
