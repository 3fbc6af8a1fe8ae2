import { describe } from 'node:test';
import type { KubeObject } from '../../../sandbox/api/types';
import { cronJob, deployment, pod } from './fixtures';
import { variant } from './helpers';
import { runCases } from './cases';

type C = Record<string, unknown>;
const c0 = (o: KubeObject): C => ((o.spec as C).containers as C[])[0];
const spec = (o: KubeObject): C => o.spec as C;
const QTY = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

describe('pod spec rules', () => {
  runCases([
    {
      name: 'containers required',
      obj: variant(pod, (o) => (spec(o).containers = [])),
      want: ['pod-containers-required | spec.containers: Required value'],
    },
    {
      name: 'Deployment without a template',
      obj: variant(deployment, (o) => delete spec(o).template),
      want: [
        'workload-selector-matches-template | spec.template.metadata.labels: Invalid value: map[string]string{}: `selector` does not match template `labels`',
        'pod-containers-required | spec.template.spec.containers: Required value',
      ],
    },
    {
      name: 'container name: missing, duplicate across init containers, bad format',
      obj: variant(pod, (o) => {
        spec(o).initContainers = [
          { name: 'app', image: 'busybox' },
          { name: 'Init_1', image: 'busybox' },
          { image: 'busybox' },
        ];
      }),
      want: [
        "container-name | spec.initContainers[1].name: Invalid value: \"Init_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        'container-name | spec.initContainers[2].name: Required value',
        'container-name | spec.containers[0].name: Duplicate value: "app"',
      ],
    },
    {
      name: 'image required, in a CronJob template path',
      obj: variant(cronJob, (o) => {
        const jt = spec(o).jobTemplate as C;
        (((jt.spec as C).template as C).spec as C).containers = [{ name: 'x' }];
      }),
      want: ['container-image-required | spec.jobTemplate.spec.template.spec.containers[0].image: Required value'],
    },
    {
      name: 'imagePullPolicy enum',
      obj: variant(pod, (o) => (c0(o).imagePullPolicy = 'always')),
      want: [
        'container-image-pull-policy | spec.containers[0].imagePullPolicy: Unsupported value: "always": supported values: "Always", "IfNotPresent", "Never"',
      ],
    },
    {
      name: 'ports: number, host port, protocol, names',
      obj: variant(pod, (o) => {
        c0(o).ports = [
          { name: 'http', containerPort: 0 },
          { name: 'http', containerPort: 70000, hostPort: -1, protocol: 'tcp' },
          { name: 'web--1', containerPort: 81 },
          { name: 'averyveryverylongname', containerPort: 82 },
        ];
      }),
      want: [
        'container-port-number | spec.containers[0].ports[0].containerPort: Required value',
        'container-port-number | spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'container-port-number | spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
        'container-port-protocol | spec.containers[0].ports[1].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"',
        'container-port-name | spec.containers[0].ports[1].name: Duplicate value: "http"',
        'container-port-name | spec.containers[0].ports[2].name: Invalid value: "web--1": must not contain consecutive hyphens',
        'container-port-name | spec.containers[0].ports[3].name: Invalid value: "averyveryverylongname": must be no more than 15 characters',
      ],
    },
    {
      name: 'env names and valueFrom',
      obj: variant(pod, (o) => {
        c0(o).env = [
          { name: '', value: 'x' },
          { name: 'A=B' },
          { name: 'C', value: 'v', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
          { name: 'D', valueFrom: {} },
          { name: 'E', valueFrom: { secretKeyRef: { name: 's' }, configMapKeyRef: { name: 'c', key: 'k' } } },
        ];
      }),
      want: [
        'container-env-name | spec.containers[0].env[0].name: Required value',
        'container-env-name | spec.containers[0].env[0].name: Invalid value: "": environment variable name must be non-empty',
        'container-env-name | spec.containers[0].env[1].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than \'=\'',
        'container-env-value-from | spec.containers[0].env[2].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
        'container-env-value-from | spec.containers[0].env[3].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
        'container-env-value-from | spec.containers[0].env[4].valueFrom: Invalid value: "": may not have more than one field specified at a time',
        'container-env-value-from | spec.containers[0].env[4].valueFrom.secretKeyRef.key: Required value',
      ],
    },
    {
      name: 'resources: parse, name, negative, request above limit, fractional memory warning',
      obj: variant(pod, (o) => {
        c0(o).resources = {
          limits: { cpu: '1', memory: 'abc', gpu: '1' },
          requests: { cpu: '2', memory: '-1', 'ephemeral-storage': '1500m' },
        };
      }),
      want: [
        `container-resources | spec.containers[0].resources.limits[memory]: Invalid value: "abc": ${QTY}`,
        'container-resources | spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers',
        'container-resources | spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0',
        // requests default to limits on a Pod, so the bad limit name shows up under requests too
        'container-resources | spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
        'container-resources | spec.containers[0].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1',
      ],
    },
    {
      name: 'fractional memory is only a warning',
      obj: variant(pod, (o) => (c0(o).resources = { requests: { memory: '0.5Ki' } })),
      want: [],
    },
    {
      name: 'fractional memory bytes are a warning',
      obj: variant(pod, (o) => (c0(o).resources = { requests: { memory: '1500m' } })),
      want: [
        'memory-fractional-bytes | spec.containers[0].resources.requests[memory]: Invalid value: "1500m": fractional byte value is invalid, must be an integer (warning)',
      ],
    },
    {
      name: 'probes',
      obj: variant(pod, (o) => {
        c0(o).livenessProbe = { successThreshold: 2, periodSeconds: -1 };
        c0(o).readinessProbe = { exec: { command: ['true'] }, httpGet: { port: 0 } };
      }),
      want: [
        'container-probes | spec.containers[0].livenessProbe: Required value: must specify a handler type',
        'container-probes | spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
        'container-probes | spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
        'container-probes | spec.containers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 handler type',
        'container-probes | spec.containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive',
      ],
    },
    {
      name: 'volumes and mounts',
      obj: variant(pod, (o) => {
        spec(o).volumes = [
          { name: 'cfg', configMap: { name: 'a' }, secret: { secretName: 'b' } },
          { name: 'cfg', emptyDir: {} },
        ];
        c0(o).volumeMounts = [
          { name: 'data', mountPath: '/data' },
          { name: 'cfg', mountPath: '/data' },
          { name: 'cfg' },
        ];
      }),
      want: [
        'pod-volume-name | spec.volumes[1].name: Duplicate value: "cfg"',
        'pod-volume-source | spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type',
        'container-volume-mounts | spec.containers[0].volumeMounts[0].name: Not found: "data"',
        'container-volume-mounts | spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
        'container-volume-mounts | spec.containers[0].volumeMounts[2].mountPath: Required value',
      ],
    },
    {
      name: 'pod policies',
      obj: variant(pod, (o) => {
        Object.assign(spec(o), {
          restartPolicy: 'Sometimes',
          dnsPolicy: 'Cluster',
          terminationGracePeriodSeconds: -5,
          activeDeadlineSeconds: 0,
          nodeSelector: { 'a b': 'c' },
        });
      }),
      want: [
        'pod-restart-policy | spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'pod-dns-policy | spec.dnsPolicy: Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
        'pod-termination-grace-period | spec.terminationGracePeriodSeconds: Invalid value: -5: must be greater than or equal to 0',
        'pod-active-deadline-seconds | spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
        "pod-node-selector | spec.nodeSelector: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    },
    {
      name: 'tolerations',
      obj: variant(pod, (o) => {
        spec(o).tolerations = [
          { key: 'k', operator: 'Exists', value: 'v' },
          { operator: 'Equal', value: 'x' },
          { key: 'k', operator: 'In', effect: 'NoRun' },
          { key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 10 },
        ];
      }),
      want: [
        'pod-tolerations | spec.tolerations[0].operator: Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\'',
        'pod-tolerations | spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        'pod-tolerations | spec.tolerations[2].operator: Unsupported value: "In": supported values: "Equal", "Exists"',
        'pod-tolerations | spec.tolerations[2].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        'pod-tolerations | spec.tolerations[3].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      ],
    },
  ]);
});
