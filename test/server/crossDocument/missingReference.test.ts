import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFolder, expected } from './helpers';

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: app
spec:
  serviceAccountName: runner
  imagePullSecrets:
  - name: regcred
  containers:
  - name: app
    image: nginx
    env:
    - name: A
      valueFrom:
        configMapKeyRef: {name: cfg, key: a}
    - name: B
      valueFrom:
        secretKeyRef: {name: creds, key: b}
    - name: C
      valueFrom:
        secretKeyRef: {name: maybe, key: c, optional: true}
    envFrom:
    - configMapRef: {name: env-cm}
    - secretRef: {name: env-secret, optional: true}
  volumes:
  - name: config
    configMap: {name: files}
  - name: tls
    secret: {secretName: tls}
  - name: data
    persistentVolumeClaim: {claimName: data}
  - name: both
    projected:
      sources:
      - configMap: {name: proj-cm}
      - secret: {name: proj-secret, optional: true}
`;

const STARTS = 'its pods cannot start until it exists (mark the reference "optional: true" if it may be absent)';
const missing = (
  line: number,
  start: number,
  end: number,
  what: string,
  consequence = STARTS,
): ReturnType<typeof expected> =>
  expected(
    line,
    start,
    end,
    'missing-reference',
    `${what} is not defined in namespace "default" in this workspace folder; ${consequence}`,
  );

const DEFINITIONS = `apiVersion: v1
kind: ServiceAccount
metadata: {name: runner}
---
apiVersion: v1
kind: Secret
metadata: {name: regcred}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: env-cm}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: files}
---
apiVersion: v1
kind: Secret
metadata: {name: tls}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: proj-cm}
`;

describe('missing-reference', () => {
  test('every reference kind is marked on its name value; optional ones are not', () => {
    assert.deepEqual(checkFolder({ 'pod.yaml': POD }), {
      'pod.yaml': [
        missing(5, 22, 28, 'ServiceAccount "runner"', 'the API server rejects its pods until it exists'),
        missing(7, 10, 17, 'Secret "regcred"', 'image pulls that need it will fail'),
        missing(14, 32, 35, 'ConfigMap "cfg"'),
        missing(17, 29, 34, 'Secret "creds"'),
        missing(22, 27, 33, 'ConfigMap "env-cm"'),
        missing(26, 22, 27, 'ConfigMap "files"'),
        missing(28, 25, 28, 'Secret "tls"'),
        missing(30, 39, 43, 'PersistentVolumeClaim "data"', 'its pods stay Pending until it exists'),
        missing(34, 26, 33, 'ConfigMap "proj-cm"'),
      ],
    });
  });

  test('objects defined anywhere in the folder, in the same namespace, satisfy the references', () => {
    assert.deepEqual(checkFolder({ 'pod.yaml': POD, 'defs.yaml': DEFINITIONS }), {});
    const elsewhere = DEFINITIONS.replaceAll('metadata: {name: ', 'metadata: {namespace: other, name: ');
    assert.equal(checkFolder({ 'pod.yaml': POD, 'defs.yaml': elsewhere })['pod.yaml'].length, 9);
  });

  test('the default ServiceAccount and the kube-root-ca.crt ConfigMap exist in every namespace', () => {
    const pod =
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  serviceAccountName: default\n  containers: [{name: c, image: x}]\n  volumes: [{name: ca, configMap: {name: kube-root-ca.crt}}]\n';
    assert.deepEqual(checkFolder({ 'pod.yaml': pod }), {});
  });

  test('pod templates of workloads and CronJobs are checked at their own paths, items of a List too', () => {
    const list = `apiVersion: v1
kind: List
items:
- apiVersion: batch/v1
  kind: CronJob
  metadata: {name: c, namespace: jobs}
  spec:
    schedule: "@daily"
    jobTemplate:
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: c, image: x, envFrom: [{secretRef: {name: s}}]}]
`;
    assert.deepEqual(checkFolder({ 'list.yaml': list }), {
      'list.yaml': [
        expected(
          13,
          74,
          75,
          'missing-reference',
          `Secret "s" is not defined in namespace "jobs" in this workspace folder; ${STARTS}`,
        ),
      ],
    });
  });

  test('a StatefulSet volume named like one of its volumeClaimTemplates is the claim the controller makes, not a reference', () => {
    const sts = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]}]
      volumes:
      - name: data
        persistentVolumeClaim: {claimName: data}
      - name: other
        persistentVolumeClaim: {claimName: shared}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;
    const found = checkFolder({ 'sts.yaml': sts })['sts.yaml'] ?? [];
    assert.deepEqual(
      found.map((d) => d.message),
      [
        `PersistentVolumeClaim "shared" is not defined in namespace "default" in this workspace folder; its pods stay Pending until it exists`,
      ],
    );
  });
});
