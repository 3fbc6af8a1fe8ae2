/**
 * The OpenAPI definitions of custom resources, as kube-apiserver publishes them for an established CRD: the
 * version's schema under `<reversed group>.<version>.<Kind>` (`com.coreos.monitoring.v1.ServiceMonitor`) with its
 * group-version-kind, `metadata` as ObjectMeta and the TypeMeta descriptions, and the `<Kind>List` around it. In
 * Swagger 2.0, what v2 cannot say (`nullable`, `anyOf`, `oneOf`, `not`, int-or-string) is left out, as upstream's
 * `ToStructuralOpenAPIV2` does.
 *
 * upstream: apiextensions-apiserver pkg/controller/openapi/builder/builder.go (`BuildOpenAPIV2`,
 * `BuildOpenAPIV3`, `buildDefinitionsFunc`, `ToRESTFriendlyName`).
 */
import type { ResourceType } from '../../api/resources';
import type { JsonSchema, Style } from './schemas';
import { refTo } from './schemas';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const METADATA_DESCRIPTION =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_METADATA_DESCRIPTION =
  'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** upstream: ToRESTFriendlyName("monitoring.coreos.com/v1/ServiceMonitor"): com.coreos.monitoring.v1.ServiceMonitor. */
export function customDefinitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

/** v2 has no `nullable`, `anyOf`, `oneOf`, `not`; int-or-string is a bare extension there. */
function toV2(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(toV2);
  if (typeof s !== 'object' || s === null) return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'nullable' || k === 'anyOf' || k === 'oneOf' || k === 'not' || k === 'allOf') continue;
    if (k === 'x-kubernetes-validations') continue;
    out[k] = k === 'default' || k === 'enum' || k === 'example' ? v : toV2(v);
  }
  return out;
}

function gvk(r: ResourceType, kind: string): JsonSchema[] {
  return [{ group: r.group, kind, version: r.version }];
}

/** The definitions of one version of a custom resource, by name (the kind's and its list's). */
export function customDefinitions(r: ResourceType, style: Style): Record<string, JsonSchema> {
  const info = r.custom!;
  const name = customDefinitionName(r.group, r.version, r.kind);
  const listName = customDefinitionName(r.group, r.version, info.listKind);
  const raw = (info.schema ?? { type: 'object' }) as JsonSchema;
  const schema = (style === 'v2' ? toV2(raw) : JSON.parse(JSON.stringify(raw))) as JsonSchema;
  const properties = { ...((schema.properties as JsonSchema | undefined) ?? {}) };
  const wrap = (ref: JsonSchema, description: string): JsonSchema =>
    style === 'v3' ? { allOf: [ref], description } : { ...ref, description };
  properties.apiVersion = {
    ...((properties.apiVersion as JsonSchema | undefined) ?? {}),
    description: API_VERSION_DESCRIPTION,
    type: 'string',
  };
  properties.kind = {
    ...((properties.kind as JsonSchema | undefined) ?? {}),
    description: KIND_DESCRIPTION,
    type: 'string',
  };
  properties.metadata = wrap(refTo(OBJECT_META, style), METADATA_DESCRIPTION);
  const kindSchema: JsonSchema = {
    ...schema,
    type: 'object',
    properties,
    'x-kubernetes-group-version-kind': gvk(r, r.kind),
  };
  const listSchema: JsonSchema = {
    description: `${info.listKind} is a list of ${r.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { description: API_VERSION_DESCRIPTION, type: 'string' },
      items: {
        description: `List of ${r.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: refTo(name, style),
      },
      kind: { description: KIND_DESCRIPTION, type: 'string' },
      metadata: wrap(refTo(LIST_META, style), LIST_METADATA_DESCRIPTION),
    },
    'x-kubernetes-group-version-kind': gvk(r, info.listKind),
  };
  return { [name]: kindSchema, [listName]: listSchema };
}
