import type { KubeObject } from '../../../sandbox/api/types';

/** Valid manifests of every common kind, as a user would write them. */
export const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    namespace: 'default',
    labels: { app: 'web', 'app.kubernetes.io/part-of': 'shop' },
    annotations: { 'example.com/owner': 'team-a' },
  },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'nginx:1.27',
        ports: [{ name: 'http', containerPort: 80 }],
        env: [
          { name: 'MODE', value: 'prod' },
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        ],
        resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
        livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 5 },
        readinessProbe: { tcpSocket: { port: 80 } },
        volumeMounts: [{ name: 'cfg', mountPath: '/etc/app' }],
      },
    ],
    volumes: [{ name: 'cfg', configMap: { name: 'app-config' } }],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
  },
};

const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
};

export const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
};

export const replicaSet: KubeObject = {
  ...deployment,
  kind: 'ReplicaSet',
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template },
};

export const statefulSet: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'db' },
  spec: {
    serviceName: 'db',
    selector: { matchLabels: { app: 'db' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['data'] }] },
    template: {
      metadata: { labels: { app: 'db', tier: 'data' } },
      spec: {
        containers: [
          { name: 'db', image: 'postgres:16', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql' }] },
        ],
      },
    },
    volumeClaimTemplates: [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ],
  },
};

export const daemonSet: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'kube-system' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'fluentd' }] } },
  },
};

export const job: KubeObject = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'pi' },
  spec: {
    backoffLimit: 4,
    template: {
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'pi', image: 'perl:5.34', command: ['perl', '-e', 'print 1'] }],
      },
    },
  },
};

export const cronJob: KubeObject = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'hello' },
  spec: {
    schedule: '*/5 * * * 1-5',
    jobTemplate: {
      spec: {
        template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.36' }] } },
      },
    },
  },
};

export const service: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web' },
  spec: {
    selector: { app: 'web' },
    ports: [
      { name: 'http', port: 80, targetPort: 'http' },
      { name: 'https', port: 443, targetPort: 8443 },
    ],
  },
};

export const nodePortService: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'np' },
  spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] },
};
export const headlessService: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'db' },
  spec: { clusterIP: 'None', selector: { app: 'db' } },
};
export const externalNameService: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'ext' },
  spec: { type: 'ExternalName', externalName: 'db.example.com.' },
};

export const configMap: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'app-config' },
  data: { 'app.properties': 'a=b', KEY_NAME: 'v' },
  binaryData: { 'logo.png': 'iVBORw0KGgo=' },
};
export const secret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'creds' },
  data: { password: 'cGFzc3dvcmQ=' },
  stringData: { user: 'admin' },
};
export const tlsSecret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'tls' },
  type: 'kubernetes.io/tls',
  data: { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' },
};
export const namespace: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } };
export const node: KubeObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1.example', labels: { 'kubernetes.io/hostname': 'node-1' } },
  status: { capacity: { cpu: '4', memory: '8Gi', pods: '110' } },
};
export const serviceAccount: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } };
export const pvc: KubeObject = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
};
export const hpa: KubeObject = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10 },
};
export const pdb: KubeObject = {
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web' },
  spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } },
};
export const ingress: KubeObject = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'web' },
  spec: {
    ingressClassName: 'nginx',
    rules: [
      {
        host: 'shop.example.com',
        http: {
          paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }],
        },
      },
    ],
  },
};
export const networkPolicy: KubeObject = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'allow-web' },
  spec: {
    podSelector: { matchLabels: { app: 'db' } },
    ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } } }], ports: [{ port: 5432 }] }],
  },
};
export const role: KubeObject = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: 'system:reader' },
  rules: [],
};
export const lease: KubeObject = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'node-1', namespace: 'kube-node-lease' },
};

export const ALL_VALID: readonly KubeObject[] = [
  pod,
  deployment,
  replicaSet,
  statefulSet,
  daemonSet,
  job,
  cronJob,
  service,
  nodePortService,
  headlessService,
  externalNameService,
  configMap,
  secret,
  tlsSecret,
  namespace,
  node,
  serviceAccount,
  pvc,
  hpa,
  pdb,
  ingress,
  networkPolicy,
  role,
  lease,
];
