/** k8s.io/api/batch/v1: Job and CronJob (`kubectl create job|cronjob`, `job --from=cronjob/…`). */
import type { MessageTable } from '../schema';

export const BATCH: MessageTable = {
  pkg: 'io.k8s.api.batch.v1',
  messages: {
    Job: 'metadata=1:ObjectMeta spec=2:JobSpec status=3:JobStatus',
    JobSpec:
      'parallelism=1:i32? completions=2:i32? activeDeadlineSeconds=3:i64? podFailurePolicy=11:PodFailurePolicy? ' +
      'successPolicy=16:SuccessPolicy? backoffLimit=7:i32? backoffLimitPerIndex=12:i32? maxFailedIndexes=13:i32? ' +
      'selector=4:LabelSelector? manualSelector=5:b? template=6:PodTemplateSpec ttlSecondsAfterFinished=8:i32? ' +
      'completionMode=9:s? suspend=10:b? podReplacementPolicy=14:s? managedBy=15:s?',
    PodFailurePolicy: 'rules=1:[]PodFailurePolicyRule',
    PodFailurePolicyRule:
      'action=1:s! onExitCodes=2:PodFailurePolicyOnExitCodesRequirement? ' +
      'onPodConditions=3:[]PodFailurePolicyOnPodConditionsPattern',
    PodFailurePolicyOnExitCodesRequirement: 'containerName=1:s? operator=2:s! values=3:[]i32',
    PodFailurePolicyOnPodConditionsPattern: 'type=1:s! status=2:s!',
    SuccessPolicy: 'rules=1:[]SuccessPolicyRule',
    SuccessPolicyRule: 'succeededIndexes=1:s? succeededCount=2:i32?',
    JobStatus:
      'conditions=1:[]JobCondition startTime=2:Time? completionTime=3:Time? active=4:i32 succeeded=5:i32 ' +
      'failed=6:i32 terminating=11:i32? completedIndexes=7:s failedIndexes=10:s? ' +
      'uncountedTerminatedPods=8:UncountedTerminatedPods? ready=9:i32?',
    UncountedTerminatedPods: 'succeeded=1:[]s failed=2:[]s',
    JobCondition: 'type=1:s! status=2:s! lastProbeTime=3:Time lastTransitionTime=4:Time reason=5:s message=6:s',
    JobTemplateSpec: 'metadata=1:ObjectMeta spec=2:JobSpec',
    CronJob: 'metadata=1:ObjectMeta spec=2:CronJobSpec status=3:CronJobStatus',
    CronJobSpec:
      'schedule=1:s! timeZone=8:s? startingDeadlineSeconds=2:i64? concurrencyPolicy=3:s suspend=4:b? ' +
      'jobTemplate=5:JobTemplateSpec successfulJobsHistoryLimit=6:i32? failedJobsHistoryLimit=7:i32?',
    CronJobStatus: 'active=1:[]ObjectReference lastScheduleTime=4:Time? lastSuccessfulTime=5:Time?',
  },
};
