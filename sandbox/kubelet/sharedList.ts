/**
 * One shared, frozen copy of a list equal (element by element, `===`) to one seen before: lists a running container
 * keeps that are the same in most pods — where its volumes are mounted, the files of a `kube-api-access` volume (its
 * paths, the namespace's CA and name, the token's stand-in), the parts of its start-up lines — are one list for them
 * all, not one per pod (issue 16). Lists are grouped by a key the caller makes from them (their paths); bounded, so a
 * cluster with many different lists keeps the rest as given. Never mutate what it returns.
 */
const groups = new Map<string, (readonly unknown[])[]>();
const MAX_GROUPS = 1024;
const PER_GROUP = 8;

function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function sharedList<T>(list: readonly T[], key: string): readonly T[] {
  let group = groups.get(key);
  if (group) {
    for (const known of group) if (sameElements(known, list)) return known as readonly T[];
    if (group.length >= PER_GROUP) return list;
  } else {
    if (groups.size >= MAX_GROUPS) return list;
    groups.set(key, (group = []));
  }
  const frozen = Object.freeze(list.slice());
  group.push(frozen);
  return frozen;
}
