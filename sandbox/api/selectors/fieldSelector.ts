/**
 * Field selectors (`?fieldSelector=metadata.name=web,status.phase!=Running`):
 * parsing with upstream `fields.ParseSelector` rules (terms split on unescaped
 * commas, operators `!=`, `==`, `=`, values escaped with `\`), then the kind's
 * field label conversion, which rejects labels the kind does not support.
 */
import { badRequest } from '../errors';
import type { KubeObject } from '../types';
import type { FieldGetter, KindFieldLabels } from './fieldLabels';
import { fieldLabelsFor } from './fieldLabels';

export interface FieldRequirement {
  readonly field: string;
  readonly op: '=' | '!=';
  readonly value: string;
}

export interface FieldSelector {
  matches(obj: KubeObject): boolean;
  /** True when the selector has no terms and so selects everything. */
  readonly empty: boolean;
  /** The terms, with aliases resolved (so the store can use an index, e.g. on spec.nodeName or metadata.name). */
  readonly requirements: readonly FieldRequirement[];
  toString(): string;
}

/** Splits on commas not preceded by a backslash escape; the escapes stay in the terms. */
function splitTerms(text: string): string[] {
  if (text === '') return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** The first operator occurrence splits the term; `!=` and `==` win over `=` at the same position. */
function splitTerm(term: string): [string, '=' | '==' | '!=', string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

function unescapeValue(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') {
      const next = raw[i + 1];
      if (next === undefined) throw badRequest('invalid field selector: invalid escape sequence: \\');
      if (next !== '\\' && next !== ',' && next !== '=')
        throw badRequest(`invalid field selector: invalid escape sequence: \\${next}`);
      out += next;
      i++;
    } else if (c === ',' || c === '=') {
      // Upstream prints the rune with %v, i.e. as its code point number.
      throw badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  return out;
}

function escapeValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

function parseTerms(text: string): FieldRequirement[] {
  const parts = splitTerms(text).sort();
  const out: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    const [field, op, raw] = split;
    out.push({ field, op: op === '!=' ? '!=' : '=', value: unescapeValue(raw) });
  }
  return out;
}

/**
 * Parses a field selector for objects of `kind`. `''` selects everything.
 * Throws ApiError 400 BadRequest on bad syntax (`invalid selector: '…';
 * can't understand '…'`) or an unsupported label (`field label not supported:
 * spec.foo`, or the kind's own upstream wording).
 */
export function parseFieldSelector(text: string, kind: string, own?: KindFieldLabels): FieldSelector {
  const labels = own ?? fieldLabelsFor(kind);
  const requirements = parseTerms(text).map((r) => {
    const field = labels.aliases.get(r.field) ?? r.field;
    if (!labels.getters.has(field)) throw badRequest(labels.unsupported(r.field));
    return Object.freeze({ ...r, field });
  });
  const tests = requirements.map((r) => compile(r, labels.getters.get(r.field)!));
  const shown = requirements.map((r) => `${r.field}${r.op}${escapeValue(r.value)}`).join(',');
  return Object.freeze({
    matches: (obj: KubeObject) => {
      for (let i = 0; i < tests.length; i++) if (!tests[i](obj)) return false;
      return true;
    },
    empty: requirements.length === 0,
    requirements: Object.freeze(requirements),
    toString: () => shown,
  });
}

function compile(r: FieldRequirement, get: FieldGetter): (obj: KubeObject) => boolean {
  const { value } = r;
  return r.op === '=' ? (obj) => get(obj) === value : (obj) => get(obj) !== value;
}
