/**
 * The text form of an object's chain (`kube-reconcile simulate --explain`): one line per step — virtual time since
 * the run started, the component, what it did and why, and for an apply the manifest's `file:line` —
 *
 *   0.000s  apply                  deployment/web configured (resourceVersion 812) — web.yaml:17 image a → b
 *   0.000s  deployment-controller  ScalingReplicaSet: Scaled up replica set web-7c9f from 0 to 1 (new template)
 */
import type { TimelineEntry } from './timeline';

export interface ExplainFormatOptions {
  /** Clock time the times count from (the start of the run). */
  start: number;
  /** More to say about an entry (the scheduler's per-node results for the pod's binding), or undefined. */
  detail?(entry: TimelineEntry): string | undefined;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)}s`;
}

export function describeEntry(e: TimelineEntry): string {
  switch (e.type) {
    case 'apply': {
      const rv = e.resourceVersion ? ` (resourceVersion ${e.resourceVersion})` : '';
      // A revert's message (self-heal, Revert Live to Manifest) names its source already (`… from web.yaml:16`).
      const where = e.source && e.what !== 'self-heal' && e.what !== 'revert' ? ` — ${e.source}` : e.why ? ' —' : '';
      return `${e.message}${rv}${where}${e.why ? ` ${e.why}` : ''}`;
    }
    case 'write': {
      const rv = e.resourceVersion ? ` (resourceVersion ${e.resourceVersion})` : '';
      const text = e.message || `${e.what} ${e.subject.kind.toLowerCase()}/${e.subject.name}`;
      return `${text}${rv}${e.manager ? ` by ${e.manager}` : ''}`;
    }
    case 'transition':
      return `${e.subject.kind.toLowerCase()}/${e.subject.name} ${e.message}${e.why ? ` (${e.why})` : ''}`;
    case 'decision': {
      const level = e.level === 'Warning' ? 'Warning ' : '';
      return `${level}${e.what}: ${e.message}${e.why ? ` (${e.why})` : ''}`;
    }
  }
}

export function formatExplain(
  entries: readonly TimelineEntry[],
  options: ExplainFormatOptions,
  truncated = false,
): string[] {
  const times = entries.map((e) => seconds(e.time - options.start));
  const timeWidth = Math.max(0, ...times.map((t) => t.length));
  const compWidth = Math.max(0, ...entries.map((e) => e.component.length));
  const lines: string[] = [];
  if (truncated) lines.push('(earlier steps were dropped: the timeline keeps its most recent entries only)');
  entries.forEach((e, i) => {
    const detail = options.detail?.(e);
    const text = `${describeEntry(e)}${detail ? ` ${detail}` : ''}`;
    lines.push(`${times[i].padStart(timeWidth)}  ${e.component.padEnd(compWidth)}  ${text}`);
  });
  return lines;
}
