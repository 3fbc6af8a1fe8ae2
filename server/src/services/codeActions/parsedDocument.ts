/**
 * One YAML document of a text, parsed on its own (a multi-document file is
 * never parsed as a whole for a quick fix), with the lookups the fixes need:
 * a node by YAML path, and source offsets as LSP positions.
 */
import { isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import type { Node, YAMLMap } from 'yaml';
import type { Position } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { documentBounds, documentLines } from '../yamlLines';
import type { Lines } from '../yamlLines';
import type { YamlPath } from '../yamlPosition';

export interface ParsedDocument {
  readonly lines: Lines;
  /** The root map, when the document is one. */
  readonly root: YAMLMap | undefined;
  /** The position of an offset of the document's own text. */
  position(offset: number): Position;
  /** The document's own text. */
  readonly text: string;
}

/** The document holding line `line` of `doc`. */
export function parseDocumentAt(doc: TextDocument, line: number): ParsedDocument {
  const lines = documentLines(doc);
  const bounds = documentBounds(lines, line);
  const base = doc.offsetAt({ line: bounds.start, character: 0 });
  const end = bounds.end >= lines.count ? doc.getText().length : doc.offsetAt({ line: bounds.end, character: 0 });
  const text = doc.getText().slice(base, end);
  const parsed = parseDocument(text, { uniqueKeys: false });
  const root = isMap(parsed.contents) ? parsed.contents : undefined;
  return { lines, root, text, position: (offset) => doc.positionAt(base + offset) };
}

/** The node at a YAML path below `root` (keys and list indices), or undefined. */
export function nodeAtPath(root: Node, path: YamlPath): Node | undefined {
  let node: Node | undefined = root;
  for (const seg of path) {
    if (isMap(node)) {
      const pair: unknown = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      node = isPair(pair) ? ((pair.value as Node | null) ?? undefined) : undefined;
    } else if (isSeq(node) && typeof seg === 'number') {
      node = (node.items[seg] as Node | null) ?? undefined;
    } else {
      return undefined;
    }
  }
  return node;
}
