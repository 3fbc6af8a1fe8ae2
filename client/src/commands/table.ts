/**
 * Every command of the extension, by id: one small factory each. package.json
 * contributes exactly these ids plus the apply commands that
 * `apply/registerApply.ts` registers (a unit test holds the lists equal).
 */
import { copyKubeconfigPath, openKubectlTerminal } from './apiCommands';
import type { CommandFactory } from './context';
import { copyAsYaml, revealManifest, showClusterOverview, showDesiredVsActual, showEvents } from './objectCommands';
import { cordon, drain, failNode, recoverNode, uncordon } from './nodeCommands';
import { crashContainer, killPod } from './podCommands';
import { fastForward, pause, reset, resume, sandboxControls, speed, step } from './sandboxCommands';
import { revertLive, sync, updateManifestFromLive } from './syncCommands';
import { openExample, showLog } from './walkthroughCommands';
import { deleteObject, restartRollout, rollBack, scale, setLoad } from './workloadCommands';
import { describe, showLogs, showPreviousLogs } from './inspectCommands';
import {
  deleteSelected,
  filterNamespace,
  filterShowAll,
  filterUnhealthy,
  groupByNamespace,
  groupByNode,
  hideEmptyReplicaSets,
  showEmptyReplicaSets,
} from './treeCommands';

export const COMMANDS: Readonly<Record<string, CommandFactory>> = {
  'kubeReconcile.killPod': killPod,
  'kubeReconcile.crashContainer': crashContainer,
  'kubeReconcile.scale': scale,
  'kubeReconcile.restartRollout': restartRollout,
  'kubeReconcile.rollBack': rollBack,
  'kubeReconcile.setLoad': setLoad,
  'kubeReconcile.delete': deleteObject,
  'kubeReconcile.failNode': failNode,
  'kubeReconcile.recoverNode': recoverNode,
  'kubeReconcile.cordon': cordon,
  'kubeReconcile.uncordon': uncordon,
  'kubeReconcile.drain': drain,
  'kubeReconcile.showDesiredVsActual': showDesiredVsActual,
  'kubeReconcile.showClusterOverview': showClusterOverview,
  'kubeReconcile.showEvents': showEvents,
  'kubeReconcile.copyAsYaml': copyAsYaml,
  'kubeReconcile.revealManifest': revealManifest,
  'kubeReconcile.sync': sync,
  'kubeReconcile.revertLive': revertLive,
  'kubeReconcile.updateManifestFromLive': updateManifestFromLive,
  'kubeReconcile.pause': pause,
  'kubeReconcile.resume': resume,
  'kubeReconcile.step': step,
  'kubeReconcile.speed': speed,
  'kubeReconcile.reset': reset,
  'kubeReconcile.fastForward': fastForward,
  'kubeReconcile.sandboxControls': sandboxControls,
  'kubeReconcile.openExample': openExample,
  'kubeReconcile.showLog': showLog,
  'kubeReconcile.copyKubeconfigPath': copyKubeconfigPath,
  'kubeReconcile.openKubectlTerminal': openKubectlTerminal,
  'kubeReconcile.showLogs': showLogs,
  'kubeReconcile.showPreviousLogs': showPreviousLogs,
  'kubeReconcile.describe': describe,
  'kubeReconcile.deleteSelected': deleteSelected,
  'kubeReconcile.filterUnhealthy': filterUnhealthy,
  'kubeReconcile.filterShowAll': filterShowAll,
  'kubeReconcile.filterNamespace': filterNamespace,
  'kubeReconcile.groupByNode': groupByNode,
  'kubeReconcile.groupByNamespace': groupByNamespace,
  'kubeReconcile.showEmptyReplicaSets': showEmptyReplicaSets,
  'kubeReconcile.hideEmptyReplicaSets': hideEmptyReplicaSets,
};
