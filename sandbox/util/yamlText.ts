/**
 * The one YAML writer of the product: the `yaml` package's `stringify` with `aliasDuplicateObjects: false`, so an
 * object met twice in one document is written out twice, never as an anchor and aliases (`&a1 {}` … `*a1`).
 * kubectl's YAML (sigs.k8s.io/yaml: JSON then YAML) has no anchors: a value is written where it is, whatever shares
 * it in memory. Stored objects may share frozen sub-objects (pods share their admission defaults, issue 16), so a
 * List, an object or a diff side prints the same text whether or not two of its parts are one object in memory.
 * ESLint (`no-restricted-imports`) keeps `stringify` and `Document` of `yaml` out of the product's other files.
 */
// eslint-disable-next-line no-restricted-imports -- this file is the writer the rule sends everyone to
import { stringify } from 'yaml';

/** The options the product's writers pass (kubectl's style: `sortMapEntries`, `indentSeq: false`, `lineWidth: 0`). */
export interface YamlTextOptions {
  readonly sortMapEntries?: boolean;
  readonly indentSeq?: boolean;
  readonly lineWidth?: number;
}

/** `value` as a YAML document, every repeated object written in full (no anchors or aliases). */
export function yamlText(value: unknown, options: YamlTextOptions = {}): string {
  return stringify(value, { ...options, aliasDuplicateObjects: false });
}
