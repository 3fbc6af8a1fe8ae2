import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGet, formatTable, tableFor } from '../../../sandbox/printers/index';
import { NOW, ago, clusterObj, deployment, obj, pods, replicaSet } from './fixtures';

/** Lines joined with newlines, plus the final newline kubectl writes. */
const text = (...lines: string[]) => lines.map((l) => `${l}\n`).join('');
const print = (kind: string, objects: Parameters<typeof tableFor>[1], options: Parameters<typeof tableFor>[3] = {}) =>
  formatTable(tableFor(kind, objects, NOW, options));

describe('tableFor: column definitions as upstream declares them', () => {
  test('pods: names, types and priorities', () => {
    const cols = tableFor('pods', [], NOW, { wide: true }).columns.map((c) => [c.name, c.type, c.priority]);
    assert.deepEqual(cols, [
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Status', 'string', 0],
      ['Restarts', 'string', 0],
      ['Age', 'string', 0],
      ['IP', 'string', 1],
      ['Node', 'string', 1],
      ['Nominated Node', 'string', 1],
      ['Readiness Gates', 'string', 1],
    ]);
  });

  test('events: wide columns interleave with the plain ones', () => {
    assert.deepEqual(
      tableFor('events', [], NOW, { wide: true }).columns.map((c) => `${c.name}/${c.priority}`),
      [
        'Last Seen/0',
        'Type/0',
        'Reason/0',
        'Object/0',
        'Subobject/1',
        'Source/1',
        'Message/0',
        'First Seen/1',
        'Count/1',
        'Name/1',
      ],
    );
  });

  test('rows carry their object and typed cells', () => {
    const t = tableFor('deploy', [deployment], NOW);
    assert.deepEqual(t.rows, [{ cells: ['web', '2/3', 3, 2, '5m'], object: deployment }]);
  });
});

describe('formatTable: kubectl get output', () => {
  test('pods', () => {
    assert.equal(
      print('pods', pods),
      text(
        'NAME    READY   STATUS             RESTARTS     AGE',
        'web-1   1/1     Running            0            5m',
        'web-2   0/1     CrashLoopBackOff   3 (2m ago)   5m',
      ),
    );
  });

  test('pods -o wide', () => {
    assert.equal(
      print('po', pods, { wide: true }),
      text(
        'NAME    READY   STATUS             RESTARTS     AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'web-1   1/1     Running            0            5m    10.244.1.5   node-1   <none>           <none>',
        'web-2   0/1     CrashLoopBackOff   3 (2m ago)   5m    <none>       node-2   <none>           0/1',
      ),
    );
  });

  test('deployments, wide', () => {
    assert.equal(
      print('deployments', [deployment], { wide: true }),
      text(
        'NAME   READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES               SELECTOR', //
        'web    2/3     3            2           5m    web,log      nginx:1.27,busybox   app=web',
      ),
    );
  });

  test('replicasets', () => {
    assert.equal(
      print('rs', [replicaSet]),
      text(
        'NAME             DESIRED   CURRENT   READY   AGE', //
        'web-5d9c7b8f6c   3         3         2       5m',
      ),
    );
  });

  test('statefulsets and daemonsets', () => {
    const sts = obj('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 2 }, status: { readyReplicas: 1 } });
    assert.equal(print('sts', [sts]), text('NAME   READY   AGE', 'db     1/2     5m'));
    const ds = obj('apps/v1', 'DaemonSet', 'agent', {
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [] } },
      },
      status: {
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberReady: 2,
        updatedNumberScheduled: 3,
        numberAvailable: 2,
      },
    });
    assert.equal(
      print('ds', [ds]),
      text(
        'NAME    DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR            AGE', //
        'agent   3         3         2       3            2           kubernetes.io/os=linux   5m',
      ),
    );
  });

  test('jobs and cronjobs', () => {
    const done = obj('batch/v1', 'Job', 'pi', {
      spec: { completions: 3, parallelism: 1 },
      status: {
        succeeded: 3,
        startTime: ago(250),
        completionTime: ago(100),
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    });
    const running = obj('batch/v1', 'Job', 'batch', {
      spec: { parallelism: 2 },
      status: { succeeded: 0, startTime: ago(45), active: 2 },
    });
    assert.equal(
      print('jobs', [done, running]),
      text(
        'NAME    STATUS     COMPLETIONS   DURATION   AGE', //
        'pi      Complete   3/3           2m30s      5m',
        'batch   Running    0/1 of 2      45s        5m',
      ),
    );
    const cj = obj('batch/v1', 'CronJob', 'backup', {
      spec: { schedule: '*/5 * * * *', suspend: false },
      status: { active: [{ name: 'backup-1' }], lastScheduleTime: ago(60) },
    });
    assert.equal(
      print('cronjobs', [cj]),
      text(
        'NAME     SCHEDULE      TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE', //
        'backup   */5 * * * *   <none>     False     1        60s             5m',
      ),
    );
  });

  test('services: ClusterIP, NodePort, LoadBalancer pending, headless', () => {
    const svc = (name: string, spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
      obj('v1', 'Service', name, { spec, status });
    const list = [
      svc('web', {
        type: 'ClusterIP',
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        ports: [{ port: 80, protocol: 'TCP' }],
        selector: { app: 'web' },
      }),
      svc('np', {
        type: 'NodePort',
        clusterIP: '10.96.0.11',
        clusterIPs: ['10.96.0.11'],
        ports: [
          { port: 80, nodePort: 30080, protocol: 'TCP' },
          { port: 53, protocol: 'UDP' },
        ],
      }),
      svc('lb', {
        type: 'LoadBalancer',
        clusterIP: '10.96.0.12',
        clusterIPs: ['10.96.0.12'],
        ports: [{ port: 443, nodePort: 31443, protocol: 'TCP' }],
      }),
      svc('db', { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] }),
    ];
    assert.equal(
      print('svc', list),
      text(
        'NAME   TYPE           CLUSTER-IP   EXTERNAL-IP   PORT(S)               AGE',
        'web    ClusterIP      10.96.0.10   <none>        80/TCP                5m',
        'np     NodePort       10.96.0.11   <none>        80:30080/TCP,53/UDP   5m',
        'lb     LoadBalancer   10.96.0.12   <pending>     443:31443/TCP         5m',
        'db     ClusterIP      None         <none>        <none>                5m',
      ),
    );
  });

  test('nodes: Ready, NotReady for Unknown, SchedulingDisabled, roles; wide', () => {
    const node = (
      name: string,
      ready: string | undefined,
      extra: { labels?: Record<string, string>; unschedulable?: boolean } = {},
    ) =>
      clusterObj(
        'v1',
        'Node',
        name,
        {
          spec: extra.unschedulable ? { unschedulable: true } : {},
          status: {
            conditions: ready ? [{ type: 'Ready', status: ready }] : [],
            addresses: [
              { type: 'InternalIP', address: '172.18.0.2' },
              { type: 'Hostname', address: name },
            ],
            nodeInfo: {
              kubeletVersion: 'v1.33.1',
              osImage: 'Debian GNU/Linux 12 (bookworm)',
              kernelVersion: '6.8.0',
              containerRuntimeVersion: 'containerd://2.1.1',
            },
          },
        },
        extra.labels ? { labels: extra.labels } : {},
      );
    const list = [
      node('node-1', 'True', {
        labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'master' },
      }),
      node('node-2', 'Unknown', { unschedulable: true }),
      node('node-3', undefined),
    ];
    assert.equal(
      print('nodes', list),
      text(
        'NAME     STATUS                        ROLES                  AGE    VERSION',
        'node-1   Ready                         control-plane,master   3d4h   v1.33.1',
        'node-2   NotReady,SchedulingDisabled   <none>                 3d4h   v1.33.1',
        'node-3   Unknown                       <none>                 3d4h   v1.33.1',
      ),
    );
    assert.equal(
      print('no', [list[0]], { wide: true }),
      text(
        'NAME     STATUS   ROLES                  AGE    VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE                         KERNEL-VERSION   CONTAINER-RUNTIME',
        'node-1   Ready    control-plane,master   3d4h   v1.33.1   172.18.0.2    <none>        Debian GNU/Linux 12 (bookworm)   6.8.0            containerd://2.1.1',
      ),
    );
  });

  test('events', () => {
    const ev = (
      name: string,
      type: string,
      reason: string,
      kind: string,
      involved: string,
      message: string,
      last: number,
    ) =>
      obj('v1', 'Event', name, {
        type,
        reason,
        message,
        involvedObject: { kind, name: involved, namespace: 'default' },
        firstTimestamp: ago(last + 10),
        lastTimestamp: ago(last),
        count: 1,
        source: { component: 'kubelet', host: 'node-1' },
      });
    const list = [
      ev('web-1.1', 'Normal', 'Scheduled', 'Pod', 'web-1', 'Successfully assigned default/web-1 to node-1', 290),
      ev(
        'web.2',
        'Normal',
        'ScalingReplicaSet',
        'Deployment',
        'web',
        'Scaled up replica set web-5d9c7b8f6c from 0 to 3',
        295,
      ),
      ev(
        'web-2.3',
        'Warning',
        'BackOff',
        'Pod',
        'web-2',
        'Back-off restarting failed container web in pod web-2_default(uid)',
        5,
      ),
    ];
    assert.equal(
      print('events', list),
      text(
        'LAST SEEN   TYPE      REASON              OBJECT           MESSAGE',
        '4m50s       Normal    Scheduled           pod/web-1        Successfully assigned default/web-1 to node-1',
        '4m55s       Normal    ScalingReplicaSet   deployment/web   Scaled up replica set web-5d9c7b8f6c from 0 to 3',
        '5s          Warning   BackOff             pod/web-2        Back-off restarting failed container web in pod web-2_default(uid)',
      ),
    );
    assert.equal(
      print('ev', [list[2]], { wide: true }),
      text(
        'LAST SEEN   TYPE      REASON    OBJECT      SUBOBJECT   SOURCE            MESSAGE                                                              FIRST SEEN   COUNT   NAME',
        '5s          Warning   BackOff   pod/web-2               kubelet, node-1   Back-off restarting failed container web in pod web-2_default(uid)   15s          1       web-2.3',
      ),
    );
  });

  test('config: configmaps, secrets, serviceaccounts', () => {
    assert.equal(
      print('cm', [obj('v1', 'ConfigMap', 'settings', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } })]),
      text('NAME       DATA   AGE', 'settings   3      5m'),
    );
    assert.equal(
      print('secrets', [
        obj('v1', 'Secret', 'tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'x', 'tls.key': 'y' } }),
      ]),
      text('NAME   TYPE                DATA   AGE', 'tls    kubernetes.io/tls   2      5m'),
    );
    assert.equal(
      print('sa', [obj('v1', 'ServiceAccount', 'default')]),
      text('NAME      SECRETS   AGE', 'default   0         5m'),
    );
  });

  test('endpoints and endpointslices, with "+ N more..."', () => {
    const ep = obj('v1', 'Endpoints', 'web', {
      subsets: [{ addresses: [{ ip: '10.244.1.5' }, { ip: '10.244.2.6' }], ports: [{ port: 80 }, { port: 443 }] }],
    });
    assert.equal(
      print('ep', [ep]),
      text(
        'NAME   ENDPOINTS                                                AGE',
        'web    10.244.1.5:80,10.244.2.6:80,10.244.1.5:443 + 1 more...   5m',
      ),
    );
    const slice = obj('discovery.k8s.io/v1', 'EndpointSlice', 'web-abcde', {
      addressType: 'IPv4',
      ports: [{ port: 80 }],
      endpoints: [{ addresses: ['10.244.1.5'] }],
    });
    const empty = obj('discovery.k8s.io/v1', 'EndpointSlice', 'db-xyz12', { addressType: 'IPv4', endpoints: [] });
    assert.equal(
      print('endpointslices', [slice, empty]),
      text(
        'NAME        ADDRESSTYPE   PORTS     ENDPOINTS    AGE', //
        'web-abcde   IPv4          80        10.244.1.5   5m',
        'db-xyz12    IPv4          <unset>   <unset>      5m',
      ),
    );
  });

  test('namespaces, leases, ingresses, hpa, pvc', () => {
    assert.equal(
      print('ns', [clusterObj('v1', 'Namespace', 'default', { status: { phase: 'Active' } })]),
      text('NAME      STATUS   AGE', 'default   Active   3d4h'),
    );
    const lease = obj(
      'coordination.k8s.io/v1',
      'Lease',
      'node-1',
      { spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40 } },
      { namespace: 'kube-node-lease' },
    );
    assert.equal(print('leases', [lease]), text('NAME     HOLDER   AGE', 'node-1   node-1   5m'));
    const ing = obj('networking.k8s.io/v1', 'Ingress', 'web', {
      spec: {
        ingressClassName: 'nginx',
        rules: [{ host: 'a.example.com' }, { host: 'b.example.com' }],
        tls: [{ hosts: ['a.example.com'] }],
      },
    });
    assert.equal(
      print('ing', [ing]),
      text(
        'NAME   CLASS   HOSTS                         ADDRESS   PORTS     AGE',
        'web    nginx   a.example.com,b.example.com             80, 443   5m',
      ),
    );
    const hpa = obj('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', {
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
        ],
      },
      status: {
        currentReplicas: 3,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45 } } }],
      },
    });
    assert.equal(
      print('hpa', [hpa]),
      text(
        'NAME   REFERENCE        TARGETS        MINPODS   MAXPODS   REPLICAS   AGE',
        'web    Deployment/web   cpu: 45%/80%   1         10        3          5m',
      ),
    );
    const pvc = obj('v1', 'PersistentVolumeClaim', 'data', {
      spec: { volumeName: 'pv-1', storageClassName: 'standard', accessModes: ['ReadWriteOnce'] },
      status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce', 'ReadWriteMany'] },
    });
    assert.equal(
      print('pvc', [pvc]),
      text(
        'NAME   STATUS   VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE',
        'data   Bound    pv-1     1Gi        RWO,RWX        standard       <unset>                 5m',
      ),
    );
  });

  test('pdb: MIN AVAILABLE and MAX UNAVAILABLE (N/A when unset), ALLOWED DISRUPTIONS from the status', () => {
    const min = obj('policy/v1', 'PodDisruptionBudget', 'web', {
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
      status: { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 },
    });
    const max = obj('policy/v1', 'PodDisruptionBudget', 'db', { spec: { maxUnavailable: '25%' }, status: {} });
    assert.equal(
      print('pdb', [min, max]),
      text(
        'NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE',
        'web    2               N/A               1                     5m',
        'db     N/A             25%               0                     5m',
      ),
    );
  });

  test('roles print NAME and CREATED AT, as kubectl does', () => {
    // upstream: pkg/printers/internalversion/printers.go roleColumnDefinitions (Name, Created At).
    assert.equal(
      print('roles', [obj('rbac.authorization.k8s.io/v1', 'Role', 'reader')]),
      text('NAME     CREATED AT', 'reader   2026-01-01T00:55:00Z'),
    );
  });

  test('short cells still get the minimum column width of 6', () => {
    assert.equal(print('sa', [obj('v1', 'ServiceAccount', 'a')]), text('NAME   SECRETS   AGE', 'a      0         5m'));
  });

  test('-A adds NAMESPACE first; --no-headers drops the header; no rows prints nothing', () => {
    const t = tableFor('pods', [pods[0]], NOW, { showNamespace: true });
    assert.equal(
      formatTable(t),
      text(
        'NAMESPACE   NAME    READY   STATUS    RESTARTS   AGE',
        'default     web-1   1/1     Running   0          5m',
      ),
    );
    assert.equal(formatTable(t, { noHeaders: true }), text('default   web-1   1/1   Running   0     5m'));
    assert.equal(formatTable(tableFor('pods', [], NOW)), '');
  });
});

describe('formatGet: kubectl get deploy,rs,pods', () => {
  test('one table per kind, kind-prefixed names, a blank line between', () => {
    assert.equal(
      formatGet(
        [
          { kind: 'deploy', objects: [deployment] },
          { kind: 'rs', objects: [replicaSet] },
          { kind: 'jobs', objects: [] },
          { kind: 'pods', objects: pods },
        ],
        NOW,
      ),
      text(
        'NAME                  READY   UP-TO-DATE   AVAILABLE   AGE',
        'deployment.apps/web   2/3     3            2           5m',
        '',
        'NAME                             DESIRED   CURRENT   READY   AGE',
        'replicaset.apps/web-5d9c7b8f6c   3         3         2       5m',
        '',
        'NAME        READY   STATUS             RESTARTS     AGE',
        'pod/web-1   1/1     Running            0            5m',
        'pod/web-2   0/1     CrashLoopBackOff   3 (2m ago)   5m',
      ),
    );
  });

  test('a single kind is printed without prefixes', () => {
    assert.equal(formatGet([{ kind: 'deployments', objects: [deployment] }], NOW), print('deployments', [deployment]));
  });
});
