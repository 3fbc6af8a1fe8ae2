/**
 * The one check for an admissionregistration.k8s.io object (a ValidatingAdmissionPolicy, its binding) with a field of
 * the wrong JSON type: the API server refuses to store one (apiServer.ts `refuseMistyped`, as upstream's decoding),
 * and a snapshot that holds one, kept by an older build, is refused (snapshot.ts): admission would run it on every
 * later request.
 */
import { POLICY_GROUP } from '../admission/policy/types';
import { typeMismatch } from '../schema/typeCheck';

/**
 * The decoding error of `obj`, an object of the resource group `group`, in Go's words (`json: cannot unmarshal string
 * into Go struct field …`) — or undefined when it decodes, is of another group (the HTTP edge checks every kind:
 * http/handlers/decode.ts `checkBodyTypes`), or has no string apiVersion and kind.
 */
export function mistypedPolicyReason(
  group: string | undefined,
  obj: Readonly<Record<string, unknown>>,
): string | undefined {
  if (group !== POLICY_GROUP || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return undefined;
  return typeMismatch(obj, obj.apiVersion, obj.kind);
}
