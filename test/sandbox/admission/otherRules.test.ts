import { describe } from 'node:test';
import type { KubeObject } from '../../../sandbox/api/types';
import { configMap, externalNameService, hpa, ingress, networkPolicy, pdb, pvc, secret, service } from './fixtures';
import { variant } from './helpers';
import { runCases } from './cases';

type C = Record<string, unknown>;
const spec = (o: KubeObject): C => o.spec as C;
const CONFIG_KEY =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

describe('service rules', () => {
  runCases([
    {
      name: 'ports required',
      obj: variant(service, (o) => delete spec(o).ports),
      want: ['service-ports | spec.ports: Required value'],
    },
    {
      name: 'port fields',
      obj: variant(
        service,
        (o) =>
          (spec(o).ports = [
            { port: 80 },
            { name: 'b', port: 0, protocol: 'tcp', targetPort: 70000 },
            { name: 'c', port: 80, nodePort: 30000 },
          ]),
      ),
      want: [
        'service-ports | spec.ports[0].name: Required value',
        'service-ports | spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'service-ports | spec.ports[1].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"',
        'service-ports | spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'service-ports | spec.ports[2]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
        "service-node-ports | spec.ports[2].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
      ],
    },
    {
      name: 'node port range and type',
      obj: variant(service, (o) =>
        Object.assign(spec(o), {
          type: 'NodePort',
          ports: [
            { name: 'a', port: 80, nodePort: 80 },
            { name: 'b', port: 81, nodePort: 80 },
          ],
        }),
      ),
      want: [
        'service-node-ports | spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
        'service-node-ports | spec.ports[1].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
        'service-node-ports | spec.ports[1].nodePort: Duplicate value: 80',
      ],
    },
    {
      name: 'type enum',
      obj: variant(service, (o) => (spec(o).type = 'Internal')),
      want: [
        'service-type | spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ],
    },
    {
      name: 'externalName required',
      obj: variant(externalNameService, (o) => delete spec(o).externalName),
      want: ['service-type | spec.externalName: Required value'],
    },
    {
      name: 'clusterIP immutable',
      obj: variant(service, (o) => (spec(o).clusterIP = '10.96.0.11')),
      old: variant(service, (o) => (spec(o).clusterIP = '10.96.0.10')),
      want: ['service-cluster-ip-immutable | spec.clusterIP: Invalid value: "10.96.0.11": field is immutable'],
    },
    {
      name: 'clusterIP may go when switching to ExternalName',
      obj: variant(externalNameService, (o) => (o.metadata.name = 'web')),
      old: variant(service, (o) => (spec(o).clusterIP = '10.96.0.10')),
      want: [],
    },
  ]);
});

describe('config data rules', () => {
  runCases([
    {
      name: 'ConfigMap keys and duplicates',
      obj: variant(configMap, (o) => {
        o.data = { 'bad key': 'x', '..hidden': 'y', 'logo.png': 'z' };
      }),
      want: [
        `configmap-data | data[bad key]: Invalid value: "bad key": ${CONFIG_KEY}`,
        'configmap-data | data[..hidden]: Invalid value: "..hidden": must not start with \'..\'',
        'configmap-data | data[logo.png]: Invalid value: "logo.png": duplicate of key present in binaryData',
      ],
    },
    {
      name: 'ConfigMap too large',
      obj: variant(configMap, (o) => (o.data = { a: 'x'.repeat(1024 * 1024) })),
      want: ['configmap-data | : Too long: may not be more than 1048576 bytes'],
    },
    {
      name: 'Secret base64',
      obj: variant(secret, (o) => (o.data = { password: 'not base64!' })),
      want: ['secret-data | data[password]: Invalid value: "password": illegal base64 data at input byte 3'],
    },
    {
      name: 'TLS Secret keys',
      obj: variant(secret, (o) => (o.type = 'kubernetes.io/tls')),
      want: ['secret-data | data[tls.crt]: Required value', 'secret-data | data[tls.key]: Required value'],
    },
    {
      name: 'Secret type immutable',
      obj: variant(secret, (o) => (o.type = 'example.com/custom')),
      old: secret,
      want: ['secret-type-immutable | type: Invalid value: "example.com/custom": field is immutable'],
    },
    {
      name: 'immutable ConfigMap',
      obj: variant(configMap, (o) => (o.data = { a: 'changed' })),
      old: variant(configMap, (o) => (o.immutable = true)),
      want: [
        'immutable-data | immutable: Forbidden: field is immutable when `immutable` is set',
        'immutable-data | data: Forbidden: field is immutable when `immutable` is set',
      ],
    },
  ]);
});

describe('other kinds', () => {
  runCases([
    {
      name: 'HPA replicas and target',
      obj: variant(hpa, (o) =>
        Object.assign(spec(o), { minReplicas: 0, maxReplicas: -1, scaleTargetRef: { kind: 'Deployment' } }),
      ),
      want: [
        'hpa-replicas | spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
        'hpa-replicas | spec.maxReplicas: Invalid value: -1: must be greater than 0',
        'hpa-replicas | spec.maxReplicas: Invalid value: -1: must be greater than or equal to `minReplicas`',
        'hpa-scale-target-ref | spec.scaleTargetRef.name: Required value',
      ],
    },
    {
      name: 'PDB both set',
      obj: variant(pdb, (o) => (spec(o).maxUnavailable = 1)),
      want: ['pdb-spec | spec.minAvailable: Invalid value: "50%": minAvailable and maxUnavailable cannot be both set'],
    },
    {
      name: 'PVC access modes and storage',
      obj: variant(pvc, (o) =>
        Object.assign(spec(o), { accessModes: ['ReadWriteAll'], resources: { requests: { storage: '0' } } }),
      ),
      want: [
        'pvc-spec | spec.accessModes: Unsupported value: "ReadWriteAll": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
        'pvc-spec | spec.resources.requests[storage]: Invalid value: "0": must be greater than zero',
      ],
    },
    {
      name: 'PVC requirements',
      obj: variant(pvc, (o) => (o.spec = {})),
      want: [
        'pvc-spec | spec.accessModes: Required value: at least 1 access mode is required',
        'pvc-spec | spec.resources.requests[storage]: Required value',
      ],
    },
    {
      name: 'Ingress paths and backends',
      obj: variant(
        ingress,
        (o) =>
          (spec(o).rules = [
            {
              host: 'Shop',
              http: {
                paths: [
                  { path: 'api', pathType: 'Prefix', backend: { service: { name: 'web', port: {} } } },
                  { path: '/', backend: { service: { name: 'web', port: { number: 80 } } } },
                ],
              },
            },
          ]),
      ),
      want: [
        "ingress-spec | spec.rules[0].host: Invalid value: \"Shop\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'ingress-spec | spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path',
        'ingress-spec | spec.rules[0].http.paths[0].backend: Required value: port name or number is required',
        'ingress-spec | spec.rules[0].http.paths[1].pathType: Required value: pathType must be specified',
      ],
    },
    {
      name: 'NetworkPolicy types and ports',
      obj: variant(networkPolicy, (o) =>
        Object.assign(spec(o), { policyTypes: ['ingress'], ingress: [{ ports: [{ port: 0, protocol: 'ICMP' }] }] }),
      ),
      want: [
        'networkpolicy-spec | spec.policyTypes[0]: Unsupported value: "ingress": supported values: "Ingress", "Egress"',
        'networkpolicy-spec | spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        'networkpolicy-spec | spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      ],
    },
  ]);
});
