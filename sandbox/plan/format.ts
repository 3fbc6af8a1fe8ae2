/** The plan as text, for a terminal (`kube-reconcile plan`, `-o text`); the JSON form is the report itself. */
import { isEndpointLoss } from './plan';
import type { PlanReport, PlanRollout, PlanWorkload } from './types';

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function rolloutLines(r: PlanRollout): string[] {
  const strategy =
    r.strategy === 'Recreate'
      ? `recreate, ${plural(r.replicas, 'replica')}`
      : `rolling update, ${plural(r.replicas, 'replica')} (maxSurge ${r.maxSurge}, maxUnavailable ${r.maxUnavailable})`;
  const outcome = r.outcome === 'complete' ? 'complete' : r.outcome === 'stuck' ? 'STUCK' : 'still progressing';
  const lines = [
    `  ${r.deployment}: ${strategy}: ${plural(r.podsCreated, 'pod')} created, ${r.podsDeleted} deleted, ` +
      `peak surge ${r.peakSurge}, peak unavailable ${r.peakUnavailable}, ${seconds(r.durationMs)}; ${outcome}` +
      (r.outcome !== 'complete' && r.message ? `: ${r.message}` : ''),
  ];
  for (const rs of r.replicaSets)
    lines.push(`    ${rs.name}  revision ${rs.revision || '?'}  ${plural(rs.replicas, 'replica')}`);
  return lines;
}

function workloadLine(w: PlanWorkload): string {
  const pods = `${plural(w.podsCreated, 'pod')} created, ${w.podsDeleted} deleted, ${seconds(w.durationMs)}`;
  const where =
    w.kind === 'StatefulSet'
      ? `${w.updated}/${w.replicas} updated, ${w.ready} ready` +
        ((w.replaced ?? []).length > 0 ? `; replaced in order: ${w.replaced!.join(', ')}` : '')
      : w.kind === 'DaemonSet'
        ? `${w.nodesCovered}/${w.nodesDesired} nodes covered, ${w.updated} updated`
        : `${w.succeeded}/${w.completions} completions, ${w.failed} failed`;
  const outcome = w.outcome === 'complete' ? 'complete' : w.outcome === 'failed' ? 'FAILED' : 'still progressing';
  return `  ${w.kind.toLowerCase()} ${w.workload}: ${pods}; ${where}; ${outcome}${w.message ? `: ${w.message}` : ''}`;
}

export function formatPlanText(report: PlanReport): string {
  const out: string[] = [];
  for (const o of report.objects) {
    const where = o.namespace && o.namespace !== 'default' ? ` -n ${o.namespace}` : '';
    out.push(`${o.ref}${where} ${o.action} (${o.source})${o.message ? `: ${o.message}` : ''}`);
    if (o.diff) out.push(o.diff.replace(/\n$/, ''));
  }
  if (report.rollouts.length > 0) out.push('', 'Rollouts:', ...report.rollouts.flatMap(rolloutLines));
  if (report.workloads.length > 0) out.push('', 'Workloads:', ...report.workloads.map(workloadLine));
  if (report.pending.length > 0) {
    out.push('', 'Pending:');
    for (const p of report.pending) out.push(`  ${p.pod}${p.owner ? ` (${p.owner})` : ''}: ${p.message}`);
  }
  if (report.containers.length > 0) {
    out.push('', 'Containers:');
    for (const c of report.containers) {
      const what =
        c.problem === 'crashloop' ? 'CrashLoopBackOff' : `${c.problem} probe failing${c.restarts ? ', restarted' : ''}`;
      const exit = c.exitCode !== undefined ? `; last exit code ${c.exitCode}${c.reason ? ` (${c.reason})` : ''}` : '';
      out.push(
        `  ${c.owner} container ${c.container}${c.init ? ' (init)' : ''}: ${what} in ${plural(c.pods, 'pod')}: ` +
          `${c.message}${exit}`,
      );
      if (c.lastLogLine !== undefined) out.push(`    last log line: ${c.lastLogLine}`);
    }
  }
  if (report.capacity && report.capacity.length > 0) {
    out.push('', 'Free for Pending pods (allocatable less the requests of other pods):');
    for (const c of report.capacity) {
      const nodes = c.nodes.map(
        (n) => `${n.node} cpu ${n.free.cpu}, memory ${n.free.memory}${n.blocked ? ` (${n.blocked.join(', ')})` : ''}`,
      );
      out.push(`  ${c.owner} (a pod requests cpu ${c.request.cpu}, memory ${c.request.memory}): ${nodes.join('; ')}`);
    }
  }
  if (report.services.length > 0) {
    out.push('', 'Services (ready endpoints):');
    for (const s of report.services) {
      const change = s.before === undefined ? `${s.after}` : `${s.before} → ${s.after}`;
      const warn = isEndpointLoss(s) ? ' — no ready endpoints' : '';
      out.push(`  ${s.service}: ${change} (fewest ${s.min})${warn}`);
    }
  }
  if (report.disruptionBudgets.length > 0) {
    out.push('', 'PodDisruptionBudgets allowing no disruption (an eviction would be refused):');
    for (const b of report.disruptionBudgets)
      out.push(
        `  ${b.pdb}: ${b.currentHealthy} healthy of ${b.expectedPods}, ${b.desiredHealthy} required` +
          (b.before !== undefined ? ` (allowed ${b.before} before)` : ''),
      );
  }
  if (report.unsettled.length > 0) out.push('', 'Not converged:', ...report.unsettled.map((l) => `  ${l}`));
  out.push('', `Plan: ${report.verdict}`);
  return `${out.join('\n')}\n`;
}
