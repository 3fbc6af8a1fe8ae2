/**
 * Complete manifests for a new document, as snippets: `${n:default}` tab
 * stops, `$n` mirrors of them, `${n|a,b|}` choices. Filled with their
 * defaults, each one validates without a single diagnostic (tested).
 */

export interface Skeleton {
  readonly apiVersion: string;
  readonly kind: string;
  /** The whole document, starting with `apiVersion:`, without a trailing newline. */
  readonly snippet: string;
}

const lines = (...ls: string[]): string => ls.join('\n');

const podTemplate = (indent: string, image: string, port: string): string[] =>
  [
    'template:',
    '  metadata:',
    '    labels:',
    '      app: $1',
    '  spec:',
    '    containers:',
    '      - name: $1',
    `        image: ${image}`,
    '        ports:',
    `          - containerPort: ${port}`,
  ].map((l) => indent + l);

/** In the order they are offered. */
export const SKELETONS: readonly Skeleton[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    snippet: lines('apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: ${1:web}', '  labels:', '    app: $1', 'spec:', '  replicas: ${2:1}', '  selector:', '    matchLabels:', '      app: $1', ...podTemplate('  ', '${3:nginx:1.27}', '${4:80}')),
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    snippet: lines('apiVersion: v1', 'kind: Service', 'metadata:', '  name: ${1:web}', 'spec:', '  selector:', '    app: ${2:web}', '  ports:', '    - name: ${3:http}', '      port: ${4:80}', '      targetPort: ${5:80}'),
  },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    snippet: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: ${1:config}', 'data:', '  ${2:key}: ${3:value}'),
  },
  {
    apiVersion: 'v1',
    kind: 'Secret',
    snippet: lines('apiVersion: v1', 'kind: Secret', 'metadata:', '  name: ${1:credentials}', 'type: Opaque', 'stringData:', '  ${2:password}: ${3:change-me}'),
  },
  {
    apiVersion: 'batch/v1',
    kind: 'Job',
    snippet: lines(
      'apiVersion: batch/v1',
      'kind: Job',
      'metadata:',
      '  name: ${1:job}',
      'spec:',
      '  backoffLimit: ${2:4}',
      '  template:',
      '    spec:',
      '      restartPolicy: ${3|Never,OnFailure|}',
      '      containers:',
      '        - name: $1',
      '          image: ${4:busybox:1.36}',
      '          command: ["sh", "-c", "${5:echo done}"]',
    ),
  },
  {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    snippet: lines(
      'apiVersion: batch/v1',
      'kind: CronJob',
      'metadata:',
      '  name: ${1:cron}',
      'spec:',
      '  schedule: "${2:*/5 * * * *}"',
      '  jobTemplate:',
      '    spec:',
      '      template:',
      '        spec:',
      '          restartPolicy: ${3|OnFailure,Never|}',
      '          containers:',
      '            - name: $1',
      '              image: ${4:busybox:1.36}',
      '              command: ["sh", "-c", "${5:date}"]',
    ),
  },
  {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    snippet: lines('apiVersion: apps/v1', 'kind: StatefulSet', 'metadata:', '  name: ${1:db}', 'spec:', '  serviceName: $1', '  replicas: ${2:1}', '  selector:', '    matchLabels:', '      app: $1', ...podTemplate('  ', '${3:postgres:16}', '${4:5432}')),
  },
  {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    snippet: lines('apiVersion: apps/v1', 'kind: DaemonSet', 'metadata:', '  name: ${1:agent}', 'spec:', '  selector:', '    matchLabels:', '      app: $1', ...podTemplate('  ', '${2:busybox:1.36}', '${3:9100}')),
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    snippet: lines('apiVersion: v1', 'kind: Pod', 'metadata:', '  name: ${1:web}', '  labels:', '    app: $1', 'spec:', '  containers:', '    - name: $1', '      image: ${2:nginx:1.27}'),
  },
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    snippet: lines(
      'apiVersion: networking.k8s.io/v1',
      'kind: Ingress',
      'metadata:',
      '  name: ${1:web}',
      'spec:',
      '  rules:',
      '    - host: ${2:example.com}',
      '      http:',
      '        paths:',
      '          - path: ${3:/}',
      '            pathType: ${4|Prefix,Exact,ImplementationSpecific|}',
      '            backend:',
      '              service:',
      '                name: ${5:web}',
      '                port:',
      '                  number: ${6:80}',
    ),
  },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    snippet: lines('apiVersion: v1', 'kind: PersistentVolumeClaim', 'metadata:', '  name: ${1:data}', 'spec:', '  accessModes:', '    - ${2|ReadWriteOnce,ReadOnlyMany,ReadWriteMany,ReadWriteOncePod|}', '  resources:', '    requests:', '      storage: ${3:1Gi}'),
  },
  {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    snippet: lines(
      'apiVersion: autoscaling/v2',
      'kind: HorizontalPodAutoscaler',
      'metadata:',
      '  name: ${1:web}',
      'spec:',
      '  scaleTargetRef:',
      '    apiVersion: apps/v1',
      '    kind: Deployment',
      '    name: $1',
      '  minReplicas: ${2:1}',
      '  maxReplicas: ${3:5}',
      '  metrics:',
      '    - type: Resource',
      '      resource:',
      '        name: cpu',
      '        target:',
      '          type: Utilization',
      '          averageUtilization: ${4:80}',
    ),
  },
  {
    apiVersion: 'v1',
    kind: 'Namespace',
    snippet: lines('apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: ${1:team}'),
  },
  {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    snippet: lines('apiVersion: v1', 'kind: ServiceAccount', 'metadata:', '  name: ${1:app}'),
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    snippet: lines('apiVersion: rbac.authorization.k8s.io/v1', 'kind: Role', 'metadata:', '  name: ${1:reader}', 'rules:', '  - apiGroups: [""]', '    resources: ["${2:pods}"]', '    verbs: ["get", "list", "watch"]'),
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    snippet: lines(
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: RoleBinding',
      'metadata:',
      '  name: ${1:reader}',
      'subjects:',
      '  - kind: ServiceAccount',
      '    name: ${2:app}',
      'roleRef:',
      '  apiGroup: rbac.authorization.k8s.io',
      '  kind: Role',
      '  name: ${3:reader}',
    ),
  },
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    snippet: lines(
      'apiVersion: networking.k8s.io/v1',
      'kind: NetworkPolicy',
      'metadata:',
      '  name: ${1:allow-web}',
      'spec:',
      '  podSelector:',
      '    matchLabels:',
      '      app: ${2:web}',
      '  policyTypes:',
      '    - Ingress',
      '  ingress:',
      '    - ports:',
      '        - port: ${3:80}',
    ),
  },
];
