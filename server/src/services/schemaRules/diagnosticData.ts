/**
 * The `data` payload of schema diagnostics: what a code action needs to fix
 * the problem without re-running the rule. Discriminated by `rule`, which is
 * also how an admission diagnostic carries it: when admission reports the
 * same field (a Required or Unsupported value), its diagnostic is kept and
 * gets this payload (see mergeAdmission).
 *
 * `path` is always the YAML path (keys and 0-based list indices from the
 * document root, or from the item's root in a kubectl List) of what the
 * diagnostic is about: the unknown key, the missing field, the bad value.
 */

export type YamlPath = (string | number)[];

export type SchemaDiagnosticData =
  /**
   * `field` is not a field of the definition titled `parent`; `replacement` is the closest field name, when one is
   * close.
   */
  | { rule: 'unknown-field'; path: YamlPath; field: string; parent: string; replacement?: string }
  /**
   * `field`, of kubectl-explain type `type` (`integer`, `[]Container`, `LabelSelector`), is missing from the map at
   * `path` minus its last element.
   */
  | { rule: 'missing-required'; path: YamlPath; field: string; type: string }
  /** `value` is not one of `allowed`; `replacement` is the allowed value equal to it ignoring case, if any. */
  | { rule: 'invalid-enum'; path: YamlPath; value: string; allowed: string[]; replacement?: string }
  /**
   * The value is not a(n) `expected`; `replacement` is source text to put instead (a quoted scalar), when there is an
   * obvious one.
   */
  | { rule: 'wrong-type'; path: YamlPath; expected: string; replacement?: string };

/** The payload of a diagnostic made by a schema rule, if it has one. */
export function schemaData(data: unknown): SchemaDiagnosticData | undefined {
  if (typeof data !== 'object' || data === null || !('rule' in data) || !('path' in data)) return undefined;
  return data as SchemaDiagnosticData;
}
