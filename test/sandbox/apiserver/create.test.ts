import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { configMap, eventLog, newApi, pod, statusOf } from '../fixtures';
import { anEvent } from '../../builders';

describe('create', () => {
  test('sets uid, creationTimestamp, resourceVersion; drops client status; Pods start Pending with a QoS class', () => {
    const { api } = newApi();
    const before = Number(api.resourceVersion);
    const created = api.create({ ...pod('web-1'), status: { phase: 'Running' } });
    assert.equal(created.metadata.resourceVersion, String(before + 1));
    assert.match(created.metadata.uid!, /^[0-9a-f-]{36}$/);
    assert.equal(created.metadata.creationTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(created.metadata.generation, undefined);
    assert.deepEqual(created.status, { phase: 'Pending', qosClass: 'BestEffort' });
    assert.ok(Object.isFrozen(created) && Object.isFrozen(created.metadata));
    assert.equal(api.get('pods', 'default', 'web-1'), created);
  });

  test('kinds with a generation start at 1', () => {
    const { api } = newApi();
    const d = api.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'nginx' }] } },
      },
    });
    assert.equal(d.metadata.generation, 1);
    assert.equal(d.metadata.namespace, 'default');
    assert.deepEqual(d.status, {});
  });

  test('generateName appends five characters from the upstream alphabet', () => {
    const { api } = newApi();
    const a = api.create({ ...pod(''), metadata: { generateName: 'web-', namespace: 'default' } });
    const b = api.create({ ...pod(''), metadata: { generateName: 'web-', namespace: 'default' } });
    assert.match(a.metadata.name!, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.notEqual(a.metadata.name, b.metadata.name);
  });

  test('same seed, same uids and names', () => {
    const names = (seed: number) => {
      const { api } = newApi(seed);
      const p = api.create({ ...pod(''), metadata: { generateName: 'x-', namespace: 'default' } });
      return [p.metadata.name, p.metadata.uid];
    };
    assert.deepEqual(names(5), names(5));
    assert.notDeepEqual(names(5), names(6));
  });

  test('409 AlreadyExists with the upstream Status', () => {
    const { api } = newApi();
    api.create(configMap('settings'));
    assert.deepEqual(
      statusOf(() => api.create(configMap('settings'))),
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'configmaps "settings" already exists',
        reason: 'AlreadyExists',
        details: { name: 'settings', group: '', kind: 'configmaps' },
        code: 409,
      },
    );
  });

  test('a create under a taken name writes nothing: no revision, no watch event, the stored object kept', () => {
    const { api } = newApi();
    const first = { pod: api.create(pod('web-1')), event: api.create(anEvent('e')), cm: api.create(configMap('c')) };
    const log = eventLog();
    for (const ref of ['pods', 'events', 'configmaps'] as const)
      api.watch(ref, { resourceVersion: api.resourceVersion }, log.handler);
    const rv = api.resourceVersion;
    for (const [write, ref, name] of [
      [
        () => api.create({ ...pod('web-1'), spec: { containers: [{ name: 'other', image: 'nginx' }] } }),
        'pods',
        'web-1',
      ],
      [() => api.create(anEvent('e')), 'events', 'e'],
      [() => api.create(configMap('c', { k: 'v' })), 'configmaps', 'c'],
      [() => api.create(configMap('c', { k: 'v' }), { dryRun: true }), 'configmaps', 'c'],
    ] as const) {
      const s = statusOf(write);
      assert.equal(s.code, 409);
      assert.equal(s.reason, 'AlreadyExists');
      assert.equal(s.message, `${ref} "${name}" already exists`);
      assert.equal(api.resourceVersion, rv);
    }
    assert.equal(api.get('pods', 'default', 'web-1'), first.pod);
    assert.equal(api.get('events', 'default', 'e'), first.event);
    assert.equal(api.get('configmaps', 'default', 'c'), first.cm);
    assert.deepEqual(log.lines(), []);
    // The next create is the next revision, and is watched.
    const next = api.create(configMap('d'));
    assert.equal(next.metadata.resourceVersion, String(Number(rv) + 1));
    assert.equal(log.lines().length, 1);
  });

  test('404 for a missing namespace, 403 for a terminating one', () => {
    const { api } = newApi();
    assert.deepEqual(
      statusOf(() => api.create(configMap('c', {}, 'nope'))),
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'namespaces "nope" not found',
        reason: 'NotFound',
        details: { name: 'nope', group: '', kind: 'namespaces' },
        code: 404,
      },
    );
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    api.create(configMap('keep', {}, 'team'));
    api.delete('namespaces', undefined, 'team');
    const s = statusOf(() => api.create(configMap('c', {}, 'team')));
    assert.equal(s.code, 403);
    assert.equal(s.reason, 'Forbidden');
    assert.equal(
      s.message,
      'configmaps "c" is forbidden: unable to create new content in namespace team because it is being terminated',
    );
  });

  test('unknown kinds are 404 "the server could not find the requested resource"', () => {
    const { api } = newApi();
    const s = statusOf(() => api.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }));
    assert.equal(s.code, 404);
    assert.equal(s.message, 'the server could not find the requested resource');
    const s2 = statusOf(() =>
      api.create({ apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: 'w' } }),
    );
    assert.equal(s2.code, 404);
  });

  test('422 Invalid lists every cause with its field path', () => {
    const { api } = newApi();
    const bad = pod('bad');
    (bad.spec as { containers: unknown[] }).containers = [
      { name: 'app' },
      { name: 'app', image: 'x', ports: [{ containerPort: 70000 }] },
    ];
    const s = statusOf(() => api.create(bad));
    assert.equal(s.code, 422);
    assert.equal(s.reason, 'Invalid');
    const byField = (a: { field?: string }, b: { field?: string }) => (a.field ?? '').localeCompare(b.field ?? '');
    assert.deepEqual(
      [...(s.details?.causes ?? [])].sort(byField),
      [
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' },
        { reason: 'FieldValueDuplicate', message: 'Duplicate value: "app"', field: 'spec.containers[1].name' },
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 70000: must be between 1 and 65535, inclusive',
          field: 'spec.containers[1].ports[0].containerPort',
        },
      ].sort(byField),
    );
    const texts = s.details!.causes!.map((c) => `${c.field}: ${c.message}`);
    assert.equal(s.message, `Pod "bad" is invalid: [${texts.join(', ')}]`);
  });

  test('a single cause is reported without brackets, e.g. a missing image', () => {
    const { api } = newApi();
    const bad = pod('bad');
    (bad.spec as { containers: unknown[] }).containers = [{ name: 'app' }];
    assert.equal(
      statusOf(() => api.create(bad)).message,
      'Pod "bad" is invalid: spec.containers[0].image: Required value',
    );
  });

  test('a rejected write changes nothing: no object, no resourceVersion, no event', () => {
    const { api } = newApi();
    const seen: string[] = [];
    api.watch('pods', { resourceVersion: api.resourceVersion }, (e) => seen.push(e.type));
    const rv = api.resourceVersion;
    const bad = pod('bad');
    (bad.spec as { containers: unknown[] }).containers = [];
    statusOf(() => api.create(bad));
    statusOf(() => api.create(configMap('c', {}, 'missing')));
    statusOf(() => api.create({ ...pod('x'), metadata: { name: 'x', namespace: 'default', resourceVersion: '5' } }));
    assert.equal(api.resourceVersion, rv);
    assert.equal(api.tryGet('pods', 'default', 'bad'), undefined);
    assert.deepEqual(seen, []);
  });

  test('malformed, oversized and deeply nested bodies are refused with a message', () => {
    const { api } = newApi();
    assert.equal(
      statusOf(() => api.create({ apiVersion: 'v1', metadata: { name: 'x' } } as never)).message,
      `Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"x"}}'`,
    );
    assert.equal(
      statusOf(() => api.create({ ...configMap('x'), metadata: { name: 'x', labels: 'oops' } } as never)).message,
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
    const big = configMap('big', { blob: 'x'.repeat(2_000_000) });
    const s = statusOf(() => api.create(big));
    assert.equal(s.code, 413);
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 10_000; i++) deep = deep.a = {} as Record<string, unknown>;
    const d = statusOf(() => api.create({ ...configMap('deep'), extra: root }));
    assert.equal(d.code, 400);
    assert.match(d.message, /nesting exceeds the maximum depth of 100/);
  });

  test('dryRun validates and stores nothing', () => {
    const { api } = newApi();
    const rv = api.resourceVersion;
    const out = api.create(configMap('dry'), { dryRun: true });
    assert.equal(out.metadata.name, 'dry');
    assert.equal(api.resourceVersion, rv);
    assert.equal(api.tryGet('configmaps', 'default', 'dry'), undefined);
  });

  test('body namespace must agree with the request namespace', () => {
    const { api } = newApi();
    const s = statusOf(() => api.create(configMap('c', {}, 'default'), { namespace: 'kube-system' }));
    assert.equal(s.code, 400);
    assert.equal(s.message, 'the namespace of the provided object does not match the namespace sent on the request');
  });

  test('the system namespaces and the kubernetes Service exist from the start', () => {
    const { api } = newApi();
    assert.deepEqual(
      api.list('namespaces').items.map((n) => n.metadata.name),
      ['default', 'kube-node-lease', 'kube-public', 'kube-system'],
    );
    const svc = api.get('services', 'default', 'kubernetes');
    assert.equal((svc.spec as { clusterIP: string }).clusterIP, '10.96.0.1');
    assert.deepEqual(api.get('namespaces', undefined, 'default').metadata.labels, {
      'kubernetes.io/metadata.name': 'default',
    });
  });

  test('Services get a ClusterIP, NodePorts when asked, and a taken address is 422', () => {
    const { api } = newApi();
    const svc = (name: string, spec: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }], ...spec },
    });
    const a = api.create(svc('a', { type: 'NodePort' }));
    const spec = a.spec as {
      clusterIP: string;
      clusterIPs: string[];
      ports: { nodePort: number; targetPort: number }[];
    };
    assert.match(spec.clusterIP, /^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    assert.deepEqual(spec.clusterIPs, [spec.clusterIP]);
    assert.ok(spec.ports[0].nodePort >= 30000 && spec.ports[0].nodePort <= 32767);
    const s = statusOf(() => api.create(svc('b', { clusterIP: spec.clusterIP })));
    assert.equal(s.code, 422);
    assert.match(s.message, /provided IP is already allocated/);
    api.delete('services', 'default', 'a');
    assert.equal(
      (api.create(svc('b', { clusterIP: spec.clusterIP })).spec as { clusterIP: string }).clusterIP,
      spec.clusterIP,
    );
  });
});

describe('Jobs', () => {
  test('the API server generates the selector and template labels from the uid', () => {
    const { api } = newApi();
    const job = api.create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi', namespace: 'default' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } } },
    });
    const uid = job.metadata.uid!;
    const spec = job.spec as { selector: unknown; template: { metadata: { labels: Record<string, string> } } };
    assert.deepEqual(spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    assert.deepEqual(spec.template.metadata.labels, {
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
    });
  });

  test('a hand-written selector without manualSelector is rejected', () => {
    const { api } = newApi();
    const s = statusOf(() =>
      api.create({
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'pi', namespace: 'default' },
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: {
            metadata: { labels: { a: 'b' } },
            spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] },
          },
        },
      }),
    );
    assert.equal(s.code, 422);
    assert.match(s.message, /`selector` not auto-generated/);
  });
});

describe('generated names', () => {
  test('the base is cut to 58 characters, as upstream', () => {
    const { api } = newApi();
    const long = `${'a'.repeat(70)}-`;
    const c = api.create({ ...configMap(''), metadata: { generateName: long, namespace: 'default' } });
    assert.equal(c.metadata.name!.length, 63);
    assert.ok(c.metadata.name!.startsWith('a'.repeat(58)));
  });

  test('a terminating namespace names the cause', () => {
    const { api } = newApi();
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    api.delete('namespaces', undefined, 'team');
    const s = statusOf(() => api.create(configMap('c', {}, 'team')));
    assert.deepEqual(s.details?.causes, [
      { reason: 'NamespaceTerminating', message: s.message, field: 'metadata.namespace' },
    ]);
  });
});

describe('Secrets', () => {
  test('stringData is merged into data as base64 and not stored', () => {
    const { api } = newApi();
    const s = api.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'default' },
      data: { a: 'eA==', b: 'eQ==' },
      stringData: { b: 'yes', c: 'ç' },
    });
    assert.deepEqual(s.data, { a: 'eA==', b: 'eWVz', c: 'w6c=' });
    assert.equal(s.stringData, undefined);
    assert.equal(s.type, 'Opaque');
  });
});
