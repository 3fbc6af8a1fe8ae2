/**
 * The short result of an apply, for the status bar and the reconciliation
 * log: `web.yaml applied: 1 configured, 1 unchanged`, `web.yaml not applied:
 * 1 rejected`. Counts kubectl's actions per document, then what the file's
 * removal or edit pruned or handed back to another file.
 */
import type { ApplyReply } from '../sandbox/protocol';

/** `1 configured, 1 unchanged, 1 pruned`; `nothing to apply` when the reply is empty. */
export function applyCounts(
  reply: Pick<ApplyReply, 'pruned' | 'reapplied'> & Partial<Pick<ApplyReply, 'outcomes'>>,
): string {
  const outcomes = reply.outcomes ?? [];
  const count = (n: number, what: string): string[] => (n > 0 ? [`${n} ${what}`] : []);
  const by = (action: string) => outcomes.filter((o) => o.ok && o.action === action).length;
  const parts = [
    ...count(by('created'), 'created'),
    ...count(by('configured'), 'configured'),
    ...count(by('unchanged'), 'unchanged'),
    ...count(outcomes.filter((o) => !o.ok).length, 'rejected'),
    ...count(reply.pruned.length, 'pruned'),
    ...count(reply.reapplied?.length ?? 0, 're-applied from another file'),
  ];
  return parts.length > 0 ? parts.join(', ') : 'nothing to apply';
}

/** The status-bar line after an apply, and whether everything in it was accepted. */
export function applySummary(file: string, reply: ApplyReply): { text: string; ok: boolean } {
  const rejected = reply.outcomes.filter((o) => !o.ok).length;
  const applied = reply.outcomes.length - rejected;
  if (rejected > 0 && applied === 0 && reply.pruned.length === 0 && !reply.reapplied?.length)
    return { text: `${file} not applied: ${rejected} rejected by the API server`, ok: false };
  return { text: `${file} ${rejected > 0 ? 'partly applied' : 'applied'}: ${applyCounts(reply)}`, ok: rejected === 0 };
}

/** `1 error`, `2 errors`. */
export function errorCount(n: number): string {
  return `${n} error${n === 1 ? '' : 's'}`;
}
