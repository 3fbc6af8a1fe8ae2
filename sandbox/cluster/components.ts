/**
 * The kube-controller-manager of the sandbox: every controller, in the order
 * they start. The scheduler and kubelets are created by the Cluster itself.
 */
import type { Component, ComponentContext } from '../client/component';
import { ReplicaSetController } from '../controllers/replicaset/replicaSetController';
import { DeploymentController } from '../controllers/deployment/deploymentController';
import { GarbageCollector } from '../controllers/garbagecollector/garbageCollector';
import { NamespaceController } from '../controllers/namespace/namespaceController';
import { NodeLifecycleController } from '../controllers/nodelifecycle/nodeLifecycleController';
import { TaintEvictionController } from '../controllers/nodelifecycle/taintEvictionController';
import { JobController } from '../controllers/job/jobController';
import { CronJobController } from '../controllers/cronjob/cronJobController';
import { TtlAfterFinishedController } from '../controllers/ttlafterfinished/ttlAfterFinishedController';
import { ResourceQuotaController } from '../controllers/resourcequota/resourceQuotaController';
import { EndpointSliceController } from '../controllers/endpointslice/endpointSliceController';
import { EndpointsController } from '../controllers/endpointslice/endpointsController';
import { DisruptionController } from '../controllers/disruption/disruptionController';
import { HorizontalPodAutoscalerController } from '../controllers/podautoscaler/hpaController';
import { PersistentVolumeController } from '../controllers/volume/persistentVolumeController';
import { StatefulSetController } from '../controllers/statefulset/statefulSetController';
import { DaemonSetController } from '../controllers/daemonset/daemonSetController';
import { CrdCleanupController } from '../controllers/crdcleanup/crdCleanupController';
import { PodGcController } from '../controllers/podgc/podGcController';
import { ServiceAccountsController } from '../controllers/serviceaccount/serviceAccountsController';
import { RootCaPublisher } from '../controllers/serviceaccount/rootCaPublisher';

export function controllerComponents(ctx: ComponentContext): Component[] {
  return [
    new DeploymentController(ctx),
    new ReplicaSetController(ctx),
    new ReplicaSetController(ctx, { kind: 'ReplicationController' }),
    new StatefulSetController(ctx),
    new DaemonSetController(ctx),
    new JobController(ctx),
    new CronJobController(ctx),
    new TtlAfterFinishedController(ctx),
    new ResourceQuotaController(ctx),
    new EndpointSliceController(ctx),
    new EndpointsController(ctx),
    new GarbageCollector(ctx),
    new NamespaceController(ctx),
    new ServiceAccountsController(ctx),
    new RootCaPublisher(ctx),
    new NodeLifecycleController(ctx),
    new TaintEvictionController(ctx),
    new PodGcController(ctx),
    new DisruptionController(ctx),
    new CrdCleanupController(ctx),
    new HorizontalPodAutoscalerController(ctx),
    new PersistentVolumeController(ctx),
  ];
}
