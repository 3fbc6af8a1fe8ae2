/** `kubectl describe` from the objects a client would list: Go's tabwriter, then each describer on a real sandbox. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { describeObject, describeProbe } from '../../../sandbox/printers/describe/describe';
import type { DescribeInputs } from '../../../sandbox/printers/describe/describe';
import { tabwriter } from '../../../sandbox/printers/describe/tabwriter';

const WEB: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.27',
            ports: [{ name: 'http', containerPort: 80 }],
            resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
          },
        ],
      },
    },
  },
};

const SVC: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web' },
  spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
};

function settled(): Cluster {
  const c = new Cluster({ seed: 1, nodes: 2 });
  c.start();
  c.apply(WEB);
  c.apply(SVC);
  c.runUntilSettled();
  return c;
}

/** A StatefulSet with a claim template and a partition, a DaemonSet on linux nodes, an HPA on the StatefulSet. */
function workloads(): Cluster {
  const c = new Cluster({ seed: 1, nodes: 2 });
  c.start();
  const template = (app: string) => ({
    metadata: { labels: { app } },
    spec: { containers: [{ name: app, image: `${app}:1`, resources: { requests: { cpu: '100m' } } }] },
  });
  c.apply({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db' },
    spec: {
      serviceName: 'db',
      replicas: 2,
      selector: { matchLabels: { app: 'db' } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
      template: template('db'),
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            storageClassName: 'standard',
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '1Gi' } },
          },
        },
      ],
    },
  });
  c.apply({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        ...template('agent'),
        spec: { ...template('agent').spec, nodeSelector: { 'kubernetes.io/os': 'linux' } },
      },
    },
  });
  c.apply({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'db' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' },
      minReplicas: 2,
      maxReplicas: 4,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
      behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
    },
  });
  c.runUntilSettled();
  c.runFor(60_000);
  return c;
}

function inputs(c: Cluster, obj: KubeObject): DescribeInputs {
  const ns = obj.metadata.namespace;
  const list = (r: string) => c.api.list(r).items.filter((o) => ns === undefined || o.metadata.namespace === ns);
  return {
    events: c.api
      .list('events')
      .items.filter((e) => (e as { involvedObject?: { uid?: string } }).involvedObject?.uid === obj.metadata.uid),
    pods: obj.kind === 'Node' ? c.api.list('pods').items : list('pods'),
    replicaSets: list('replicasets'),
    endpointSlices: list('endpointslices'),
    lease: obj.kind === 'Node' ? c.api.tryGet('leases', 'kube-node-lease', obj.metadata.name!) : undefined,
  };
}

describe('tabwriter (Go text/tabwriter, as kubectl describe sets it up)', () => {
  test('aligns a column over the lines that have a cell in it; a line without a tab ends the block', () => {
    const out = tabwriter(
      'Name:\tweb\nService Account:\tdefault\nIPs:\n  IP:\t10.0.0.1\nControlled By:\tReplicaSet/x\n',
    );
    assert.equal(
      out,
      [
        'Name:             web',
        'Service Account:  default',
        'IPs:',
        '  IP:           10.0.0.1',
        'Controlled By:  ReplicaSet/x',
        '',
      ].join('\n'),
    );
  });

  test('nested columns are sized per block of the outer column', () => {
    assert.equal(tabwriter('a\tbb\tc\naaa\tb\tc\nx\n'), 'a    bb  c\naaa  b   c\nx\n');
  });
});

describe('describeObject', () => {
  test('a pod: its sections in kubectl order, the container with ports, requests and probe, conditions, events', () => {
    const c = settled();
    const pod = c.api.list('pods').items[0];
    const text = describeObject(pod, inputs(c, pod), c.clock.now())!;
    const keys = text
      .split('\n')
      .filter((l) => /^[A-Z][\w -]+:/.test(l))
      .map((l) => l.slice(0, l.indexOf(':')));
    assert.deepEqual(keys, [
      'Name',
      'Namespace',
      // The Priority admission plugin sets spec.priority (0 without a class): describe.go prints it when set.
      'Priority',
      // The ServiceAccount admission plugin sets serviceAccountName: describe.go prints it when set.
      'Service Account',
      'Node',
      'Start Time',
      'Labels',
      'Annotations',
      'Status',
      'IP',
      'IPs',
      'Controlled By',
      'Containers',
      'Conditions',
      'Volumes',
      'QoS Class',
      'Node-Selectors',
      'Tolerations',
      'Events',
    ]);
    assert.match(text, /^Name: {13}web-[a-z0-9]+-[a-z0-9]{5}\n/);
    assert.match(text, /\n {4}Port: {11}80\/TCP \(http\)\n/);
    assert.match(text, /\n {4}Requests:\n {6}cpu: {8}100m\n {6}memory: {5}64Mi\n/);
    assert.match(text, /\nQoS Class: {19}Burstable\n/);
    assert.match(text, /\nTolerations: {17}node\.kubernetes\.io\/not-ready:NoExecute op=Exists for 300s\n/);
    assert.match(text, /\nEvents:\n {2}Type {4}Reason {5}Age {3}From {15}Message\n {2}---- {4}------ {5}---/);
    assert.match(text, /\n {2}Normal {2}Scheduled {2}\S+ +default-scheduler {2}Successfully assigned default\/web-/);
  });

  test('a deployment: replicas, strategy, the pod template, conditions and its new ReplicaSet', () => {
    const c = settled();
    const dep = c.api.get('deployments', 'default', 'web');
    const text = describeObject(dep, inputs(c, dep), c.clock.now())!;
    assert.match(text, /\nReplicas: {15}2 desired \| 2 updated \| 2 total \| 2 available \| 0 unavailable\n/);
    assert.match(text, /\nRollingUpdateStrategy: {2}25% max unavailable, 25% max surge\n/);
    assert.match(text, /\nPod Template:\n {2}Labels: {2}app=web\n {2}Containers:\n {3}nginx:\n/);
    assert.match(text, /\nOldReplicaSets: {2}<none>\nNewReplicaSet: {3}web-[a-z0-9]+ \(2\/2 replicas created\)\n/);
    assert.match(
      text,
      /ScalingReplicaSet {2}\S+ +deployment-controller {2}Scaled up replica set web-[a-z0-9]+ from 0 to 2/,
    );
  });

  test('a replicaset: controlled by its deployment, pods by phase', () => {
    const c = settled();
    const rs = c.api.list('replicasets').items[0];
    const text = describeObject(rs, inputs(c, rs), c.clock.now())!;
    assert.match(
      text,
      /\nControlled By: {2}Deployment\/web\nReplicas: {7}2 current \/ 2 desired\nPods Status: {4}2 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed\n/,
    );
  });

  test('a node: lease, conditions table, allocated resources counting its pods', () => {
    const c = settled();
    const pod = c.api.list('pods').items[0] as { spec?: { nodeName?: string } } & KubeObject;
    const node = c.api.get('nodes', undefined, pod.spec!.nodeName!);
    const onNode = c.api
      .list('pods')
      .items.filter((p) => (p as typeof pod).spec?.nodeName === node.metadata.name).length;
    const text = describeObject(node, inputs(c, node), c.clock.now())!;
    assert.match(text, /\nLease:\n {2}HolderIdentity: {2}node-\d\n/);
    assert.match(text, /\n {2}Ready {12}True {4}/);
    assert.match(text, new RegExp(`\\nNon-terminated Pods: +\\(${onNode} in total\\)\\n`));
    assert.match(
      text,
      new RegExp(`\\n {2}cpu +${onNode * 100}m \\(${Math.trunc((onNode * 100) / 40)}%\\) +0 \\(0%\\)\\n`),
    );
    assert.match(text, /\n {2}\(Total limits may be over 100 percent, i\.e\., overcommitted\.\)\n/);
  });

  test('a service: ports, target port and ready endpoints', () => {
    const c = settled();
    const svc = c.api.get('services', 'default', 'web');
    const text = describeObject(svc, inputs(c, svc), c.clock.now())!;
    assert.match(
      text,
      /\nPort: {21}http {2}80\/TCP\nTargetPort: {15}http\/TCP\nEndpoints: {16}10\.244\.\d+\.\d+:80,10\.244\.\d+\.\d+:80\n/,
    );
    assert.match(text, /\nEvents: {19}<none>\n$/);
  });

  test('a statefulset: replicas, partition, pods by phase, the template and its volume claims', () => {
    const c = workloads();
    const sts = c.api.get('statefulsets', 'default', 'db');
    const text = describeObject(sts, inputs(c, sts), c.clock.now())!;
    // upstream: describeStatefulSet, describeVolumeClaimTemplates
    assert.match(
      text,
      /\nSelector: {11}app=db\nLabels: {13}<none>\nAnnotations: {8}<none>\nReplicas: {11}2 desired \| 2 total\nUpdate Strategy: {4}RollingUpdate\n {2}Partition: {8}1\nPods Status: {8}2 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed\nPod Template:\n/,
    );
    assert.match(
      text,
      /\nVolume Claims:\n {2}Name: {10}data\n {2}StorageClass: {2}standard\n {2}Labels: {8}<none>\n {2}Annotations: {3}<none>\n {2}Capacity: {6}1Gi\n {2}Access Modes: {2}\[ReadWriteOnce\]\nEvents:\n/,
    );
    assert.match(text, /statefulset-controller {2}create Claim data-db-0 Pod db-0 in StatefulSet db success\n/);
  });

  test('a daemonset: the node counts from its status, its node selector and pods by phase', () => {
    const c = workloads();
    const ds = c.api.get('daemonsets', 'default', 'agent');
    const text = describeObject(ds, inputs(c, ds), c.clock.now())!;
    // upstream: describeDaemonSet — the counts are written without a tab, so they are not aligned.
    assert.match(
      text,
      /^Name: {11}agent\nNamespace: {6}default\nSelector: {7}app=agent\nNode-Selector: {2}kubernetes\.io\/os=linux\nLabels: {9}<none>\nAnnotations: {4}<none>\n/,
    );
    assert.match(
      text,
      /\nDesired Number of Nodes Scheduled: 2\nCurrent Number of Nodes Scheduled: 2\nNumber of Nodes Scheduled with Up-to-date Pods: 2\nNumber of Nodes Scheduled with Available Pods: 2\nNumber of Nodes Misscheduled: 0\nPods Status: {2}2 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed\nPod Template:\n/,
    );
  });

  test('an hpa: metrics current / target, behavior, the pods of its target and conditions; v1 reads print the same', () => {
    const c = workloads();
    const hpa = c.api.get('horizontalpodautoscalers', 'default', 'db');
    const text = describeObject(hpa, inputs(c, hpa), c.clock.now())!;
    // upstream: describeHorizontalPodAutoscalerV2, printDirectionBehavior
    assert.match(text, /\nReference: +StatefulSet\/db\nMetrics: +\( current \/ target \)\n/);
    assert.match(text, /\n {2}resource cpu on pods {2}\(as a percentage of request\): {2}\d+% \(\d+m\) \/ 50%\n/);
    assert.match(
      text,
      /\nMin replicas: +2\nMax replicas: +4\nBehavior:\n {2}Scale Up:\n {4}Stabilization Window: 0 seconds\n/,
    );
    assert.match(
      text,
      /\n {2}Scale Down:\n {4}Stabilization Window: 60 seconds\n {4}Select Policy: Max\n {4}Policies:\n {6}- Type: Percent {2}Value: 100 {2}Period: 15 seconds\n/,
    );
    assert.match(text, /\nStatefulSet pods: +2 current \/ 2 desired\n/);
    assert.match(
      text,
      /\nConditions:\n {2}Type +Status +Reason +Message\n {2}---- +------ +------ +-------\n {2}AbleToScale +True +\w+ +/,
    );
    const v1 = c.api.get(
      c.api.resourceOf({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' }),
      'default',
      'db',
    );
    const fromV1 = describeObject(v1, inputs(c, v1), c.clock.now())!;
    // The round-trip annotations are v1's own: kubectl reads v2 and never shows them.
    assert.equal(
      fromV1.replace(/\nAnnotations:[^]*?\nCreationTimestamp/, ''),
      text.replace(/\nAnnotations:[^]*?\nCreationTimestamp/, ''),
    );
  });

  test('kinds without a describer here are left to the caller', () => {
    assert.equal(
      describeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, { events: [] }, 0),
      undefined,
    );
  });

  test('probes read as kubectl prints them', () => {
    assert.equal(
      describeProbe({ httpGet: { path: '/', port: 'http' }, initialDelaySeconds: 2, periodSeconds: 5 }),
      'http-get http://:http/ delay=2s timeout=1s period=5s #success=1 #failure=3',
    );
    assert.equal(
      describeProbe({ exec: { command: ['cat', '/tmp/ok'] } }),
      'exec [cat /tmp/ok] delay=0s timeout=1s period=10s #success=1 #failure=3',
    );
  });
});
