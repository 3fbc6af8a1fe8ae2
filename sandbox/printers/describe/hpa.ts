/**
 * HorizontalPodAutoscalers as autoscaling/v2: metrics (current / target), bounds, behavior and conditions
 * (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — describeHorizontalPodAutoscalerV2,
 * printDirectionBehavior).
 */
import type {
  HorizontalPodAutoscaler,
  HPAScalingRules,
  MetricSpec,
  MetricStatus,
} from 'kubernetes-types/autoscaling/v2';
import type { Typed } from '../../api/types';
import { quantityText, rfc1123z } from './format';
import { annotationsMultiline, labelsMultiline } from './metadata';
import { L0, L1, L2, L3 } from './writer';
import type { PrefixWriter } from './writer';

const UNKNOWN = '<unknown>';

/** Go's `%v` of a *resource.Quantity: its text, `<nil>` when unset. */
function quantityOrNil(q: unknown): string {
  return q === undefined || q === null ? '<nil>' : quantityText(q);
}

/** One line of describeHorizontalPodAutoscalerV2's Metrics section (current / target). */
function hpaMetricLine(w: PrefixWriter, metric: MetricSpec, status: MetricStatus | undefined): void {
  switch (metric.type) {
    case 'External': {
      const e = metric.external!;
      const current = status?.external?.current;
      if (e.target.averageValue !== undefined) {
        const now = current?.averageValue !== undefined ? quantityText(current.averageValue) : UNKNOWN;
        return w.write(
          L1,
          `"${e.metric.name}" (target average value):\t${now} / ${quantityText(e.target.averageValue)}\n`,
        );
      }
      const now = current !== undefined ? quantityOrNil(current.value) : UNKNOWN;
      return w.write(L1, `"${e.metric.name}" (target value):\t${now} / ${quantityOrNil(e.target.value)}\n`);
    }
    case 'Pods': {
      const p = metric.pods!;
      const now = status?.pods !== undefined ? quantityOrNil(status.pods.current.averageValue) : UNKNOWN;
      return w.write(L1, `"${p.metric.name}" on pods:\t${now} / ${quantityOrNil(p.target.averageValue)}\n`);
    }
    case 'Object': {
      const o = metric.object!;
      w.write(L1, `"${o.metric.name}" on ${o.describedObject.kind}/${o.describedObject.name} `);
      const current = status?.object?.current;
      if (o.target.type === 'AverageValue') {
        const now = current !== undefined ? quantityOrNil(current.averageValue) : UNKNOWN;
        return w.write(L0, `(target average value):\t${now} / ${quantityOrNil(o.target.averageValue)}\n`);
      }
      const now = current !== undefined ? quantityOrNil(current.value) : UNKNOWN;
      return w.write(L0, `(target value):\t${now} / ${quantityOrNil(o.target.value)}\n`);
    }
    case 'Resource':
    case 'ContainerResource': {
      const r = metric.type === 'Resource' ? metric.resource! : metric.containerResource!;
      const current = metric.type === 'Resource' ? status?.resource?.current : status?.containerResource?.current;
      const present = metric.type === 'Resource' ? status?.resource : status?.containerResource;
      const container =
        metric.type === 'ContainerResource' ? ` of container "${metric.containerResource!.container}"` : '';
      w.write(L1, `resource ${r.name}${container} on pods`);
      if (r.target.averageValue !== undefined) {
        const now = present !== undefined ? quantityOrNil(current?.averageValue) : UNKNOWN;
        return w.write(L0, `:\t${now} / ${quantityText(r.target.averageValue)}\n`);
      }
      const now =
        current?.averageUtilization !== undefined
          ? `${current.averageUtilization}% (${quantityOrNil(current.averageValue)})`
          : UNKNOWN;
      const want = r.target.averageUtilization !== undefined ? `${r.target.averageUtilization}%` : '<auto>';
      return w.write(L1, `(as a percentage of request):\t${now} / ${want}\n`);
    }
    default:
      return w.write(L1, `<unknown metric type "${metric.type}">\n`);
  }
}

/** printDirectionBehavior. */
function directionBehavior(w: PrefixWriter, direction: string, rules: HPAScalingRules | undefined): void {
  if (!rules) return;
  w.write(L1, `${direction}:\n`);
  if (rules.stabilizationWindowSeconds !== undefined)
    w.write(L2, `Stabilization Window: ${rules.stabilizationWindowSeconds} seconds\n`);
  if ((rules.policies ?? []).length === 0) return;
  w.write(L2, `Select Policy: ${rules.selectPolicy ?? 'Max'}\n`);
  w.write(L2, 'Policies:\n');
  for (const p of rules.policies!)
    w.write(L3, `- Type: ${p.type}\tValue: ${p.value}\tPeriod: ${p.periodSeconds} seconds\n`);
}

/** upstream: describeHorizontalPodAutoscalerV2 (v1 objects are converted to v2 first, as kubectl reads v2). */
export function describeHpa(w: PrefixWriter, hpa: Typed<HorizontalPodAutoscaler>): void {
  const spec = hpa.spec;
  const status = hpa.status;
  w.write(L0, `Name:\t${hpa.metadata.name}\n`);
  w.write(L0, `Namespace:\t${hpa.metadata.namespace}\n`);
  labelsMultiline(w, 'Labels', hpa.metadata.labels);
  annotationsMultiline(w, 'Annotations', hpa.metadata.annotations);
  w.write(L0, `CreationTimestamp:\t${rfc1123z(hpa.metadata.creationTimestamp)}\n`);
  w.write(L0, `Reference:\t${spec?.scaleTargetRef.kind ?? ''}/${spec?.scaleTargetRef.name ?? ''}\n`);
  w.write(L0, 'Metrics:\t( current / target )\n');
  (spec?.metrics ?? []).forEach((m, i) => hpaMetricLine(w, m, status?.currentMetrics?.[i]));
  w.write(L0, `Min replicas:\t${spec?.minReplicas ?? '<unset>'}\n`);
  w.write(L0, `Max replicas:\t${spec?.maxReplicas ?? 0}\n`);
  if (spec?.behavior) {
    w.write(L0, 'Behavior:\n');
    directionBehavior(w, 'Scale Up', spec.behavior.scaleUp);
    directionBehavior(w, 'Scale Down', spec.behavior.scaleDown);
  }
  w.write(L0, `${spec?.scaleTargetRef.kind ?? ''} pods:\t`);
  w.write(L0, `${status?.currentReplicas ?? 0} current / ${status?.desiredReplicas ?? 0} desired\n`);
  if ((status?.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n');
    w.write(L1, 'Type\tStatus\tReason\tMessage\n');
    w.write(L1, '----\t------\t------\t-------\n');
    for (const c of status!.conditions!) w.write(L1, `${c.type}\t${c.status}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
}
