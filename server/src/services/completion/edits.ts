/** Small builders shared by the completion item factories. */
import type { Range } from 'vscode-languageserver-types';
import type { CursorContext } from '../yamlPosition';

/** The range of the word being completed. */
export function replaceRange(ctx: CursorContext): Range {
  return { start: { line: ctx.line, character: ctx.replaceStart }, end: { line: ctx.line, character: ctx.replaceEnd } };
}

/** `text` escaped for a snippet's literal text (`$`, `}` and `\` are special). */
export function snippetText(text: string): string {
  return text.replace(/[$}\\]/g, '\\$&');
}

/** `text` escaped for a snippet choice (`,` and `|` also separate choices). */
export function choiceText(text: string): string {
  return text.replace(/[$}\\,|]/g, '\\$&');
}

/** A sort key that keeps `index` order under string comparison. */
export function ordinal(index: number): string {
  return String(index).padStart(4, '0');
}
