/**
 * A StatefulSet's revisions (`newRevision`, `ApplyRevision` in
 * stateful_set_utils.go; `getStatefulSetRevisions` in stateful_set_control.go):
 * the current revision (what `status.currentRevision` names) and the update
 * revision (the set's template now) — found, renumbered or created.
 */
import type { ApiServer } from '../../apiserver/apiServer';
import { cloneJson } from '../../util/json';
import type { Revision } from '../history/controllerHistory';
import {
  createControllerRevision,
  newControllerRevision,
  updateControllerRevision,
} from '../history/controllerHistory';
import {
  equalRevision,
  findEqualRevisions,
  nextRevision,
  templateOfRevision,
  templatePatch,
} from '../history/revisions';
import type { Sts } from './identity';

/** `newRevision`: the template patch, the template's labels, and the set's annotations. */
export function newRevision(set: Sts, revision: number, collisionCount: number): Revision {
  const cr = newControllerRevision(
    set,
    set.spec?.template?.metadata?.labels,
    templatePatch(set.spec?.template),
    revision,
    collisionCount,
  );
  if (set.metadata.annotations) cr.metadata.annotations = { ...set.metadata.annotations };
  return cr;
}

/** `ApplyRevision`: the set with the revision's template. */
export function applyRevision(set: Sts, revision: Revision): Sts {
  const clone = cloneJson(set);
  const template = templateOfRevision(revision);
  if (template && clone.spec) clone.spec.template = template;
  return clone;
}

export interface SetRevisions {
  current: Revision;
  update: Revision;
  collisionCount: number;
}

/**
 * `getStatefulSetRevisions` over `revisions` (sorted): the update revision is the last one when it is equal to the
 * set's template, an older equal one renumbered past the last (a rollback), or a new one; the current revision is the
 * one `status.currentRevision` names, or the update revision when there is none.
 */
export function setRevisions(api: ApiServer, set: Sts, revisions: readonly Revision[]): SetRevisions {
  let collisionCount = set.status?.collisionCount ?? 0;
  let update = newRevision(set, nextRevision(revisions), collisionCount);
  const equal = findEqualRevisions(revisions, update);
  const last = revisions[revisions.length - 1];
  if (equal.length > 0 && equalRevision(last, equal[equal.length - 1])) {
    update = last;
  } else if (equal.length > 0) {
    update = updateControllerRevision(api, equal[equal.length - 1], update.revision);
  } else {
    const created = createControllerRevision(api, set, update, collisionCount);
    update = created.revision;
    collisionCount = created.collisionCount;
  }
  const current = revisions.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
  return { current, update, collisionCount };
}
