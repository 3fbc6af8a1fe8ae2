/** Test helpers: inline YAML with a `|` cursor marker, and applying text edits. */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, TextEdit } from 'vscode-languageserver-types';

export const URI = 'file:///workspace/manifest.yaml';

/** Lines joined with `\n`, ending with one. */
export const lines = (...ls: string[]): string => `${ls.join('\n')}\n`;

/** The document without the marker, and the marker's position. */
export function withCursor(src: string): { doc: TextDocument; position: Position } {
  const offset = src.indexOf('|');
  if (offset < 0) throw new Error('no | cursor marker');
  const doc = TextDocument.create(URI, 'yaml', 1, src.slice(0, offset) + src.slice(offset + 1));
  return { doc, position: doc.positionAt(offset) };
}

/** `text` with `edits` applied (ranges refer to the original text, as in LSP). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create(URI, 'yaml', 1, text), [...edits]);
}
