/** k8s.io/api/apps/v1: Deployment (what `kubectl create deployment` sends). */
import type { MessageTable } from '../schema';

export const APPS: MessageTable = {
  pkg: 'io.k8s.api.apps.v1',
  messages: {
    Deployment: 'metadata=1:ObjectMeta spec=2:DeploymentSpec status=3:DeploymentStatus',
    DeploymentSpec:
      'replicas=1:i32? selector=2:LabelSelector? template=3:PodTemplateSpec strategy=4:DeploymentStrategy ' +
      'minReadySeconds=5:i32 revisionHistoryLimit=6:i32? paused=7:b progressDeadlineSeconds=9:i32?',
    DeploymentStrategy: 'type=1:s rollingUpdate=2:RollingUpdateDeployment?',
    RollingUpdateDeployment: 'maxUnavailable=1:IntOrString? maxSurge=2:IntOrString?',
    DeploymentStatus:
      'observedGeneration=1:i64 replicas=2:i32 updatedReplicas=3:i32 readyReplicas=7:i32 availableReplicas=4:i32 ' +
      'unavailableReplicas=5:i32 terminatingReplicas=9:i32? conditions=6:[]DeploymentCondition collisionCount=8:i32?',
    DeploymentCondition: 'type=1:s! status=2:s! lastUpdateTime=6:Time lastTransitionTime=7:Time reason=4:s message=5:s',
  },
};
