/**
 * Kubernetes' format library (upstream: apiserver/pkg/cel/library/format.go): `format.named(name)` and
 * `format.<name>()` give a `kubernetes.NamedFormat` whose `validate(string)` is `optional.none()` when the string
 * is valid, else the list of what is wrong, in apimachinery's words (sandbox/api/names.ts).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import {
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  nameCheck,
} from '../../api/names';

export class NamedFormat {
  constructor(
    readonly name: string,
    readonly check: (s: string) => string[],
  ) {}
}

/** The receiver of `format.<name>()`: the library reaches namespaced functions through a constant of a type. */
class FormatNamespace {
  readonly name = 'format';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const FORMATS: Record<string, (s: string) => string[]> = {
  dns1123Label: isDns1123Label,
  dns1123Subdomain: isDns1123Subdomain,
  dns1035Label: isDns1035Label,
  qualifiedName: isQualifiedName,
  dns1123LabelPrefix: (s) => nameCheck(isDns1123Label)(s, true),
  dns1123SubdomainPrefix: (s) => nameCheck(isDns1123Subdomain)(s, true),
  dns1035LabelPrefix: (s) => nameCheck(isDns1035Label)(s, true),
  labelValue: isValidLabelValue,
  uuid: (s) => (UUID.test(s) ? [] : ['does not match the UUID format']),
  byte: (s) => (/^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 ? [] : ['invalid base64']),
  date: (s) => (/^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid date']),
  datetime: (s) =>
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s))
      ? []
      : ['invalid datetime'],
};

const F = 'kubernetes.NamedFormat';
const NS = 'kubernetes.FormatNamespace';

export function registerFormat(env: Environment): void {
  env.registerType(F, NamedFormat);
  env.registerType(NS, FormatNamespace);
  env.registerConstant('format', NS, new FormatNamespace());
  for (const [name, check] of Object.entries(FORMATS)) {
    const f = new NamedFormat(name, check);
    env.registerFunction(`${NS}.${name}(): ${F}`, () => f);
  }
  env.registerFunction(`${NS}.named(string): optional<${F}>`, (_ns: FormatNamespace, name: string) => {
    const check = FORMATS[name];
    return check ? Optional.of(new NamedFormat(name, check)) : Optional.none();
  });
  env.registerFunction(`${F}.validate(string): optional<list<string>>`, (f: NamedFormat, s: string) => {
    const errs = f.check(s);
    return errs.length === 0 ? Optional.none() : Optional.of(errs);
  });
}
