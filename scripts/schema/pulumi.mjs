// Which fields each definition has in the Pulumi Kubernetes SDK's output types (`types/output.d.ts`): one
// interface per OpenAPI definition, in namespaces by group and version (`core.v1.PodSpec`). Only the field
// names are read, to tell which fields a release had where no client-node release was generated from it.
//
// What it cannot tell: whether a definition still existed. The SDK keeps every API version it ever had
// (extensions/v1beta1 is still there), so an interface's presence proves nothing; its fields, for a
// definition of the release it was generated from, are that release's.
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const PACKAGE_OF = {
  core: 'io.k8s.api.core',
  meta: 'io.k8s.apimachinery.pkg.apis.meta',
  apiextensions: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
  apiregistration: 'io.k8s.kube-aggregator.pkg.apis.apiregistration',
};
const NOT_KUBERNETES = new Set(['helm', 'kustomize', 'yaml', 'pkg']);

/**
 * Map of fully qualified definition name → Set of JSON field names. A kind the SDK has a resource class for
 * (`resource/v1alpha3/resourceSlice.d.ts`) but no output interface is listed with no fields.
 */
export function readPulumiFields(dir) {
  const file = join(dir, 'package', 'types', 'output.d.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const out = new Map();
  for (const group of source.statements) {
    if (!ts.isModuleDeclaration(group) || NOT_KUBERNETES.has(group.name.text)) continue;
    const prefix = PACKAGE_OF[group.name.text] ?? `io.k8s.api.${group.name.text}`;
    for (const version of group.body?.statements ?? []) {
      if (!ts.isModuleDeclaration(version)) continue;
      for (const decl of version.body?.statements ?? []) {
        if (!ts.isInterfaceDeclaration(decl)) continue;
        const fields = new Set();
        for (const m of decl.members) {
          if (!ts.isPropertySignature(m)) continue;
          const name = ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : undefined;
          // The SDK spells JSONSchemaProps' `x-kubernetes-*` fields with underscores.
          if (name !== undefined) fields.add(name.startsWith('x_kubernetes_') ? name.replaceAll('_', '-') : name);
        }
        out.set(`${prefix}.${version.name.text}.${decl.name.text}`, fields);
      }
    }
  }
  for (const line of readFileSync(join(dir, '.files'), 'utf8').split('\n')) {
    const m = /^package\/([a-z]+)\/(v\d\w*)\/([a-z]\w*)\.d\.ts$/.exec(line);
    if (m === null || NOT_KUBERNETES.has(m[1]) || m[3] === 'index' || m[3].endsWith('Patch')) continue;
    const name = `${PACKAGE_OF[m[1]] ?? `io.k8s.api.${m[1]}`}.${m[2]}.${m[3][0].toUpperCase()}${m[3].slice(1)}`;
    if (!out.has(name)) out.set(name, new Set());
  }
  return out;
}
