/**
 * Configuration errors as the kubelet reports them: a container whose
 * environment names a missing ConfigMap, Secret or key waits in
 * CreateContainerConfigError (retried on the pod worker's 10 s back-off); a
 * volume that cannot be set up keeps the pod ContainerCreating with
 * FailedMount events on the volume manager's back-off (0.5 s doubling); a
 * claim that is missing or not bound holds the pod too. Each recovers by
 * itself once the object appears. Fixed delays: sandbox 0.5 s, pull 1 s.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject, Typed } from '../../../sandbox/api/types';
import { newPod, setupKubelet } from './setup';
import type { KubeletFixture } from './setup';
import { kubectlWatch, timeline } from './timeline';

function secret(name: string, data: Record<string, string>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'default' },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  } as KubeObject;
}

function configMap(name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data } as KubeObject;
}

/** The WordPress tutorial's MySQL container: its passwords come from the Secret `mysql-pass`. */
const mysql: Container = {
  name: 'mysql',
  image: 'mysql:8.0',
  env: [
    { name: 'MYSQL_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: 'mysql-pass', key: 'password' } } },
    { name: 'MYSQL_DATABASE', value: 'wordpress' },
  ],
  ports: [{ containerPort: 3306, name: 'mysql' }],
};

const waiting = (f: KubeletFixture, pod: string) => f.pod(pod)!.status!.containerStatuses![0].state!.waiting;

describe('CreateContainerConfigError', () => {
  test('env from a missing Secret: the container waits, retried every 10 s, and starts once the Secret exists', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'db');
    f.create(newPod('db', { containers: [mysql] }));
    f.h.advance(25_000);
    // The image is pulled first (0.5–1.5 s), then the environment fails: CreateContainerConfigError at 1.5 s, tried
    // again at 11.5 s and 21.5 s (the pod worker's back-off, 10 s here).
    assert.deepEqual(waiting(f, 'db'), {
      reason: 'CreateContainerConfigError',
      message: 'secret "mysql-pass" not found',
    });
    assert.deepEqual(f.events('db'), [
      'Normal Pulling: Pulling image "mysql:8.0"',
      `Normal Pulled: ${/Successfully pulled image "mysql:8\.0" in 1s \(1s including waiting\)\. Image size: \d+ bytes\./.exec(f.events('db')[1])?.[0]}`,
      'Warning Failed: Error: secret "mysql-pass" not found (x3)',
      'Normal Pulled: Container image "mysql:8.0" already present on machine (x2)',
    ]);
    f.h.api.create(secret('mysql-pass', { password: 's3cret' }));
    f.h.advance(10_000);
    // The retry at 31.5 s finds it: the container starts, with the password in its environment.
    assert.deepEqual(kubectlWatch(steps), [
      [0, '0/1 ContainerCreating 0'],
      [1500, '0/1 CreateContainerConfigError 0'],
      [31_500, '1/1 Running 0'],
    ]);
    const r = f.kubelet.exec(f.pod('db')!, 'mysql', ['printenv', 'MYSQL_ROOT_PASSWORD']);
    assert.deepEqual(r, { stdout: 's3cret\n', stderr: '', exitCode: 0 });
  });

  test('the messages for a missing key, a missing ConfigMap and envFrom; optional references are skipped', () => {
    const f = setupKubelet();
    f.h.api.create(secret('mysql-pass', { user: 'root' }));
    f.h.api.create(configMap('settings', { LOG_LEVEL: 'debug' }));
    const app = (name: string, c: Partial<Container>): Typed<Pod> =>
      newPod(name, { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'], ...c }] });
    f.create(newPod('key', { containers: [mysql] }));
    f.create(app('cm', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'x' } } }] }));
    f.create(app('cmkey', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'settings', key: 'x' } } }] }));
    f.create(app('from', { envFrom: [{ secretRef: { name: 'creds' } }] }));
    f.create(
      app('optional', {
        env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'nope', key: 'x', optional: true } } }],
        envFrom: [{ configMapRef: { name: 'nope', optional: true } }, { configMapRef: { name: 'settings' } }],
      }),
    );
    f.h.advance(5000);
    assert.deepEqual(
      ['key', 'cm', 'cmkey', 'from'].map((p) => waiting(f, p)?.message),
      [
        "couldn't find key password in Secret default/mysql-pass",
        'configmap "app-config" not found',
        "couldn't find key x in ConfigMap default/settings",
        'secret "creds" not found',
      ],
    );
    assert.equal(f.pod('optional')!.status!.phase, 'Running');
    assert.equal(f.kubelet.exec(f.pod('optional')!, 'app', ['printenv', 'LOG_LEVEL']).stdout, 'debug\n');
  });

  test('an init container that cannot be created holds the pod: Init:CreateContainerConfigError', () => {
    const f = setupKubelet();
    f.create(
      newPod('web', {
        initContainers: [
          {
            name: 'migrate',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'echo migrating'],
            env: [{ name: 'DB', valueFrom: { secretKeyRef: { name: 'db', key: 'url' } } }],
          },
        ],
      }),
    );
    const steps = timeline(f, 'web');
    f.h.advance(5000);
    assert.deepEqual(kubectlWatch(steps).at(-1), [1500, '0/1 Init:CreateContainerConfigError 0']);
  });
});

describe('FailedMount', () => {
  const withVolume = (volume: NonNullable<Pod['spec']>['volumes']): Typed<Pod> =>
    newPod('web', {
      containers: [
        {
          name: 'app',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'cat /etc/creds/password; sleep 3600'],
          volumeMounts: [{ name: 'creds', mountPath: '/etc/creds' }],
        },
      ],
      volumes: volume,
    });

  test('a Secret volume that cannot be set up: ContainerCreating, FailedMount on the back-off, then it starts', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(withVolume([{ name: 'creds', secret: { secretName: 'db' } }]));
    f.h.advance(40_000);
    // SetUp is tried at 0 s, then 0.5 s later and doubling: 0.5, 1.5, 3.5, 7.5, 15.5, 31.5 s — 7 failures by 40 s.
    // No sandbox meanwhile: no pod IP, PodReadyToStartContainers False.
    assert.deepEqual(f.events('web'), [
      'Warning FailedMount: MountVolume.SetUp failed for volume "creds" : secret "db" not found (x7)',
    ]);
    const pending = f.pod('web')!.status!;
    assert.deepEqual(
      [pending.phase, pending.podIP, pending.conditions![0].type, pending.conditions![0].status],
      ['Pending', undefined, 'PodReadyToStartContainers', 'False'],
    );
    f.h.api.create(secret('db', { password: 'hunter2' }));
    f.h.advance(30_000);
    // The next try is 32 s after the last (63.5 s): mounted, sandbox 0.5 s, busybox pulled 1 s → running at 65 s.
    assert.deepEqual(
      steps.map((s) => s.at),
      [0, 64_000, 65_000],
    );
    assert.deepEqual(kubectlWatch(steps), [
      [0, '0/1 ContainerCreating 0'],
      [65_000, '1/1 Running 0'],
    ]);
    assert.equal(f.kubelet.containerLogs(f.pod('web')!, 'app', {}), 'hunter2\n');
  });

  test('a missing key, a ConfigMap, a projected source; optional volumes mount empty', () => {
    const f = setupKubelet();
    f.h.api.create(configMap('app', { 'a.properties': 'a=1' }));
    f.create(withVolume([{ name: 'creds', configMap: { name: 'app', items: [{ key: 'b.properties', path: 'b' }] } }]));
    f.h.advance(100);
    f.h.api.delete('pods', 'default', 'web');
    f.h.settle();
    f.create(withVolume([{ name: 'creds', projected: { sources: [{ configMap: { name: 'ca-bundle' } }] } }]));
    f.h.advance(100);
    assert.deepEqual(f.events('web'), [
      'Warning FailedMount: MountVolume.SetUp failed for volume "creds" : configmap references non-existent config key: b.properties',
      'Warning FailedMount: MountVolume.SetUp failed for volume "creds" : configmap "ca-bundle" not found',
    ]);
    f.h.api.delete('pods', 'default', 'web');
    f.h.settle();
    f.create(withVolume([{ name: 'creds', secret: { secretName: 'none', optional: true } }]));
    f.h.advance(5000);
    assert.equal(f.pod('web')!.status!.phase, 'Running');
    assert.equal(
      f.kubelet.containerLogs(f.pod('web')!, 'app', {}),
      "cat: can't open '/etc/creds/password': No such file or directory\n",
    );
  });

  test('a claim that is missing, then not bound, holds the pod; bound, it starts', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'db');
    f.create(
      newPod('db', {
        containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
      }),
    );
    f.h.advance(5000);
    f.h.api.create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeName: 'pv-1' },
    } as KubeObject);
    f.h.advance(10_000);
    const claim = f.h.api.get('persistentvolumeclaims', 'default', 'data');
    f.h.api.updateStatus({ ...claim, status: { phase: 'Bound' } } as KubeObject);
    f.h.advance(10_000);
    // Checked when admitted (0 s), then on the pod worker's back-off (10 s): at 10 s the claim exists but is Pending;
    // at 20 s it is Bound: sandbox 0.5 s, pull 1 s → running at 21.5 s.
    const prefix =
      'Warning FailedMount: Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]: error processing PVC default/data:';
    assert.deepEqual(f.events('db'), [
      `${prefix} failed to fetch PVC from API server: persistentvolumeclaims "data" not found`,
      `${prefix} PVC is not bound`,
      'Normal Pulling: Pulling image "busybox:1.36"',
      `Normal Pulled: ${/Successfully pulled.*/.exec(f.events('db')[3])?.[0]}`,
      'Normal Created: Created container: app',
      'Normal Started: Started container app',
    ]);
    assert.deepEqual(kubectlWatch(steps), [
      [0, '0/1 ContainerCreating 0'],
      [21_500, '1/1 Running 0'],
    ]);
  });
});
