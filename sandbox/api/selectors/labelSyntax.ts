/**
 * Label key and value syntax checks for selectors, with the messages of
 * k8s.io/apimachinery/pkg/util/validation (`IsQualifiedName`,
 * `IsValidLabelValue`) — the same checks admission uses, from `api/names.ts`.
 * Each returns every problem found; an empty list means the input is valid.
 */
export { isQualifiedName as qualifiedNameErrors, isValidLabelValue as labelValueErrors } from '../names';
