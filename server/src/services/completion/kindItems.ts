/**
 * Completions for the two fields that pick the schema: `kind` values (every
 * served kind; choosing one sets `apiVersion` to a version serving it when the
 * document's is missing or wrong) and `apiVersion` values (the versions that
 * serve the document's kind, or every served apiVersion). Removed versions
 * are never offered.
 */
import { CompletionItemKind } from 'vscode-languageserver-types';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { definition, getSchema, kindEntry, kindsFor } from '../../schema/schema';
import type { KindEntry } from '../../schema/types';
import type { CursorContext, RootScalar } from '../yamlPosition';
import { preferredEntry } from './documentSchema';
import { ordinal, replaceRange } from './edits';

/** Served kind names, without the `…List` kinds of kinds that exist on their own; computed once. */
let servedKinds: string[] | undefined;

function kindNames(): string[] {
  if (servedKinds === undefined) {
    const served = new Set(
      getSchema()
        .kinds.filter((k) => k.removed !== true)
        .map((k) => k.kind),
    );
    servedKinds = [...served].filter((k) => !(k.endsWith('List') && served.has(k.slice(0, -'List'.length)))).sort();
  }
  return servedKinds;
}

/** `kind: |` — every kind; `kindLine` is the line of the `kind` key (where a missing apiVersion goes). */
export function kindItems(ctx: CursorContext, apiVersion: RootScalar | undefined, kindLine: number): CompletionItem[] {
  return kindNames().map((kind) => {
    const exact = apiVersion === undefined ? undefined : kindEntry(apiVersion.value, kind);
    const entry = exact !== undefined && exact.removed !== true ? exact : preferredEntry(kind)!;
    const fix = entry === exact ? undefined : apiVersionEdit(entry.apiVersion, apiVersion, kindLine);
    return {
      label: kind,
      kind: CompletionItemKind.Class,
      detail: entry.apiVersion,
      ...documentation(entry),
      filterText: kind,
      textEdit: { range: replaceRange(ctx), newText: `${ctx.needsSpace ? ' ' : ''}${kind}` },
      ...(fix === undefined ? {} : { additionalTextEdits: [fix] }),
    };
  });
}

/** `apiVersion: |` — the versions serving `kind` when it is known, else every served apiVersion. */
export function apiVersionItems(ctx: CursorContext, kind: string | undefined): CompletionItem[] {
  // The preferred (last in the schema's order) version first when the kind is known.
  const serving =
    kind === undefined
      ? []
      : kindsFor(kind)
          .filter((k) => k.removed !== true)
          .reverse();
  const versions =
    serving.length > 0
      ? serving.map((k) => k.apiVersion)
      : [
          ...new Set(
            getSchema()
              .kinds.filter((k) => k.removed !== true)
              .map((k) => k.apiVersion),
          ),
        ].sort();
  return versions.map((v, i) => ({
    label: v,
    kind: CompletionItemKind.Module,
    ...(serving.length > 0 ? { detail: `${kind} ${v}` } : {}),
    sortText: ordinal(i),
    filterText: v,
    textEdit: { range: replaceRange(ctx), newText: `${ctx.needsSpace ? ' ' : ''}${v}` },
  }));
}

function apiVersionEdit(version: string, current: RootScalar | undefined, kindLine: number): TextEdit {
  if (current === undefined)
    return {
      range: { start: { line: kindLine, character: 0 }, end: { line: kindLine, character: 0 } },
      newText: `apiVersion: ${version}\n`,
    };
  const range = {
    start: { line: current.line, character: current.start },
    end: { line: current.line, character: current.end },
  };
  return { range, newText: current.value === '' ? ` ${version}` : version };
}

function documentation(entry: KindEntry): Pick<CompletionItem, 'documentation'> {
  const description = definition(entry.definition)?.description;
  return description === undefined ? {} : { documentation: { kind: 'markdown', value: description } };
}
