import { describe } from 'node:test';
import type { KubeObject } from '../../../sandbox/api/types';
import { cronJob, daemonSet, deployment, job, replicaSet, statefulSet } from './fixtures';
import { variant } from './helpers';
import { runCases } from './cases';

type C = Record<string, unknown>;
const spec = (o: KubeObject): C => o.spec as C;
const tspec = (o: KubeObject): C => (spec(o).template as C).spec as C;

describe('workload rules', () => {
  runCases([
    {
      name: 'selector required',
      obj: variant(deployment, (o) => delete spec(o).selector),
      want: ['workload-selector | spec.selector: Required value'],
    },
    {
      name: 'empty selector',
      obj: variant(replicaSet, (o) => (spec(o).selector = {})),
      want: [
        'workload-selector | spec.selector: Invalid value: &v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    },
    {
      name: 'selector does not match template',
      obj: variant(deployment, (o) => (spec(o).selector = { matchLabels: { app: 'api' } })),
      want: [
        'workload-selector-matches-template | spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    },
    {
      name: 'bad matchExpressions',
      obj: variant(
        statefulSet,
        (o) =>
          (spec(o).selector = {
            matchLabels: { app: 'db' },
            matchExpressions: [
              { key: 'tier', operator: 'In' },
              { key: 'x', operator: 'Exists', values: ['a'] },
              { key: 'y', operator: 'Has' },
            ],
          }),
      ),
      want: [
        "workload-selector | spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        "workload-selector | spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        'workload-selector | spec.selector.matchExpressions[2].operator: Invalid value: "Has": not a valid selector operator',
      ],
    },
    {
      name: 'selector immutable on update',
      obj: variant(deployment, (o) => {
        spec(o).selector = { matchLabels: { app: 'web', v: '2' } };
        ((spec(o).template as C).metadata as C).labels = { app: 'web', v: '2' };
      }),
      old: deployment,
      want: [
        'workload-selector-immutable | spec.selector: Invalid value: &v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "v":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      ],
    },
    {
      name: 'template restartPolicy must be Always',
      obj: variant(deployment, (o) => (tspec(o).restartPolicy = 'Never')),
      want: [
        'workload-restart-policy | spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      ],
    },
    {
      name: 'Job restartPolicy defaults to Always and is rejected',
      obj: variant(job, (o) => delete tspec(o).restartPolicy),
      want: [
        'workload-restart-policy | spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
      ],
    },
    {
      name: 'CronJob restartPolicy defaults to Always and is rejected',
      obj: variant(
        cronJob,
        (o) => delete (((spec(o).jobTemplate as C).spec as C).template as C as { spec: C }).spec.restartPolicy,
      ),
      want: [
        'workload-restart-policy | spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
      ],
    },
    {
      name: 'Job with a podFailurePolicy must not restart OnFailure',
      obj: variant(job, (o) => {
        tspec(o).restartPolicy = 'OnFailure';
        spec(o).podFailurePolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] };
      }),
      want: [
        'workload-restart-policy | spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
      ],
    },
    {
      name: 'negative counts',
      obj: variant(deployment, (o) =>
        Object.assign(spec(o), { replicas: -1, revisionHistoryLimit: -2, minReadySeconds: 700 }),
      ),
      want: [
        'workload-counts | spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        'workload-counts | spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
        'deployment-progress-deadline | spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds',
      ],
    },
    {
      name: 'strategy type',
      obj: variant(deployment, (o) => (spec(o).strategy = { type: 'BlueGreen' })),
      want: [
        'deployment-strategy | spec.strategy.type: Unsupported value: "BlueGreen": supported values: "Recreate", "RollingUpdate"',
      ],
    },
    {
      name: 'rollingUpdate with Recreate',
      obj: variant(deployment, (o) => (spec(o).strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } })),
      want: [
        "deployment-strategy | spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
      ],
    },
    {
      name: 'maxSurge and maxUnavailable',
      obj: variant(
        deployment,
        (o) => (spec(o).strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } }),
      ),
      want: [
        'deployment-strategy | spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0',
      ],
    },
    {
      name: 'bad percentages',
      obj: variant(
        deployment,
        (o) =>
          (spec(o).strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '1.5%', maxUnavailable: '150%' } }),
      ),
      want: [
        "deployment-strategy | spec.strategy.rollingUpdate.maxSurge: Invalid value: \"1.5%\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        'deployment-strategy | spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
      ],
    },
    {
      name: 'StatefulSet policies',
      obj: variant(statefulSet, (o) =>
        Object.assign(spec(o), { podManagementPolicy: 'Fast', updateStrategy: { type: 'Rolling' } }),
      ),
      want: [
        "statefulset-policies | spec.podManagementPolicy: Invalid value: \"Fast\": must be 'OrderedReady' or 'Parallel'",
        "statefulset-policies | spec.updateStrategy.type: Invalid value: \"Rolling\": must be 'RollingUpdate' or 'OnDelete'",
      ],
    },
    {
      name: 'StatefulSet forbidden update',
      obj: variant(statefulSet, (o) => (spec(o).serviceName = 'other')),
      old: statefulSet,
      want: [
        "statefulset-spec-update | spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ],
    },
    {
      name: 'StatefulSet replicas may change',
      obj: variant(statefulSet, (o) => (spec(o).replicas = 5)),
      old: statefulSet,
      want: [],
    },
    {
      name: 'DaemonSet both surge and unavailable',
      obj: variant(
        daemonSet,
        (o) => (spec(o).updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }),
      ),
      want: [
        'daemonset-update-strategy | spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
      ],
    },
    {
      name: 'Job selector without manualSelector, Indexed without completions',
      obj: variant(job, (o) =>
        Object.assign(spec(o), { selector: { matchLabels: { a: 'b' } }, completionMode: 'Indexed', parallelism: 2 }),
      ),
      want: [
        'job-selector | spec.selector: Invalid value: &v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated',
        'job-completion-mode | spec.completions: Required value: when completion mode is Indexed',
      ],
    },
    {
      name: 'manual Job selector must match',
      obj: variant(job, (o) => Object.assign(spec(o), { manualSelector: true, selector: { matchLabels: { a: 'b' } } })),
      want: [
        'workload-selector-matches-template | spec.template.metadata.labels: Invalid value: map[string]string{}: `selector` does not match template `labels`',
      ],
    },
    {
      name: 'Job template immutable',
      obj: variant(job, (o) => (tspec(o).containers = [{ name: 'pi', image: 'perl:5.36' }])),
      old: job,
      want: [
        'job-template-immutable | spec.template: Invalid value: {"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl:5.36","imagePullPolicy":"IfNotPresent","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","resources":{}}],"dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30,"securityContext":{},"schedulerName":"default-scheduler"}}: field is immutable',
      ],
    },
    {
      name: 'CronJob schedule, concurrency, name length',
      obj: variant(cronJob, (o) => {
        o.metadata.name = 'c'.repeat(53);
        Object.assign(spec(o), { schedule: 'TZ=UTC 0 * * *', concurrencyPolicy: 'Sometimes' });
      }),
      want: [
        'cronjob-schedule | spec.schedule: Invalid value: "TZ=UTC 0 * * *": expected exactly 5 fields, found 4: [0 * * *]',
        'cronjob-schedule | spec.schedule: Invalid value: "TZ=UTC 0 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
        'cronjob-concurrency-policy | spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
        `cronjob-name-length | metadata.name: Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`,
      ],
    },
    {
      name: 'CronJob out-of-range minute',
      obj: variant(cronJob, (o) => (spec(o).schedule = '0-70 * * * *')),
      want: [
        'cronjob-schedule | spec.schedule: Invalid value: "0-70 * * * *": end of range (70) above maximum (59): 0-70',
      ],
    },
    { name: 'CronJob descriptors and names', obj: variant(cronJob, (o) => (spec(o).schedule = '@daily')), want: [] },
    { name: 'CronJob month names', obj: variant(cronJob, (o) => (spec(o).schedule = '0 9 1 jan-mar mon')), want: [] },
    {
      name: 'CronJob bad descriptor',
      obj: variant(cronJob, (o) => (spec(o).schedule = '@often')),
      want: ['cronjob-schedule | spec.schedule: Invalid value: "@often": unrecognized descriptor: @often'],
    },
  ]);
});
