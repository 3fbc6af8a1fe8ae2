/** The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds). */
import type { KubeObject } from '../../api/types';
import { isObj } from '../validation/access';

export const DEFAULT_TOLERATION_SECONDS = 300;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

function tolerates(tolerations: unknown[], key: string): boolean {
  return tolerations.some((t) => {
    if (!isObj(t)) return false;
    const k = typeof t.key === 'string' ? t.key : '';
    const effect = typeof t.effect === 'string' ? t.effect : '';
    return (k === key || k === '') && (effect === 'NoExecute' || effect === '');
  });
}

/**
 * Adds `not-ready` and `unreachable` NoExecute tolerations with
 * tolerationSeconds 300 to a Pod that does not already tolerate them.
 */
export function applyDefaultTolerations(pod: KubeObject): void {
  if (!isObj(pod.spec)) return;
  const spec = pod.spec;
  const list: unknown[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const added: unknown[] = [];
  for (const key of [NOT_READY, UNREACHABLE]) {
    if (!tolerates(list, key))
      added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS });
  }
  if (added.length > 0) spec.tolerations = [...list, ...added];
}
