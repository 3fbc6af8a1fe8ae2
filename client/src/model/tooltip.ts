/**
 * Tooltips of the cluster tree: the object's kind and name, then every
 * column of its `kubectl get -o wide` row, as Markdown.
 */
import type { KubeObject } from '../../../sandbox/api/types';
import { wideRow } from './cells';

/** Escapes the characters Markdown would otherwise interpret in a value. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

/** `**Pod** default/web-1` then one `Column: value` line per non-empty column (the NAME column left out). */
export function objectTooltip(obj: KubeObject, now: number, extra: readonly string[] = []): string {
  const name = obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : (obj.metadata.name ?? '');
  const lines = [`**${obj.kind}** ${escapeMarkdown(name)}`, ''];
  for (const c of wideRow(obj, now)) {
    const value = String(c.value);
    if (c.column === 'Name' || value === '' || value === '<none>' || value === '<unknown>') continue;
    lines.push(`- ${c.column}: ${escapeMarkdown(value)}`);
  }
  for (const e of extra) lines.push(`- ${escapeMarkdown(e)}`);
  return lines.join('\n');
}
