import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { validateManifestText } from '../../../server/src/services/validateDocument';
import type { SchemaDiagnosticData } from '../../../server/src/services/schemaRules';

/**
 * An expected diagnostic: 0-based range, Error unless `severity` is 2 (Warning), with the schema payload when given.
 */
function d(
  line: number,
  from: number,
  to: number,
  code: string,
  message: string,
  data?: SchemaDiagnosticData,
  severity: 1 | 2 = 1,
): Diagnostic {
  const out: Diagnostic = {
    range: { start: { line, character: from }, end: { line, character: to } },
    severity,
    code,
    source: 'kube-reconcile',
    message,
  };
  return data === undefined ? out : { ...out, data };
}

const lines = (...ls: string[]): string => `${ls.join('\n')}\n`;

/** A valid Deployment whose container gets `extra` lines (indented under `- name: web`). */
const deployment = (...extra: string[]): string =>
  lines(
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    'spec:',
    '  selector:',
    '    matchLabels: {app: web}',
    '  template:',
    '    metadata:',
    '      labels: {app: web}',
    '    spec:',
    '      containers:',
    '        - name: web',
    '          image: nginx',
    ...extra.map((l) => `          ${l}`),
  );

const CONTAINER = ['spec', 'template', 'spec', 'containers', 0];
const QUANTITY_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const CASES: Array<{ name: string; text: string; expected: Diagnostic[] }> = [
  {
    name: 'unknown-field: a typo in a container, with the suggestion on the key',
    text: deployment('poarts:', '  - containerPort: 80'),
    expected: [
      d(14, 10, 16, 'unknown-field', 'Unknown field "poarts" in Container; did you mean "ports"?', {
        rule: 'unknown-field',
        path: [...CONTAINER, 'poarts'],
        field: 'poarts',
        parent: 'Container',
        replacement: 'ports',
      }),
    ],
  },
  {
    name: 'unknown-field: wrong case is suggested, a far-off name is not; at the root and in metadata too',
    text: lines(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: a',
      '  Labels: {}',
      'dataa: {}',
      'frobnicate: true',
    ),
    expected: [
      d(4, 2, 8, 'unknown-field', 'Unknown field "Labels" in ObjectMeta; did you mean "labels"?', {
        rule: 'unknown-field',
        path: ['metadata', 'Labels'],
        field: 'Labels',
        parent: 'ObjectMeta',
        replacement: 'labels',
      }),
      d(5, 0, 5, 'unknown-field', 'Unknown field "dataa" in ConfigMap; did you mean "data"?', {
        rule: 'unknown-field',
        path: ['dataa'],
        field: 'dataa',
        parent: 'ConfigMap',
        replacement: 'data',
      }),
      d(6, 0, 10, 'unknown-field', 'Unknown field "frobnicate" in ConfigMap', {
        rule: 'unknown-field',
        path: ['frobnicate'],
        field: 'frobnicate',
        parent: 'ConfigMap',
      }),
    ],
  },
  {
    name: 'unknown-field: map keys are free and free-form JSON is not checked',
    text: lines(
      'apiVersion: apps/v1',
      'kind: ControllerRevision',
      'metadata:',
      '  name: r1',
      '  labels: {anything-goes: "yes"}',
      'revision: 1',
      'data: {whatever: {nested: [1, 2]}}',
    ),
    expected: [],
  },
  {
    name: 'wrong-type: unquoted numbers and YAML 1.1 booleans where a string is required, with the quoted replacement',
    text: lines(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: a',
      '  labels:',
      '    version: 1.0',
      'data:',
      '  port: 8080',
      '  debug: yes',
      '  ok: "8080"',
    ),
    expected: [
      d(
        5,
        13,
        16,
        'wrong-type',
        'Expected string, got number 1.0; quote it: "1.0" (the API server answers: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string)',
        {
          rule: 'wrong-type',
          path: ['metadata', 'labels', 'version'],
          expected: 'string',
          replacement: '"1.0"',
        },
      ),
      d(
        7,
        8,
        12,
        'wrong-type',
        'Expected string, got integer 8080; quote it: "8080" (the API server answers: json: cannot unmarshal number into Go struct field ConfigMap.data of type string)',
        {
          rule: 'wrong-type',
          path: ['data', 'port'],
          expected: 'string',
          replacement: '"8080"',
        },
      ),
      d(
        8,
        9,
        12,
        'wrong-type',
        'Expected string, got boolean yes; quote it: "yes" (the API server answers: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string)',
        {
          rule: 'wrong-type',
          path: ['data', 'debug'],
          expected: 'string',
          replacement: '"yes"',
        },
      ),
    ],
  },
  {
    name: 'wrong-type: env value 1 in a pod template names the Go struct field',
    text: deployment('env:', '  - name: WORKERS', '    value: 1'),
    expected: [
      d(
        16,
        21,
        22,
        'wrong-type',
        'Expected string, got integer 1; quote it: "1" (the API server answers: json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string)',
        {
          rule: 'wrong-type',
          path: [...CONTAINER, 'env', 0, 'value'],
          expected: 'string',
          replacement: '"1"',
        },
      ),
    ],
  },
  {
    name: 'wrong-type: string for an integer, list for a map, map for a list, a float for IntOrString, a bad Quantity',
    text: lines(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      '  annotations: [a, b]',
      'spec:',
      '  replicas: "3"',
      '  strategy:',
      '    rollingUpdate: {maxSurge: 1.5, maxUnavailable: 25%}',
      '  selector:',
      '    matchLabels: {app: web}',
      '  template:',
      '    metadata:',
      '      labels: {app: web}',
      '    spec:',
      '      containers:',
      '        - name: web',
      '          image: nginx',
      '          args: {verbose: true}',
      '          resources:',
      '            limits: {cpu: 2 cores, memory: 1Gi}',
      '            requests: {cpu: 0.5, memory: 128974848}',
    ),
    expected: [
      d(4, 15, 21, 'wrong-type', 'Expected map[string]string, got a list', {
        rule: 'wrong-type',
        path: ['metadata', 'annotations'],
        expected: 'map[string]string',
      }),
      d(6, 12, 15, 'wrong-type', 'Expected integer, got string "3"', {
        rule: 'wrong-type',
        path: ['spec', 'replicas'],
        expected: 'integer',
      }),
      d(8, 30, 33, 'wrong-type', 'Expected IntOrString, got number 1.5', {
        rule: 'wrong-type',
        path: ['spec', 'strategy', 'rollingUpdate', 'maxSurge'],
        expected: 'IntOrString',
      }),
      d(18, 16, 31, 'wrong-type', 'Expected []string, got a map', {
        rule: 'wrong-type',
        path: [...CONTAINER, 'args'],
        expected: '[]string',
      }),
      d(20, 26, 33, 'wrong-type', `Expected Quantity, got string "2 cores": ${QUANTITY_ERROR}`, {
        rule: 'wrong-type',
        path: [...CONTAINER, 'resources', 'limits', 'cpu'],
        expected: 'Quantity',
      }),
    ],
  },
  {
    name: 'wrong-type: null means unset anywhere; yes is a boolean where a boolean belongs; 3.0 is an integer',
    text: lines(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: a',
      '  creationTimestamp: null',
      '  labels: ~',
      'immutable: yes',
      'data:',
    ),
    expected: [],
  },
  {
    name: 'missing-required: on the key of the incomplete map (its first key for a list item), with the field in data',
    text: lines(
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: RoleBinding',
      'metadata:',
      '  name: b',
      'subjects:',
      '  - name: web',
      'roleRef:',
      '  kind: Role',
    ),
    expected: [
      // upstream: ValidateRoleBindingSubject answers a kind left out as NotSupported "" (the schema's payload stays).
      d(
        5,
        4,
        8,
        'rbac-role-ref',
        'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
        {
          rule: 'missing-required',
          path: ['subjects', 0, 'kind'],
          field: 'kind',
          type: 'string',
        },
      ),
      // Upstream's RoleRef requires apiGroup (json:"apiGroup", no omitempty); ValidateRoleBinding: NotSupported.
      d(
        6,
        0,
        7,
        'rbac-role-ref',
        'roleRef.apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"',
        {
          rule: 'missing-required',
          path: ['roleRef', 'apiGroup'],
          field: 'apiGroup',
          type: 'string',
        },
      ),
      d(6, 0, 7, 'rbac-role-ref', 'roleRef.name: Required value', {
        rule: 'missing-required',
        path: ['roleRef', 'name'],
        field: 'name',
        type: 'string',
      }),
    ],
  },
  {
    name: 'wrong-type: an int32 field refuses what does not fit 32 bits, as the API server decoding it does',
    text: lines(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: d}',
      'spec:',
      '  replicas: 3000000000',
      '  progressDeadlineSeconds: 2147483647',
      '  selector: {matchLabels: {a: b}}',
      '  template:',
      '    metadata: {labels: {a: b}}',
      '    spec:',
      '      terminationGracePeriodSeconds: 3000000000',
      '      containers: [{name: c, image: nginx}]',
    ),
    expected: [
      d(
        4,
        12,
        22,
        'wrong-type',
        '3000000000 does not fit an int32 (-2147483648 to 2147483647); the API server answers: json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32',
        { rule: 'wrong-type', path: ['spec', 'replicas'], expected: 'integer' },
      ),
    ],
  },
  {
    name: 'missing-required: admission reports a missing struct by its own fields; the first of them carries the payload',
    text: lines(
      'apiVersion: autoscaling/v2',
      'kind: HorizontalPodAutoscaler',
      'metadata:',
      '  name: h',
      'spec:',
      '  maxReplicas: 3',
    ),
    expected: [
      d(4, 0, 4, 'hpa-scale-target-ref', 'spec.scaleTargetRef.kind: Required value', {
        rule: 'missing-required',
        path: ['spec', 'scaleTargetRef'],
        field: 'scaleTargetRef',
        type: 'CrossVersionObjectReference',
      }),
      d(4, 0, 4, 'hpa-scale-target-ref', 'spec.scaleTargetRef.name: Required value'),
    ],
  },
  {
    name: 'missing-required: admission reports the same field, so its diagnostic stays and carries the payload',
    text: lines(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      'spec:',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec:',
      '      containers: [{name: web, image: nginx, ports: [{name: http}]}]',
    ),
    expected: [
      d(4, 0, 4, 'workload-selector', 'spec.selector: Required value', {
        rule: 'missing-required',
        path: ['spec', 'selector'],
        field: 'selector',
        type: 'LabelSelector',
      }),
      d(8, 54, 58, 'container-port-number', 'spec.template.spec.containers[0].ports[0].containerPort: Required value', {
        rule: 'missing-required',
        path: [...CONTAINER, 'ports', 0, 'containerPort'],
        field: 'containerPort',
        type: 'integer',
      }),
    ],
  },
  {
    name: 'missing-required: not checked in status, nor in a map with a merge key',
    text: lines(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: p}',
      'spec:',
      '  containers:',
      '    - &base {name: a, image: nginx, ports: [{containerPort: 80}]}',
      '    - <<: *base',
      '      name: b',
      'status:',
      '  conditions: [{status: "True"}]',
    ),
    expected: [],
  },
  {
    name: 'invalid-enum where admission checks the enum too: its diagnostic, with the payload',
    text: lines(
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: s',
      'spec:',
      '  type: nodeport',
      '  ports: [{port: 80, protocol: HTTP}]',
    ),
    expected: [
      d(
        5,
        8,
        16,
        'service-type',
        'spec.type: Unsupported value: "nodeport": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
        {
          rule: 'invalid-enum',
          path: ['spec', 'type'],
          value: 'nodeport',
          allowed: ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'],
          replacement: 'NodePort',
        },
      ),
      d(
        6,
        31,
        35,
        'service-ports',
        'spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
        {
          rule: 'invalid-enum',
          path: ['spec', 'ports', 0, 'protocol'],
          value: 'HTTP',
          allowed: ['SCTP', 'TCP', 'UDP'],
        },
      ),
    ],
  },
  {
    name: 'invalid-enum: admission checks imagePullPolicy too; one diagnostic, the admission one with the payload',
    text: deployment('imagePullPolicy: always'),
    expected: [
      d(
        14,
        27,
        33,
        'container-image-pull-policy',
        'spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "always": supported values: "Always", "IfNotPresent", "Never"',
        {
          rule: 'invalid-enum',
          path: [...CONTAINER, 'imagePullPolicy'],
          value: 'always',
          allowed: ['Always', 'IfNotPresent', 'Never'],
          replacement: 'Always',
        },
      ),
    ],
  },
  {
    name: 'StorageClass: admission answers as upstream (Delete or Retain only), with the schema diagnostics’ payloads',
    text: lines(
      'apiVersion: storage.k8s.io/v1',
      'kind: StorageClass',
      'metadata: {name: fast}',
      'provisoner: ebs.csi.aws.com',
      'reclaimPolicy: Keep',
    ),
    expected: [
      // upstream: pkg/apis/storage/validation ValidateStorageClass (supportedReclaimPolicy: Delete, Retain).
      d(1, 0, 4, 'storage-class', 'provisioner: Required value', {
        rule: 'missing-required',
        path: ['provisioner'],
        field: 'provisioner',
        type: 'string',
      }),
      d(3, 0, 10, 'unknown-field', 'Unknown field "provisoner" in StorageClass; did you mean "provisioner"?', {
        rule: 'unknown-field',
        path: ['provisoner'],
        field: 'provisoner',
        parent: 'StorageClass',
        replacement: 'provisioner',
      }),
      d(4, 15, 19, 'storage-class', 'reclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Retain"', {
        rule: 'invalid-enum',
        path: ['reclaimPolicy'],
        value: 'Keep',
        allowed: ['Delete', 'Recycle', 'Retain'],
      }),
    ],
  },
  {
    name: 'an API a supported release removed: the release is computed from the schemas, with the current version',
    text: lines('apiVersion: flowcontrol.apiserver.k8s.io/v1beta3', 'kind: FlowSchema', 'metadata: {name: f}'),
    expected: [
      d(
        0,
        12,
        48,
        'removed-api-version',
        'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema was removed in Kubernetes 1.32; use flowcontrol.apiserver.k8s.io/v1',
      ),
    ],
  },
  {
    name: 'unknown kind: the hint comes from the schema, which knows more kinds than the sandbox serves',
    text: lines(
      'apiVersion: v1',
      'kind: StorageClass',
      'metadata: {name: s}',
      '---',
      'apiVersion: storage.k8s.io/v1',
      'kind: storageclass',
      'metadata: {name: s}',
    ),
    expected: [
      d(
        1,
        6,
        18,
        'unknown-kind',
        'Unknown kind "StorageClass" for apiVersion "v1"; StorageClass is served as apiVersion "storage.k8s.io/v1"',
      ),
      d(
        5,
        6,
        18,
        'unknown-kind',
        'Unknown kind "storageclass" for apiVersion "storage.k8s.io/v1"; did you mean "StorageClass"?',
      ),
    ],
  },
];

describe('schema rules', () => {
  for (const c of CASES) {
    test(c.name, () => {
      assert.deepEqual(validateManifestText(c.text), c.expected);
    });
  }
});
