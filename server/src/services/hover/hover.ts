/**
 * Hover: a text document and a position in, Markdown out. On a key: the
 * field's type, whether it is required, its description and its path
 * (`spec.template.spec.containers[].ports[].containerPort`). On the `kind` or
 * `apiVersion` value: the kind's description and the versions serving it.
 * Pure and confined to the document under the cursor, like completion.
 */
import type { Hover, Position, Range } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { definition, describeType, fieldPathText, kindEntry, kindsFor, typeAtPath } from '../../schema/schema';
import { documentSchema } from '../completion/documentSchema';
import { removedApi } from '../removedApis';
import { documentBounds, documentLines } from '../yamlLines';
import type { Lines } from '../yamlLines';
import { nodeAt, rootScalar } from '../yamlPosition';
import type { NodeAt } from '../yamlPosition';
import type { JSONSchemaProps } from '../../../../sandbox/apiextensions/schema/types';
import type { CustomSchemaLookup } from '../customSchema/customSchema';
import { customFieldAt, customType, objectMeta } from '../customSchema/customSchema';

/** The hover at `position` of `doc`, or null where there is nothing to say. */
export function hoverAt(doc: TextDocument, position: Position, customSchema?: CustomSchemaLookup): Hover | null {
  const lines = documentLines(doc);
  const node = nodeAt(lines, position);
  if (node === undefined) return null;
  const range: Range = {
    start: { line: node.line, character: node.start },
    end: { line: node.line, character: node.end },
  };
  const custom = customSchema === undefined ? undefined : customOf(lines, node, customSchema);
  const markdown =
    custom !== undefined
      ? node.at === 'key'
        ? customFieldMarkdown(custom, node)
        : customKindMarkdown(custom, node)
      : node.at === 'key'
        ? fieldMarkdown(lines, node)
        : kindMarkdown(lines, node);
  return markdown === undefined ? null : { contents: { kind: 'markdown', value: markdown }, range };
}

interface CustomDocument {
  readonly apiVersion: string;
  readonly kind: string;
  readonly schema: JSONSchemaProps;
}

/** The CRD schema of the document under the cursor, when a workspace CRD serves its apiVersion and kind. */
function customOf(lines: Lines, node: NodeAt, lookup: CustomSchemaLookup): CustomDocument | undefined {
  const bounds = documentBounds(lines, node.line);
  const apiVersion = rootScalar(lines, bounds, 'apiVersion')?.value;
  const kind = rootScalar(lines, bounds, 'kind')?.value;
  if (apiVersion === undefined || kind === undefined) return undefined;
  const schema = lookup(apiVersion, kind);
  return schema === undefined ? undefined : { apiVersion, kind, schema };
}

/** A custom resource's field: its type, whether required, the CRD's description, its path (ObjectMeta's metadata). */
function customFieldMarkdown(custom: CustomDocument, node: NodeAt): string | undefined {
  if (node.path[0] === 'metadata') {
    const meta = objectMeta();
    if (meta === undefined) return undefined;
    if (node.path.length === 1) return `**metadata** \`ObjectMeta\` *(optional)*\n\n\`metadata\` in \`${custom.kind}\``;
    const found = typeAtPath(meta, node.path.slice(1));
    if (found?.property === undefined || found.parent === undefined) return undefined;
    const required = found.parent.required.includes(node.text) ? 'required' : 'optional';
    const parts = [`**${node.text}** \`${describeType(found.type)}\` *(${required})*`];
    if (found.property.description !== undefined) parts.push(found.property.description);
    parts.push(`\`${fieldPathText(node.path)}\` in \`${custom.kind}\``);
    return parts.join('\n\n');
  }
  const field = customFieldAt(custom.schema, node.path);
  if (field?.parent === undefined) return undefined;
  const required = (field.parent.required ?? []).includes(node.text) ? 'required' : 'optional';
  const parts = [`**${node.text}** \`${describeType(customType(field.schema))}\` *(${required})*`];
  if (field.schema.description !== undefined) parts.push(field.schema.description);
  parts.push(
    `\`${fieldPathText(node.path)}\` in \`${custom.kind}\` (\`${custom.apiVersion}\`, from a CustomResourceDefinition)`,
  );
  return parts.join('\n\n');
}

/** On a custom resource's `kind` or `apiVersion` value: the CRD version schema's description. */
function customKindMarkdown(custom: CustomDocument, node: NodeAt): string | undefined {
  if (node.path.length !== 1 || (node.path[0] !== 'kind' && node.path[0] !== 'apiVersion')) return undefined;
  const parts = [`**${custom.kind}** \`${custom.apiVersion}\``];
  if (custom.schema.description !== undefined) parts.push(custom.schema.description);
  parts.push('Served by a CustomResourceDefinition in the workspace.');
  return parts.join('\n\n');
}

function fieldMarkdown(lines: Lines, node: NodeAt): string | undefined {
  const schema = documentSchema(lines, documentBounds(lines, node.line));
  const found = schema === undefined ? undefined : typeAtPath(schema.definition, node.path);
  if (found?.property === undefined || found.parent === undefined) return undefined;
  const required = found.parent.required.includes(node.text) ? 'required' : 'optional';
  const parts = [`**${node.text}** \`${describeType(found.type)}\` *(${required})*`];
  if (found.property.description !== undefined) parts.push(found.property.description);
  parts.push(`\`${fieldPathText(node.path)}\` in \`${found.parent.title}\``);
  return parts.join('\n\n');
}

/** On the value of the top-level `kind` or `apiVersion`: what the kind is and which versions serve it. */
function kindMarkdown(lines: Lines, node: NodeAt): string | undefined {
  if (node.path.length !== 1 || (node.path[0] !== 'kind' && node.path[0] !== 'apiVersion')) return undefined;
  const bounds = documentBounds(lines, node.line);
  const kind = rootScalar(lines, bounds, 'kind')?.value;
  const apiVersion = rootScalar(lines, bounds, 'apiVersion')?.value;
  if (kind === undefined) return undefined;
  const served = kindsFor(kind).filter((k) => k.removed !== true);
  if (served.length === 0) return undefined;
  const exact = apiVersion === undefined ? undefined : kindEntry(apiVersion, kind);
  const shown = exact !== undefined && exact.removed !== true ? exact : served[served.length - 1];
  const parts = [`**${kind}** \`${shown.apiVersion}\``];
  const description = definition(shown.definition)?.description;
  if (description !== undefined) parts.push(description);
  parts.push(`Served as: ${served.map((k) => `\`${k.apiVersion}\``).join(', ')}`);
  if (apiVersion !== undefined && shown !== exact) parts.push(notServed(apiVersion, kind));
  return parts.join('\n\n');
}

function notServed(apiVersion: string, kind: string): string {
  const removed = removedApi(apiVersion, kind);
  if (removed !== undefined)
    return `\`${apiVersion}\` no longer serves ${kind}: it was removed in Kubernetes ${removed.removedIn}.`;
  return `\`${apiVersion}\` does not serve ${kind}.`;
}
