/** A container's environment as pkg/kubelet/kubelet_pods.go `makeEnvironmentVariables` builds it. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, Service } from 'kubernetes-types/core/v1';
import { compactEnv, containerEnvironment, processEnvironment } from '../../../../sandbox/kubelet/container/env';

const pod = (c: Partial<Container>, spec: Partial<NonNullable<Pod['spec']>> = {}): [Pod, Container] => {
  const container: Container = { name: 'app', image: 'busybox', ...c };
  return [
    {
      metadata: { name: 'web-1', namespace: 'shop', uid: 'u-1', labels: { app: 'web', tier: 'front' } },
      spec: { nodeName: 'node-1', containers: [container], ...spec },
    },
    container,
  ];
};

const svc = (
  name: string,
  namespace: string,
  clusterIP: string,
  ports: Service['spec'] extends infer S ? (S extends { ports?: infer P } ? P : never) : never,
): Service => ({
  metadata: { name, namespace },
  spec: { clusterIP, ports },
});

const facts = {
  podIP: '10.244.1.7',
  hostIP: '10.0.0.3',
  services: [
    svc('kubernetes', 'default', '10.96.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }]),
    svc('redis-leader', 'shop', '10.96.4.5', [{ port: 6379 }]),
    svc('headless', 'shop', 'None', [{ port: 80 }]),
  ],
  nodeAllocatable: { cpu: 4000, memory: 16 * 2 ** 30 },
};
const noConfig = () => undefined;

describe('containerEnvironment', () => {
  test('Service links (the kubernetes Service always), then env with $(VAR), the downward API, resource fields', () => {
    const [p, c] = pod({
      env: [
        { name: 'GREETING', value: 'hello' },
        { name: 'MESSAGE', value: '$(GREETING) world, $$(GREETING) is literal' },
        { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'TIER', valueFrom: { fieldRef: { fieldPath: "metadata.labels['tier']" } } },
        { name: 'MEM_MI', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
        { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
      ],
      resources: { requests: { cpu: '250m' } },
    });
    const r = containerEnvironment(p, c, noConfig, facts);
    assert.ok('vars' in r);
    assert.deepEqual(Object.fromEntries(r.vars), {
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
      KUBERNETES_SERVICE_PORT_HTTPS: '443',
      KUBERNETES_PORT: 'tcp://10.96.0.1:443',
      KUBERNETES_PORT_443_TCP: 'tcp://10.96.0.1:443',
      KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
      KUBERNETES_PORT_443_TCP_PORT: '443',
      KUBERNETES_PORT_443_TCP_ADDR: '10.96.0.1',
      REDIS_LEADER_SERVICE_HOST: '10.96.4.5',
      REDIS_LEADER_SERVICE_PORT: '6379',
      REDIS_LEADER_PORT: 'tcp://10.96.4.5:6379',
      REDIS_LEADER_PORT_6379_TCP: 'tcp://10.96.4.5:6379',
      REDIS_LEADER_PORT_6379_TCP_PROTO: 'tcp',
      REDIS_LEADER_PORT_6379_TCP_PORT: '6379',
      REDIS_LEADER_PORT_6379_TCP_ADDR: '10.96.4.5',
      GREETING: 'hello',
      MESSAGE: 'hello world, $(GREETING) is literal',
      POD_IP: '10.244.1.7',
      TIER: 'front',
      MEM_MI: '16384',
      CPU: '250',
    });
  });

  test('enableServiceLinks: false keeps only the kubernetes Service', () => {
    const [p, c] = pod({}, { enableServiceLinks: false });
    const r = containerEnvironment(p, c, noConfig, facts);
    assert.ok('vars' in r);
    assert.deepEqual(
      [...r.vars.keys()].filter((k) => k.endsWith('_SERVICE_HOST')),
      ['KUBERNETES_SERVICE_HOST'],
    );
  });

  test('envFrom with a prefix; a Secret value is decoded; the first error wins', () => {
    const read = (resource: string, _ns: string, name: string): { data: Record<string, string> } | undefined =>
      resource === 'secrets' && name === 'db'
        ? { data: { user: Buffer.from('admin').toString('base64') } }
        : resource === 'configmaps' && name === 'cfg'
          ? { data: { LEVEL: 'debug' } }
          : undefined;
    const [p, c] = pod({
      envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'APP_' }],
      env: [{ name: 'USER', valueFrom: { secretKeyRef: { name: 'db', key: 'user' } } }],
    });
    const r = containerEnvironment(p, c, read, { ...facts, services: [] });
    assert.ok('vars' in r);
    assert.deepEqual([r.vars.get('APP_LEVEL'), r.vars.get('USER')], ['debug', 'admin']);
    const [p2, c2] = pod({
      env: [
        { name: 'A', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
        { name: 'B', valueFrom: { configMapKeyRef: { name: 'missing', key: 'x' } } },
      ],
    });
    assert.deepEqual(containerEnvironment(p2, c2, read, facts), {
      error: "couldn't find key password in Secret shop/db",
    });
  });
});

describe('Service variables of stored Services, worked out once per namespace', () => {
  const frozen = (s: Service) => Object.freeze(s);
  const hosts = (services: readonly Service[], p = pod({})) => {
    const r = containerEnvironment(p[0], p[1], noConfig, { ...facts, services });
    assert.ok('vars' in r);
    return [...r.vars].filter(([k]) => k.endsWith('_SERVICE_HOST'));
  };

  test('the same frozen Services give the same variables; a new version of one gives its new address', () => {
    const kubernetes = frozen(svc('kubernetes', 'default', '10.96.0.1', [{ port: 443 }]));
    const web = frozen(svc('web', 'shop', '10.96.7.7', [{ port: 80 }]));
    const first = hosts([kubernetes, web]);
    assert.deepEqual(first, [
      ['KUBERNETES_SERVICE_HOST', '10.96.0.1'],
      ['WEB_SERVICE_HOST', '10.96.7.7'],
    ]);
    assert.deepEqual(hosts([kubernetes, web]), first);
    const moved = frozen(svc('web', 'shop', '10.96.8.8', [{ port: 80 }]));
    assert.deepEqual(hosts([kubernetes, moved]), [
      ['KUBERNETES_SERVICE_HOST', '10.96.0.1'],
      ['WEB_SERVICE_HOST', '10.96.8.8'],
    ]);
    // another namespace, or links turned off, from the same Services
    assert.deepEqual(hosts([kubernetes, moved], pod({}, { enableServiceLinks: false })), [
      ['KUBERNETES_SERVICE_HOST', '10.96.0.1'],
    ]);
  });

  test('a Service that is not frozen is read again each time (it may have changed in place)', () => {
    const web = svc('web', 'shop', '10.96.7.7', [{ port: 80 }]);
    assert.deepEqual(hosts([web]), [['WEB_SERVICE_HOST', '10.96.7.7']]);
    web.spec!.clusterIP = '10.96.9.9';
    assert.deepEqual(hosts([web]), [['WEB_SERVICE_HOST', '10.96.9.9']]);
  });
});

describe('compactEnv (what a running container keeps of the kubelet variables)', () => {
  test('the namespace’s shared Service variables when they are all there is', () => {
    // As the kubelet reads them: stored objects, frozen (their variables are worked out once).
    const stored = { ...facts, services: facts.services.map((s) => Object.freeze(structuredClone(s))) };
    const [p, c] = pod({});
    const r = containerEnvironment(p, c, noConfig, stored);
    assert.ok('vars' in r);
    const first = compactEnv(r.vars);
    const [p2, c2] = pod({ name: 'other' });
    const r2 = containerEnvironment({ ...p2, metadata: { ...p2.metadata, name: 'web-2' } }, c2, noConfig, stored);
    assert.ok('vars' in r2);
    // Another pod of the namespace, no env of its own: the very same list, not a copy.
    assert.equal(compactEnv(r2.vars), first);
    assert.deepEqual([...first], [...r.vars]);
  });

  test('the process environment built from it is the one built from the Map, entry for entry and in order', () => {
    const read = (resource: string, _ns: string, name: string) =>
      resource === 'configmaps' && name === 'settings' ? { data: { PATH: '/opt/bin', MODE: 'fast' } } : undefined;
    const [p, c] = pod({
      envFrom: [{ configMapRef: { name: 'settings' } }],
      env: [
        { name: 'HOME', value: '/home/app' },
        { name: 'KUBERNETES_SERVICE_PORT', value: 'overridden' },
        { name: 'HOSTNAME', value: 'custom' },
      ],
      workingDir: '/srv',
    });
    const r = containerEnvironment(p, c, read, facts);
    assert.ok('vars' in r);
    const compact = compactEnv(r.vars);
    assert.deepEqual([...processEnvironment(p, c, compact)], [...processEnvironment(p, c, r.vars)]);
    assert.deepEqual([...processEnvironment(p, c, compact)].slice(0, 3), [
      ['PATH', '/opt/bin'],
      ['HOSTNAME', 'custom'],
      ['MODE', 'fast'],
    ]);
  });
});
