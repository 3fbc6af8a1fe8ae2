/**
 * Argo CD's health vocabulary (gitops-engine `pkg/health/health.go`): one code
 * per object, with a message in plain words.
 */

export type HealthStatusCode = 'Healthy' | 'Progressing' | 'Degraded' | 'Suspended' | 'Missing' | 'Unknown';

export interface HealthStatus {
  status: HealthStatusCode;
  /** Why, in plain words; empty when the rule has nothing to add. */
  message: string;
}

/** Most healthy first, as Argo CD orders them when it aggregates an application's health. */
export const HEALTH_ORDER: readonly HealthStatusCode[] = [
  'Healthy',
  'Suspended',
  'Progressing',
  'Missing',
  'Degraded',
  'Unknown',
];

/** True when `next` is a worse condition than `current`. */
export function isWorse(current: HealthStatusCode, next: HealthStatusCode): boolean {
  return HEALTH_ORDER.indexOf(next) > HEALTH_ORDER.indexOf(current);
}

/** The worst of several health results (Healthy with no message when there are none). */
export function worstHealth(all: readonly HealthStatus[]): HealthStatus {
  let worst: HealthStatus = { status: 'Healthy', message: '' };
  for (const h of all) if (isWorse(worst.status, h.status)) worst = h;
  return worst;
}

export function health(status: HealthStatusCode, message = ''): HealthStatus {
  return { status, message };
}

/** Argo CD's sync status of one object against its saved file (see syncStatus.ts). */
export type SyncStatusCode = 'Synced' | 'OutOfSync' | 'Missing' | 'Extra';
