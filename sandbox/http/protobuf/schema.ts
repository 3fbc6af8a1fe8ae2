/**
 * Message descriptors: for each Kubernetes protobuf message we decode, its
 * fields by number, with the JSON name and the Go shape that decides what
 * `encoding/json` would write. Tables are written in a compact notation
 * (see `message`) so that each reads like the Go struct it mirrors.
 *
 * Field notation: `json=number:type[flag]`, separated by spaces.
 * - type: `s` string, `b` bool, `i32`, `i64`, `y` bytes (base64 in JSON), or a
 *   message name; `[]T` a repeated field; `{}T` a map from string to T.
 * - flag `?`: a Go pointer. Kept when present, even at its zero value; absent
 *   means nil, so JSON omits it.
 * - flag `!`: a Go value without `omitempty`. Kept at its zero value, and
 *   written at its zero value when absent (as Go's JSON would).
 * - no flag on a scalar: a Go value with `omitempty` — zero values are dropped.
 * - no flag on a message: a Go struct value, always written (omitempty never
 *   drops a struct), materialised from nothing when absent.
 * - json `...`: an embedded struct inlined into its parent (`json:",inline"`).
 */

export type ScalarType = 's' | 'b' | 'i32' | 'i64' | 'y';
export type Presence = 'omitempty' | 'pointer' | 'always';

export interface FieldDescriptor {
  readonly json: string;
  readonly number: number;
  /** A scalar type or the name of a message (described, well-known, or not supported). */
  readonly type: string;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly inline: boolean;
  readonly presence: Presence;
}

export interface MessageDescriptor {
  /** Fully qualified, e.g. `io.k8s.api.core.v1.Container`, for error messages. */
  readonly fullName: string;
  readonly fields: readonly FieldDescriptor[];
  readonly byNumber: ReadonlyMap<number, FieldDescriptor>;
}

/** One API package's messages: short name → field notation. */
export interface MessageTable {
  readonly pkg: string;
  readonly messages: Readonly<Record<string, string>>;
}

const SCALARS: ReadonlySet<string> = new Set(['s', 'b', 'i32', 'i64', 'y']);

export function isScalar(type: string): type is ScalarType {
  return SCALARS.has(type);
}

const FIELD = /^([A-Za-z][A-Za-z0-9]*|\.\.\.)=(\d+):(\[\]|\{\})?([A-Za-z][A-Za-z0-9]*)([?!])?$/;

function parseField(owner: string, spec: string): FieldDescriptor {
  const m = FIELD.exec(spec);
  if (!m) throw new Error(`protobuf table: bad field "${spec}" in ${owner}`);
  const [, json, num, collection, type, flag] = m;
  return {
    json,
    number: Number(num),
    type,
    repeated: collection === '[]',
    map: collection === '{}',
    inline: json === '...',
    presence: flag === '?' ? 'pointer' : flag === '!' ? 'always' : 'omitempty',
  };
}

function parseMessage(fullName: string, notation: string): MessageDescriptor {
  const fields = notation
    .trim()
    .split(/\s+/)
    .map((spec) => parseField(fullName, spec));
  const byNumber = new Map<number, FieldDescriptor>();
  for (const f of fields) {
    if (byNumber.has(f.number)) throw new Error(`protobuf table: field ${f.number} twice in ${fullName}`);
    byNumber.set(f.number, f);
  }
  return { fullName, fields, byNumber };
}

/** All described messages by short name; a name in two tables is a table bug. */
export function buildRegistry(tables: readonly MessageTable[]): Map<string, MessageDescriptor> {
  const registry = new Map<string, MessageDescriptor>();
  for (const table of tables) {
    for (const [name, notation] of Object.entries(table.messages)) {
      if (registry.has(name)) throw new Error(`protobuf table: message ${name} described twice`);
      registry.set(name, parseMessage(`${table.pkg}.${name}`, notation));
    }
  }
  return registry;
}
