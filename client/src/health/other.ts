/**
 * Health of Services, Ingresses, PersistentVolumeClaims, Jobs and
 * HorizontalPodAutoscalers as Argo CD judges them (gitops-engine
 * `health_service.go`, `health_ingress.go`, `health_pvc.go`, `health_job.go`,
 * `health_hpa.go`).
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { PersistentVolumeClaim, Service } from 'kubernetes-types/core/v1';
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2';
import type { Ingress } from 'kubernetes-types/networking/v1';
import { health, type HealthStatus } from './types';

/** Only a LoadBalancer Service waits for something: its external address. */
export function serviceHealth(svc: Service): HealthStatus {
  if (svc.spec?.type !== 'LoadBalancer') return health('Healthy');
  return health((svc.status?.loadBalancer?.ingress?.length ?? 0) > 0 ? 'Healthy' : 'Progressing');
}

export function ingressHealth(ing: Ingress): HealthStatus {
  return health((ing.status?.loadBalancer?.ingress?.length ?? 0) > 0 ? 'Healthy' : 'Progressing');
}

export function pvcHealth(pvc: PersistentVolumeClaim): HealthStatus {
  switch (pvc.status?.phase) {
    case 'Lost':
      return health('Degraded');
    case 'Pending':
      return health('Progressing');
    case 'Bound':
      return health('Healthy');
  }
  return health('Unknown');
}

export function jobHealth(job: Job): HealthStatus {
  let complete = false;
  let failed: string | undefined;
  let suspended: string | undefined;
  let message = '';
  for (const c of job.status?.conditions ?? []) {
    if (c.type === 'Failed' && c.status === 'True') failed = c.message ?? '';
    else if (c.type === 'Complete' && c.status === 'True') {
      complete = true;
      message = c.message ?? '';
    } else if (c.type === 'Suspended' && c.status === 'True') suspended = c.message ?? '';
  }
  if (failed !== undefined) return health('Degraded', failed);
  if (complete) return health('Healthy', message);
  if (suspended !== undefined) return health('Suspended', suspended);
  return health('Progressing', message);
}

const DEGRADED_HPA = new Set([
  'AbleToScale/FailedGetScale',
  'AbleToScale/FailedUpdateScale',
  'ScalingActive/FailedGetResourceMetric',
  'ScalingActive/InvalidSelector',
]);
const HEALTHY_HPA = new Set([
  'AbleToScale/SucceededRescale',
  'ScalingLimited/DesiredWithinRange',
  'ScalingLimited/TooFewReplicas',
  'ScalingLimited/TooManyReplicas',
]);

/** The first condition that says degraded or healthy decides; none means it has not scaled yet. */
export function hpaHealth(hpa: HorizontalPodAutoscaler): HealthStatus {
  for (const c of hpa.status?.conditions ?? []) {
    const key = `${c.type}/${c.reason ?? ''}`;
    if (DEGRADED_HPA.has(key)) return health('Degraded', c.message ?? '');
    if (HEALTHY_HPA.has(key)) return health('Healthy', c.message ?? '');
  }
  return health('Progressing', 'Waiting to Autoscale');
}
