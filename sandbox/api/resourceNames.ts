/** Resource name classes (upstream `pkg/apis/core/v1/helper`: `IsExtendedResourceName`, `IsScalarResourceName`). */

/** `IsPrefixedNativeResource`: a name in the `kubernetes.io/` domain. */
function isPrefixedNativeResource(name: string): boolean {
  return name.includes('kubernetes.io/');
}

/**
 * `IsExtendedResourceName`: a domain-prefixed name outside `kubernetes.io/` and not a quota's `requests.…` (upstream
 * also checks that `requests.<name>` is a qualified name; API validation already does for pod requests).
 */
export function isExtendedResourceName(name: string): boolean {
  return name.includes('/') && !isPrefixedNativeResource(name) && !name.startsWith('requests.');
}

/**
 * `IsScalarResourceName`: what the scheduler counts besides cpu, memory, ephemeral storage and pods — extended
 * resources, `hugepages-…`, `kubernetes.io/…` resources and `attachable-volumes-…`.
 */
export function isScalarResourceName(name: string): boolean {
  return (
    isExtendedResourceName(name) ||
    name.startsWith('hugepages-') ||
    isPrefixedNativeResource(name) ||
    name.startsWith('attachable-volumes-')
  );
}
