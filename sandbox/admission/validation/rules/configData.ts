/** ConfigMap and Secret data (core validation `ValidateConfigMap`, `ValidateSecret` and their updates). */
import type { KubeObject } from '../../../api/types';
import { jsonEqual } from '../../../util/json';
import { obj, utf8Length } from '../access';
import { about, forbidden, invalid, required, tooLong, type FieldError } from '../fieldError';
import { isConfigMapKey } from '../../../api/names';
import type { ValidationRule } from '../rule';

export const MAX_DATA_SIZE = 1024 * 1024;

/** Byte length of base64 text once decoded, or the offset of the first bad byte. */
export function base64DecodedLength(text: string): number | { badByte: number } {
  const bad = /[^A-Za-z0-9+/=]/.exec(text);
  if (bad) return { badByte: bad.index };
  if (text.length % 4 !== 0) return { badByte: text.length - (text.length % 4) };
  const pad = text.indexOf('=');
  if (pad >= 0 && (pad < text.length - 2 || !/^=+$/.test(text.slice(pad)))) return { badByte: pad };
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

function keyErrors(code: string, map: Record<string, unknown> | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(map ?? {}))
    for (const msg of isConfigMapKey(k)) errs.push(about(invalid(code, `${field}[${k}]`, k, msg), { part: 'key' }));
  return errs;
}

export const configMapData: ValidationRule = {
  code: 'configmap-data',
  description:
    'Keys are valid config keys, not repeated across data and binaryData, and all data totals at most 1 MiB.',
  kinds: ['ConfigMap'],
  validate(o) {
    const code = this.code;
    const data = obj(o, 'data');
    const binary = obj(o, 'binaryData');
    const errs = keyErrors(code, data, 'data');
    let total = 0;
    for (const [k, v] of Object.entries(data ?? {})) {
      if (binary && k in binary)
        errs.push(about(invalid(code, `data[${k}]`, k, 'duplicate of key present in binaryData'), { part: 'key' }));
      if (typeof v === 'string') total += utf8Length(v);
    }
    errs.push(...keyErrors(code, binary, 'binaryData'));
    for (const [k, v] of Object.entries(binary ?? {})) {
      const len = typeof v === 'string' ? base64DecodedLength(v) : 0;
      if (typeof len === 'number') total += len;
      else errs.push(invalid(code, `binaryData[${k}]`, k, `illegal base64 data at input byte ${len.badByte}`));
    }
    if (total > MAX_DATA_SIZE) errs.push(tooLong(code, '', MAX_DATA_SIZE));
    return errs;
  },
};

/** Keys each typed Secret must carry. */
const REQUIRED_SECRET_KEYS: Record<string, readonly string[]> = {
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
};

export const secretData: ValidationRule = {
  code: 'secret-data',
  description:
    'Keys are valid config keys, data values are base64, the total is at most 1 MiB, and typed Secrets carry their keys.',
  kinds: ['Secret'],
  validate(o) {
    const code = this.code;
    const data = obj(o, 'data');
    const stringData = obj(o, 'stringData');
    const errs = [...keyErrors(code, data, 'data'), ...keyErrors(code, stringData, 'stringData')];
    let total = 0;
    for (const [k, v] of Object.entries(data ?? {})) {
      const len = typeof v === 'string' ? base64DecodedLength(v) : 0;
      if (typeof len === 'number') total += len;
      else errs.push(invalid(code, `data[${k}]`, k, `illegal base64 data at input byte ${len.badByte}`));
    }
    for (const v of Object.values(stringData ?? {})) if (typeof v === 'string') total += utf8Length(v);
    if (total > MAX_DATA_SIZE) errs.push(tooLong(code, 'data', MAX_DATA_SIZE));
    const type = typeof o.type === 'string' ? o.type : 'Opaque';
    for (const k of REQUIRED_SECRET_KEYS[type] ?? []) {
      if (!(data && k in data) && !(stringData && k in stringData)) errs.push(required(code, `data[${k}]`));
    }
    return errs;
  },
};

export const secretTypeImmutable: ValidationRule = {
  code: 'secret-type-immutable',
  description: 'A Secret type cannot change.',
  kinds: ['Secret'],
  validate(o, ctx) {
    if (ctx.operation !== 'UPDATE' || !ctx.old) return [];
    const now = o.type ?? 'Opaque';
    return now === (ctx.old.type ?? 'Opaque') ? [] : [invalid(this.code, 'type', now, 'field is immutable')];
  },
};

function immutableChanges(code: string, now: KubeObject, old: KubeObject, fields: readonly string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (now.immutable !== true) errs.push(forbidden(code, 'immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields) {
    if (!jsonEqual(now[f] ?? null, old[f] ?? null))
      errs.push(forbidden(code, f, 'field is immutable when `immutable` is set'));
  }
  return errs;
}

export const immutableData: ValidationRule = {
  code: 'immutable-data',
  description: 'With immutable: true, a ConfigMap or Secret keeps its data and stays immutable.',
  kinds: ['ConfigMap', 'Secret'],
  validate(o, ctx) {
    if (ctx.operation !== 'UPDATE' || !ctx.old) return [];
    return immutableChanges(this.code, o, ctx.old, o.kind === 'Secret' ? ['data'] : ['data', 'binaryData']);
  },
};
