/**
 * The writes of upstream's controller history (`realHistory` in
 * pkg/controller/history/controller_history.go), on the API server's verbs:
 * list a controller's revisions, create one under a collision-free name,
 * renumber one, delete one.
 */
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { Selector } from '../../api/selectors/labelSelector';
import type { KubeObject, Typed } from '../../api/types';
import type { Informer } from '../../client/informer';
import { controllerRefOf, newControllerRef } from '../util/owners';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  controllerRevisionName,
  hashControllerRevision,
  revisionBytes,
} from './revisions';

export type Revision = Typed<ControllerRevision>;

/** `ListControllerRevisions`: the revisions of the owner's namespace matching `selector`, owned by it or by nobody. */
export function listControllerRevisions(
  revisions: Informer<Revision>,
  owner: KubeObject,
  selector: Selector,
): Revision[] {
  const out: Revision[] = [];
  for (const r of revisions.cache.list(owner.metadata.namespace ?? '')) {
    if (!selector.matches(r.metadata.labels)) continue;
    const ref = controllerRefOf(r);
    if (!ref || ref.uid === owner.metadata.uid) out.push(r);
  }
  return out;
}

/**
 * `NewControllerRevision`: a revision of `owner` holding `data`, labelled with the template's labels and the hash,
 * named `<owner>-<hash>`.
 */
export function newControllerRevision(
  owner: KubeObject,
  templateLabels: Readonly<Record<string, string>> | undefined,
  data: Record<string, unknown>,
  revision: number,
  collisionCount: number,
): Revision {
  const hash = hashControllerRevision(data, collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(owner.metadata.name ?? '', hash),
      namespace: owner.metadata.namespace,
      labels: { ...templateLabels, [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ownerReferences: [newControllerRef(owner)],
    },
    data,
    revision,
  };
}

/**
 * `CreateControllerRevision`: creates `revision` under `<owner>-<hash>`; when that name is taken by a revision with
 * other data, counts a collision and tries the next hash. Returns the revision stored (an existing one with the same
 * data counts) and the collision count reached.
 */
export function createControllerRevision(
  api: ApiServer,
  owner: KubeObject,
  revision: Revision,
  collisionCount: number,
): { revision: Revision; collisionCount: number } {
  let count = collisionCount;
  for (;;) {
    const name = controllerRevisionName(owner.metadata.name ?? '', hashControllerRevision(revision.data, count));
    const body: Revision = { ...revision, metadata: { ...revision.metadata, name } };
    try {
      return { revision: api.create(body), collisionCount: count };
    } catch (e) {
      if (!isApiError(e, 409)) throw e;
      const existing = api.get('controllerrevisions', owner.metadata.namespace, name);
      if (revisionBytes(existing.data ?? null) === revisionBytes(revision.data ?? null))
        return { revision: existing, collisionCount: count };
      count++;
    }
  }
}

/** `UpdateControllerRevision`: sets the revision number, retrying against a fresh read on conflict. */
export function updateControllerRevision(api: ApiServer, revision: Revision, newRevision: number): Revision {
  let current = revision;
  for (let attempt = 0; ; attempt++) {
    if (current.revision === newRevision) return current;
    try {
      return api.update({ ...current, revision: newRevision });
    } catch (e) {
      if (attempt >= 4 || !isApiError(e, 409)) throw e;
      current = api.get('controllerrevisions', current.metadata.namespace, current.metadata.name ?? '');
    }
  }
}

/** `DeleteControllerRevision`; a revision already gone is not an error. */
export function deleteControllerRevision(api: ApiServer, revision: Revision): void {
  try {
    api.delete('controllerrevisions', revision.metadata.namespace, revision.metadata.name ?? '');
  } catch (e) {
    if (!isApiError(e, 404)) throw e;
  }
}
