/**
 * Recognises the 403 a create gets in a namespace that is being deleted
 * (`apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause)`): controllers
 * treat it as nothing to do rather than as a failure.
 */
import { isApiError } from '../../api/errors';

export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

export function isNamespaceTerminatingError(e: unknown): boolean {
  if (!isApiError(e, 403)) return false;
  if (e.status.details?.causes?.some((c) => c.reason === NAMESPACE_TERMINATING_CAUSE)) return true;
  // The sandbox's admission may not attach the cause; its message is the upstream one.
  return e.status.message.includes('because it is being terminated');
}
