/**
 * `kubectl get hpa` (upstream `printHorizontalPodAutoscaler`, `formatHPAMetrics`). Upstream prints the internal
 * version, so an `autoscaling/v1` object is converted first: both versions print the same row.
 */
import type {
  HorizontalPodAutoscaler,
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
} from 'kubernetes-types/autoscaling/v2';
import type { KubeObject, Typed } from '../../api/types';
import { hpaToV2 } from '../../apiserver/conversion';
import type { KindPrinter, TableCell } from '../table';
import { AGE_COLUMN, NAME_COLUMN, age, col, int } from '../table';

const UNKNOWN = '<unknown>';

function valueOrAverage(target: MetricTarget, current: MetricValueStatus | undefined): string {
  if (target.averageValue !== undefined) return `${current?.averageValue ?? UNKNOWN}/${target.averageValue} (avg)`;
  return `${current?.value ?? UNKNOWN}/${target.value ?? ''}`;
}

function resourceText(name: string, target: MetricTarget, current: MetricValueStatus | undefined): string {
  if (target.averageValue !== undefined) return `${name}: ${current?.averageValue ?? UNKNOWN}/${target.averageValue}`;
  const now = current?.averageUtilization !== undefined ? `${current.averageUtilization}%` : UNKNOWN;
  const want = target.averageUtilization !== undefined ? `${target.averageUtilization}%` : '<auto>';
  return `${name}: ${now}/${want}`;
}

function metricText(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External':
      return valueOrAverage(spec.external!.target, status?.external?.current);
    case 'Pods':
      return `${status?.pods?.current.averageValue ?? UNKNOWN}/${spec.pods!.target.averageValue ?? ''}`;
    case 'Object':
      return valueOrAverage(spec.object!.target, status?.object?.current);
    case 'Resource':
      return resourceText(spec.resource!.name, spec.resource!.target, status?.resource?.current);
    case 'ContainerResource':
      return resourceText(
        spec.containerResource!.name,
        spec.containerResource!.target,
        status?.containerResource?.current,
      );
    default:
      return '<unknown type>';
  }
}

/** The TARGETS cell: at most two metrics, then `+ N more...`; `<none>` without metrics. */
function formatMetrics(
  specs: readonly MetricSpec[] | undefined,
  statuses: readonly MetricStatus[] | undefined,
): string {
  const list = specs ?? [];
  if (list.length === 0) return '<none>';
  const texts = list.map((s, i) => metricText(s, statuses?.[i]));
  const max = 2;
  return texts.length > max ? `${texts.slice(0, max).join(', ')} + ${texts.length - max} more...` : texts.join(', ');
}

export const hpaPrinter: KindPrinter<Typed<HorizontalPodAutoscaler>> = {
  columns: [
    NAME_COLUMN,
    col('Reference', 'string', 'scaleTargetRef points to the target resource to scale.'),
    col(
      'Targets',
      'string',
      'metrics contains the specifications for which to use to calculate the desired replica count.',
    ),
    col(
      'MinPods',
      'string',
      'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.',
    ),
    col(
      'MaxPods',
      'string',
      'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.',
    ),
    col('Replicas', 'string', 'currentReplicas is current number of replicas of pods managed by this autoscaler.'),
    AGE_COLUMN,
  ],
  row(obj: Typed<HorizontalPodAutoscaler>, now: number): TableCell[] {
    const hpa = (
      (obj.apiVersion as string) === 'autoscaling/v1' ? hpaToV2(obj as KubeObject) : obj
    ) as Typed<HorizontalPodAutoscaler>;
    const ref = hpa.spec?.scaleTargetRef;
    const min = hpa.spec?.minReplicas;
    return [
      hpa.metadata.name ?? '',
      `${ref?.kind ?? ''}/${ref?.name ?? ''}`,
      formatMetrics(hpa.spec?.metrics, hpa.status?.currentMetrics),
      min === undefined || min === null ? '<unset>' : String(min),
      int(hpa.spec?.maxReplicas),
      int(hpa.status?.currentReplicas),
      age(hpa, now),
    ];
  },
};
