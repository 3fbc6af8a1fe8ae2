/**
 * Strategic merge patch (application/strategic-merge-patch+json). Being written
 * in this session; until then a strategic patch is refused with 415.
 */
import { ApiError } from '../errors';

export function applyStrategicMergePatch(_target: unknown, _patch: Record<string, unknown>): unknown {
  throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'strategic merge patch is not supported yet', reason: 'UnsupportedMediaType', code: 415 });
}
