/**
 * The Kubernetes documentation's own examples (kubernetes/website
 * content/en/examples, CC BY 4.0; copies in test/fixtures/public/website-kubelet
 * with their SOURCE.md) behave as on a real node. Pods run on a kubelet with
 * fixed delays — sandbox 0.5 s, pull 1 s, re-pull 200 ms, a quick exit 100 ms,
 * a stop 300 ms, an exit noticed 1 s later — that has run for a minute, so a
 * probe worker ticks from the pod's admission (0 s) every `periodSeconds`.
 * Every expected time is worked out in a comment from the manifest's numbers.
 * Workloads (Deployments, Jobs) run on a whole cluster, in `simulate` too.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject, Typed } from '../../../sandbox/api/types';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { piDigits } from '../../../sandbox/kubelet/container/pi';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { podSummary } from '../../../sandbox/printers/podStatus';
import { main } from '../../../cli/main';
import { setupKubelet } from './setup';
import { kubectlWatch, timeline } from './timeline';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'public', 'website-kubelet');

function docs(file: string): KubeObject[] {
  return manifestObjects(readFileSync(join(FIXTURES, file), 'utf8')).manifests.map((m) => m.object);
}

/** A documentation pod, bound to the fixture's node. */
function docPod(file: string): Typed<Pod> {
  const pod = docs(file)[0] as unknown as Typed<Pod>;
  return { ...pod, metadata: { ...pod.metadata, namespace: 'default' }, spec: { ...pod.spec!, nodeName: 'node-1' } };
}

describe('probes: pods/probe/*.yaml', () => {
  test('exec-liveness restarts on the prober and back-off schedule (about every 75 s at first)', () => {
    const f = setupKubelet({}, 1, 60_000);
    const steps = timeline(f, 'liveness-exec');
    f.create(docPod('exec-liveness.yaml'));
    f.h.advance(260_000);
    // `touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600`, probe `cat /tmp/healthy` from 5 s after the start
    // (initialDelaySeconds 5), every 5 s (periodSeconds 5) from the worker's start at 0 s, failureThreshold 3.
    // 1st: started 1.5 s; file gone at 31.5 s; the ticks at 35, 40, 45 s fail → killed at 45 s. Its PID 1 is `sh`,
    //      which ignores SIGTERM: SIGKILL at the end of the 30 s grace period → exits 137 at 75 s; restarted 1 s later
    //      (the first restart is not delayed) at 76 s.
    // 2nd: file gone at 106 s; ticks 110, 115, 120 s fail → killed at 120 s, dies at 150 s; back-off 10 s from the
    //      exit → restarted at 160 s.
    // 3rd: file gone at 190 s; the tick at 190 s sees it gone (the `rm` is at the same instant); 190, 195, 200 s fail
    //      → killed at 200 s, dies at 230 s; back-off 20 s → restarted at 250 s.
    assert.deepEqual(kubectlWatch(steps), [
      [0, '0/1 ContainerCreating 0'],
      [1500, '1/1 Running 0'],
      [75_000, '0/1 Error 0'],
      [76_000, '1/1 Running 1'],
      [150_000, '0/1 Error 1'],
      [151_000, '0/1 CrashLoopBackOff 1'],
      [160_000, '1/1 Running 2'],
      [230_000, '0/1 Error 2'],
      [231_000, '0/1 CrashLoopBackOff 2'],
      [250_000, '1/1 Running 3'],
    ]);
    const cs = f.pod('liveness-exec')!.status!.containerStatuses![0];
    assert.deepEqual([cs.lastState?.terminated?.exitCode, cs.lastState?.terminated?.reason], [137, 'Error']);
    assert.deepEqual(
      f.events('liveness-exec').filter((e) => /Unhealthy|Killing/.test(e)),
      [
        "Warning Unhealthy: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory (x9)",
        'Normal Killing: Container liveness failed liveness probe, will be restarted (x3)',
      ],
    );
  });

  test('kubectl exec sees what the command did: /tmp/healthy is there for 30 s, then gone', () => {
    const f = setupKubelet({}, 1, 60_000);
    f.create(docPod('exec-liveness.yaml'));
    f.h.advance(20_000);
    const cat = () => f.kubelet.exec(f.pod('liveness-exec')!, 'liveness', ['cat', '/tmp/healthy']);
    assert.deepEqual(cat(), { stdout: '', stderr: '', exitCode: 0 });
    f.h.advance(15_000);
    assert.deepEqual(cat(), {
      stdout: '',
      stderr: "cat: can't open '/tmp/healthy': No such file or directory\n",
      exitCode: 1,
    });
    // Put back by hand, the probe passes again: the failures stop at two, no kill.
    f.kubelet.exec(f.pod('liveness-exec')!, 'liveness', ['touch', '/tmp/healthy']);
    f.h.advance(60_000);
    assert.equal(f.pod('liveness-exec')!.status!.containerStatuses![0].restartCount, 0);
  });

  test("http-liveness: agnhost's /healthz fails after 10 s, each restart is killed again, CrashLoopBackOff", () => {
    const f = setupKubelet({}, 1, 60_000);
    const steps = timeline(f, 'liveness-http');
    f.create(docPod('http-liveness.yaml'));
    f.h.advance(85_000);
    // Probe every 3 s from 0 s, from 3 s after the start (initialDelaySeconds 3); /healthz answers 500 once more than
    // 10 s have passed since the start. 1st: started 1.5 s; ticks 6, 9 pass, 12, 15, 18 fail → killed at 18 s; agnhost
    // (a Go program as PID 1) exits 2 on SIGTERM, 300 ms later; restarted at 19.3 s. 2nd: 24, 27 pass, 30, 33, 36
    // fail → exits at 36.3 s; back-off 10 s → restarted at 46.3 s. 3rd: 51, 54 pass; 57, 60, 63 fail → exits at 63.3 s;
    // back-off 20 s → 83.3 s.
    assert.deepEqual(kubectlWatch(steps), [
      [0, '0/1 ContainerCreating 0'],
      [1500, '1/1 Running 0'],
      [18_300, '0/1 Error 0'],
      [19_300, '1/1 Running 1'],
      [36_300, '0/1 Error 1'],
      [37_300, '0/1 CrashLoopBackOff 1'],
      [46_300, '1/1 Running 2'],
      [63_300, '0/1 Error 2'],
      [64_300, '0/1 CrashLoopBackOff 2'],
      [83_300, '1/1 Running 3'],
    ]);
    const cs = f.pod('liveness-http')!.status!.containerStatuses![0];
    assert.deepEqual([cs.lastState?.terminated?.exitCode, cs.lastState?.terminated?.reason], [2, 'Error']);
    assert.equal(
      f.events('liveness-http').find((e) => e.includes('Unhealthy')),
      'Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500 (x9)',
    );
  });

  test('tcp-liveness-readiness: goproxy listens on 8080, ready at the first tick 15 s after it starts', () => {
    const f = setupKubelet({}, 1, 60_000);
    const steps = timeline(f, 'goproxy');
    f.create(docPod('tcp-liveness-readiness.yaml'));
    f.h.advance(120_000);
    // Started 1.5 s; probes every 10 s from 0 s, from 16.5 s on (initialDelaySeconds 15): ready at 20 s; the liveness
    // probe keeps passing.
    assert.deepEqual(kubectlWatch(steps), [
      [0, '0/1 ContainerCreating 0'],
      [1500, '0/1 Running 0'],
      [20_000, '1/1 Running 0'],
    ]);
  });

  test('grpc-liveness: etcd serves the gRPC health service; no restart', () => {
    const f = setupKubelet({}, 1, 60_000);
    f.create(docPod('grpc-liveness.yaml'));
    f.h.advance(120_000);
    assert.deepEqual(podSummary(f.pod('etcd-with-grpc')!).status, 'Running');
    assert.equal(f.pod('etcd-with-grpc')!.status!.containerStatuses![0].restartCount, 0);
  });

  test('pod-with-http-healthcheck: nginx has no /_status/healthz (404), so it is restarted, as on a real node', () => {
    const f = setupKubelet({}, 1, 60_000);
    f.create(docPod('pod-with-http-healthcheck.yaml'));
    f.h.advance(65_000);
    // Started 1.5 s; first probe 30 s later (ticks every 10 s: 40, 50, 60 s) — 404 each time, killed at 60 s; nginx
    // stops on its stop signal (exit 0) at 60.3 s and is restarted (tag latest: pulled again, 200 ms) at 61.5 s.
    const cs = f.pod('pod-with-http-healthcheck')!.status!.containerStatuses![0];
    assert.deepEqual(
      [cs.restartCount, cs.lastState?.terminated?.exitCode, cs.lastState?.terminated?.reason],
      [1, 0, 'Completed'],
    );
    assert.deepEqual(
      f.events('pod-with-http-healthcheck').filter((e) => /Unhealthy|Killing/.test(e)),
      [
        'Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 404 (x3)',
        'Normal Killing: Container nginx failed liveness probe, will be restarted',
      ],
    );
  });
});

describe('init containers: concepts/workloads/pods/init-containers.md', () => {
  test('myapp-pod waits for its Services (Init:0/2), each init container finishing once its Service exists', () => {
    const f = setupKubelet();
    // The volume the ServiceAccount admission plugin adds to every pod (the harness holds the ConfigMap the root CA
    // publisher keeps in every namespace): the init containers read their namespace from it. Written out here, the
    // plugin keeps it (an existing kube-api-access volume is reused).
    const pod = docPod('myapp.yaml');
    const mount = {
      name: 'kube-api-access-x7k2p',
      mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
      readOnly: true,
    };
    const withMount = <T extends { volumeMounts?: unknown[] }>(c: T) => ({ ...c, volumeMounts: [mount] });
    pod.spec = {
      ...pod.spec!,
      initContainers: pod.spec!.initContainers!.map(withMount),
      containers: pod.spec!.containers.map(withMount),
      volumes: [
        {
          name: 'kube-api-access-x7k2p',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              {
                downwardAPI: {
                  items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
                },
              },
            ],
          },
        },
      ],
    };
    const steps = timeline(f, 'myapp-pod');
    f.create(pod);
    f.h.advance(10_000);
    // init-myservice starts at 1.5 s and looks myservice up every 2 s: not found.
    assert.equal(
      f.kubelet.containerLogs(f.pod('myapp-pod')!, 'init-myservice', { tailLines: 5 }),
      [
        'Server:    10.96.0.10',
        'Address 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local',
        '',
        "nslookup: can't resolve 'myservice.default.svc.cluster.local'",
        'waiting for myservice',
        '',
      ].join('\n'),
    );
    const [myservice, mydb] = docs('services.yaml');
    f.h.api.create({ ...myservice, metadata: { ...myservice.metadata, namespace: 'default' } });
    f.h.advance(10_000);
    f.h.api.create({ ...mydb, metadata: { ...mydb.metadata, namespace: 'default' } });
    f.h.advance(10_000);
    // myservice appears at 10 s: the lookup at 11.5 s (every 2 s from 1.5 s) finds it, init-myservice exits 0 and
    // init-mydb starts; mydb appears at 20 s, found at 21.5 s; the app starts then.
    assert.deepEqual(kubectlWatch(steps), [
      [0, '0/1 Init:0/2 0'],
      [11_500, '0/1 Init:1/2 0'],
      [21_500, '1/1 Running 0'],
    ]);
    assert.match(
      f.kubelet.containerLogs(f.pod('myapp-pod')!, 'init-myservice', { tailLines: 2 }),
      /^Name: {6}myservice\.default\.svc\.cluster\.local\nAddress 1: 10\.96\.\d+\.\d+ myservice\.default\.svc\.cluster\.local\n$/,
    );
    assert.equal(f.kubelet.containerLogs(f.pod('myapp-pod')!, 'myapp-container', {}), 'The app is running!\n');
  });
});

describe('workloads on a whole cluster', () => {
  function run(files: string[], ms: number): Cluster {
    const cluster = new Cluster({ seed: 1 });
    cluster.start();
    for (const f of files) for (const o of docs(f)) cluster.apply(o);
    cluster.runFor(ms);
    return cluster;
  }
  const pods = (c: Cluster) => c.api.list('pods').items as unknown as Pod[];

  test('application/deployment-sidecar.yaml: 2/2 Running; the sidecar ships what the app logs', () => {
    const c = run(['deployment-sidecar.yaml'], 30_000);
    const [pod] = pods(c);
    const s = podSummary(pod);
    assert.deepEqual([s.ready, s.total, s.status, s.restarts], [2, 2, 'Running', 0]);
    const shipped = c.podLogs('default', pod.metadata!.name!, { container: 'logshipper' }).split('\n');
    assert.equal(shipped[0], "tail: can't open '/opt/logs.txt': No such file or directory");
    assert.ok(shipped.filter((l) => l === 'logging').length >= 25, 'one "logging" a second');
  });

  test('application/job/job-sidecar.yaml: the Job completes; its sidecar is stopped', () => {
    const c = run(['job-sidecar.yaml'], 120_000);
    const job = c.api.get('jobs', 'default', 'myjob') as {
      status?: { succeeded?: number; conditions?: { type: string }[] };
    };
    assert.equal(job.status?.succeeded, 1);
    assert.ok(job.status?.conditions?.some((x) => x.type === 'Complete'));
    const [pod] = pods(c);
    assert.equal(pod.status?.phase, 'Succeeded');
    assert.equal(pod.status?.initContainerStatuses?.[0].state?.terminated?.exitCode, 137, 'tail ignores SIGTERM');
  });

  test('controllers/job.yaml: perl prints π to 1000 digits and exits 0; the Job completes', () => {
    const c = run(['job.yaml'], 60_000);
    const job = c.api.get('jobs', 'default', 'pi') as { status?: { succeeded?: number } };
    assert.equal(job.status?.succeeded, 1);
    const [pod] = pods(c);
    assert.equal(c.podLogs('default', pod.metadata!.name!, {}), `${piDigits(1000)}\n`);
    assert.equal(pod.status?.containerStatuses?.[0].state?.terminated?.reason, 'Completed');
  });

  test("controllers/job-pod-failure-policy-example.yaml: bash prints and exits 42 after 5 s (the Job's FailJob rule reads it)", () => {
    const c = run(['job-pod-failure-policy-example.yaml'], 20_000);
    const failed = pods(c).find((p) => p.status?.phase === 'Failed')!;
    const t = failed.status!.containerStatuses![0].state!.terminated!;
    assert.deepEqual([t.exitCode, t.reason], [42, 'Error']);
    assert.equal(Date.parse(t.finishedAt!) - Date.parse(t.startedAt!), 5000);
    assert.equal(c.podLogs('default', failed.metadata!.name!, {}), 'Hello world!\n');
  });

  test('application/wordpress/mysql-deployment.yaml: the claim is provisioned for its pod, which then waits for its Secret', () => {
    // The claim takes the default class (kind's `standard`, WaitForFirstConsumer): it is provisioned on the node the
    // scheduler chose and bound before the pod is bound, so the kubelet mounts it; the missing Secret remains.
    const c = run(['mysql-deployment.yaml'], 30_000);
    const [pod] = pods(c);
    const claim = c.api.get('persistentvolumeclaims', 'default', 'mysql-pv-claim') as {
      status?: { phase?: string };
      metadata: { annotations?: Record<string, string> };
    };
    assert.equal(claim.status?.phase, 'Bound');
    assert.equal(claim.metadata.annotations?.['volume.kubernetes.io/selected-node'], pod.spec?.nodeName);
    assert.equal(podSummary(pod).status, 'CreateContainerConfigError');
  });

  test('the same MySQL on an emptyDir: CreateContainerConfigError until the Secret is created, then Running', () => {
    const cluster = new Cluster({ seed: 1 });
    cluster.start();
    for (const o of docs('mysql-deployment.yaml')) {
      if (o.kind === 'PersistentVolumeClaim') continue;
      if (o.kind === 'Deployment') {
        const spec = (o as unknown as { spec: { template: { spec: { volumes: unknown[] } } } }).spec.template.spec;
        spec.volumes = [{ name: 'mysql-persistent-storage', emptyDir: {} }];
      }
      cluster.apply(o);
    }
    cluster.runFor(30_000);
    assert.equal(podSummary(pods(cluster)[0]).status, 'CreateContainerConfigError');
    cluster.apply({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'mysql-pass', namespace: 'default' },
      stringData: { password: 'example' },
    } as unknown as KubeObject);
    cluster.runFor(30_000);
    const pod = pods(cluster)[0];
    assert.deepEqual(podSummary(pod).status, 'Running');
    assert.match(cluster.podLogs('default', pod.metadata!.name!, {}), /ready for connections/);
  });

  test('`simulate` prints the sidecar Deployment as a real cluster shows it', async () => {
    let stdout = '';
    const code = await main(['simulate', join(FIXTURES, 'deployment-sidecar.yaml')], {
      stdout: { write: (s: string) => void (stdout += s) },
      stderr: { write: () => undefined },
      cwd: process.cwd(),
    });
    assert.equal(code, 0);
    assert.match(stdout, /^Settled after /m);
    assert.match(stdout, /^pod\/myapp-\S+\s+2\/2\s+Running\s+0\s+/m);
    assert.match(stdout, /^deployment\.apps\/myapp\s+1\/1\s+1\s+1\s+/m);
  });
});
