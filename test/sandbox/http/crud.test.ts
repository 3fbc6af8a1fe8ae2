import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { configMap, deployment, pod, serve } from './helpers';
import type { Served } from './helpers';

const CMS = '/api/v1/namespaces/default/configmaps';
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';

describe('HTTP API: create, read, update, patch', () => {
  let s: Served;
  before(async () => {
    s = await serve({ maxBodyBytes: 64 * 1024 });
  });
  after(() => s.close());

  it('creates with 201, filling apiVersion and kind from the URL', async () => {
    const r = await s.request('POST', CMS, { body: { metadata: { name: 'filled' }, data: { k: 'v' } } });
    assert.equal(r.status, 201);
    assert.equal(r.json.apiVersion, 'v1');
    assert.equal(r.json.kind, 'ConfigMap');
    assert.ok((r.json.metadata as { uid?: string }).uid);
    assert.equal(s.cluster.api.get('configmaps', 'default', 'filled').data !== undefined, true);
  });

  it('refuses a body of another version or kind with upstream wording (400)', async () => {
    const wrongVersion = await s.request('POST', DEPLOYS, { body: { ...deployment('x'), apiVersion: 'apps/v1beta1' } });
    assert.equal(wrongVersion.status, 400);
    assert.equal(
      wrongVersion.json.message,
      'the API version in the data (apps/v1beta1) does not match the expected API version (apps/v1)',
    );
    const wrongKind = await s.request('POST', CMS, { body: { ...configMap('x'), kind: 'Secret' } });
    assert.equal(wrongKind.status, 400);
    assert.match(String(wrongKind.json.message), /^Secret in version "v1" cannot be handled as a ConfigMap: /);
    assert.equal(s.cluster.api.tryGet('configmaps', 'default', 'x'), undefined);
  });

  it('decodes YAML bodies', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  greeting: hello\n';
    const r = await s.request('POST', CMS, { body: yaml, contentType: 'application/yaml' });
    assert.equal(r.status, 201);
    assert.deepEqual(s.cluster.api.get('configmaps', 'default', 'from-yaml').data, { greeting: 'hello' });
  });

  it('decodes Kubernetes protobuf bodies, as kubectl create sends them', async () => {
    // The body of `kubectl create configmap cm1 --from-literal=a=b --from-literal=empty=` (kubectl v1.32).
    const body = Buffer.from(
      'azhzAAoPCgJ2MRIJQ29uZmlnTWFwEigKEwoDY20xEgAaACIAKgAyADgAQgASBgoBYRIBYhIJCgVlbXB0eRIAGgAiAA==',
      'base64',
    );
    const r = await s.request('POST', CMS, { body, contentType: 'application/vnd.kubernetes.protobuf' });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(s.cluster.api.get('configmaps', 'default', 'cm1').data, { a: 'b', empty: '' });
    const garbage = await s.request('POST', CMS, {
      body: Buffer.from('not protobuf'),
      contentType: 'application/vnd.kubernetes.protobuf',
    });
    assert.equal(garbage.status, 400);
  });

  it('answers malformed bodies with 400 and changes nothing', async () => {
    const before = s.cluster.api.resourceVersion;
    const json = await s.request('POST', CMS, {
      body: '{"metadata": {"name": "broken"',
      contentType: 'application/json',
    });
    assert.equal(json.status, 400);
    assert.equal(json.json.reason, 'BadRequest');
    assert.match(
      String(json.json.message),
      /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: /,
    );
    const yaml = await s.request('POST', CMS, { body: 'a: [b\n', contentType: 'application/yaml' });
    assert.equal(yaml.status, 400);
    const twoDocs = await s.request('POST', CMS, { body: 'a: 1\n---\nb: 2\n', contentType: 'application/yaml' });
    assert.equal(twoDocs.status, 400);
    const array = await s.request('POST', CMS, { body: '[1,2]', contentType: 'application/json' });
    assert.equal(array.status, 400);
    const badMeta = await s.request('POST', CMS, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 7 } },
    });
    assert.equal(badMeta.status, 400);
    assert.equal(s.cluster.api.resourceVersion, before);
  });

  it('answers an unknown Content-Type with 415 and a body over the limit with 413', async () => {
    const plain = await s.request('POST', CMS, { body: 'name=x', contentType: 'text/plain' });
    assert.equal(plain.status, 415);
    assert.equal(plain.json.reason, 'UnsupportedMediaType');
    assert.equal(
      plain.json.message,
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
    const big = await s.request('POST', CMS, { body: configMap('big', { blob: 'x'.repeat(70 * 1024) }) });
    assert.equal(big.status, 413);
    assert.equal(big.json.message, `Request entity too large: limit is ${64 * 1024}`);
    assert.equal(s.cluster.api.tryGet('configmaps', 'default', 'big'), undefined);
    const patchType = await s.request('PATCH', `${CMS}/filled`, {
      body: { data: { a: 'b' } },
      contentType: 'application/json',
    });
    assert.equal(patchType.status, 415);
    assert.match(
      String(patchType.json.message),
      /accepted media types include: application\/json-patch\+json, application\/merge-patch\+json, application\/strategic-merge-patch\+json, application\/apply-patch\+yaml$/,
    );
  });

  it('answers 406 when Accept offers only protobuf, and YAML when asked', async () => {
    const proto = await s.request('GET', `${CMS}/filled`, { accept: 'application/vnd.kubernetes.protobuf' });
    assert.equal(proto.status, 406);
    assert.equal(proto.json.reason, 'NotAcceptable');
    const fallback = await s.request('GET', `${CMS}/filled`, {
      accept: 'application/vnd.kubernetes.protobuf, application/json',
    });
    assert.equal(fallback.status, 200);
    const yaml = await s.request('GET', `${CMS}/filled`, { accept: 'application/yaml' });
    assert.equal(yaml.headers['content-type'], 'application/yaml');
    assert.match(yaml.text, /^apiVersion: v1\nkind: ConfigMap\n/);
  });

  it('reports 409 AlreadyExists and 409 Conflict for a stale resourceVersion', async () => {
    const again = await s.request('POST', CMS, { body: configMap('filled') });
    assert.equal(again.status, 409);
    assert.equal(again.json.reason, 'AlreadyExists');
    const current = s.cluster.api.get('configmaps', 'default', 'filled');
    const ok = await s.request('PUT', `${CMS}/filled`, { body: { ...current, data: { k: 'v2' } } });
    assert.equal(ok.status, 200);
    const stale = await s.request('PUT', `${CMS}/filled`, { body: { ...current, data: { k: 'v3' } } });
    assert.equal(stale.status, 409);
    assert.equal(stale.json.reason, 'Conflict');
    assert.equal(
      stale.json.message,
      'Operation cannot be fulfilled on configmaps "filled": the object has been modified; please apply your changes to the latest version and try again',
    );
    assert.deepEqual(s.cluster.api.get('configmaps', 'default', 'filled').data, { k: 'v2' });
  });

  it('refuses a PUT whose body names another object (400)', async () => {
    const r = await s.request('PUT', `${CMS}/filled`, { body: configMap('other') });
    assert.equal(r.status, 400);
    assert.equal(r.json.message, 'the name of the object (other) does not match the name on the URL (filled)');
  });

  it('answers validation failures with 422 Invalid and 403 for protected namespaces', async () => {
    const bad = deployment('bad');
    (bad.spec as { replicas: number }).replicas = -1;
    const r = await s.request('POST', DEPLOYS, { body: bad });
    assert.equal(r.status, 422);
    assert.equal(r.json.reason, 'Invalid');
    assert.match(String(r.json.message), /^Deployment\.apps "bad" is invalid: spec\.replicas: Invalid value: -1/);
    const forbidden = await s.request('DELETE', '/api/v1/namespaces/kube-system');
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.json.reason, 'Forbidden');
  });

  it('patches with JSON patch and JSON merge patch; a failing test op is 422', async () => {
    const merge = await s.request('PATCH', `${CMS}/filled`, {
      body: { data: { added: 'yes' } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(merge.status, 200);
    assert.deepEqual(merge.json.data, { k: 'v2', added: 'yes' });
    const json = await s.request('PATCH', `${CMS}/filled`, {
      body: [{ op: 'remove', path: '/data/k' }],
      contentType: 'application/json-patch+json',
    });
    assert.equal(json.status, 200);
    assert.deepEqual(json.json.data, { added: 'yes' });
    const failed = await s.request('PATCH', `${CMS}/filled`, {
      body: [{ op: 'test', path: '/data/added', value: 'no' }],
      contentType: 'application/json-patch+json',
    });
    assert.equal(failed.status, 422);
    const missing = await s.request('PATCH', `${CMS}/ghost`, {
      body: { data: {} },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(missing.status, 404);
  });

  it('patches with a strategic merge patch, merging containers by name', async () => {
    assert.equal((await s.request('POST', DEPLOYS, { body: deployment('smp') })).status, 201);
    const patch = { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } } } };
    const r = await s.request('PATCH', `${DEPLOYS}/smp`, {
      body: patch,
      contentType: 'application/strategic-merge-patch+json',
    });
    assert.equal(r.status, 200, r.text);
    const names = (
      r.json.spec as { template: { spec: { containers: { name: string }[] } } }
    ).template.spec.containers.map((c) => c.name);
    assert.deepEqual(names.sort(), ['app', 'sidecar']);
  });

  it('applies server-side: 201 when created, 200 after, fieldManager required (422)', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: "1"\n';
    const noManager = await s.request('PATCH', `${CMS}/ssa`, {
      body: yaml,
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(noManager.status, 422);
    assert.match(String(noManager.json.message), /fieldManager: Required value/);
    const created = await s.request('PATCH', `${CMS}/ssa?fieldManager=test`, {
      body: yaml,
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(created.status, 201, created.text);
    const updated = await s.request('PATCH', `${CMS}/ssa?fieldManager=test`, {
      body: yaml.replace('"1"', '"2"'),
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(s.cluster.api.get('configmaps', 'default', 'ssa').data, { a: '2' });
    const forceOnMerge = await s.request('PATCH', `${CMS}/ssa?force=true`, {
      body: {},
      contentType: 'application/merge-patch+json',
    });
    assert.equal(forceOnMerge.status, 422);
  });

  it('names the field manager of a write without ?fieldManager after its User-Agent, as upstream does', async () => {
    const ua = { 'user-agent': 'kubectl/v1.32.4 (linux/amd64) kubernetes/59526cd' };
    assert.equal((await s.request('POST', CMS, { body: configMap('by-agent'), headers: ua })).status, 201);
    const managers = () =>
      (
        (s.cluster.api.get('configmaps', 'default', 'by-agent').metadata.managedFields ?? []) as {
          manager: string;
          operation: string;
        }[]
      ).map((m) => `${m.manager}/${m.operation}`);
    assert.deepEqual(managers(), ['kubectl/Update']);
    const named = await s.request('PATCH', `${CMS}/by-agent?fieldManager=ops`, {
      body: { data: { b: '2' } },
      contentType: 'application/merge-patch+json',
      headers: ua,
    });
    assert.equal(named.status, 200, named.text);
    assert.deepEqual(managers().sort(), ['kubectl/Update', 'ops/Update']);
  });
});

describe('HTTP API: field validation', () => {
  let s: Served;
  before(async () => {
    s = await serve();
  });
  after(() => s.close());

  const typo = () => {
    const d = deployment('typo');
    return { ...d, spec: { ...d.spec, replicass: 3 } };
  };

  it('Strict: an unknown field is 400 "strict decoding error" and nothing is stored', async () => {
    const r = await s.request('POST', `${DEPLOYS}?fieldValidation=Strict`, { body: typo() });
    assert.equal(r.status, 400);
    assert.equal(
      r.json.message,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicass"',
    );
    assert.equal(s.cluster.api.tryGet('deployments', 'default', 'typo'), undefined);
  });

  it('Warn (the default): stored without the field, with a Warning header', async () => {
    const r = await s.request('POST', DEPLOYS, { body: typo() });
    assert.equal(r.status, 201);
    assert.equal(r.headers.warning, '299 - "unknown field \\"spec.replicass\\""');
    assert.equal(Object.hasOwn(s.cluster.api.get('deployments', 'default', 'typo').spec ?? {}, 'replicass'), false);
  });

  it('Ignore: stored without the field and without a warning', async () => {
    const d = typo();
    (d.metadata as { name: string }).name = 'typo2';
    const r = await s.request('POST', `${DEPLOYS}?fieldValidation=Ignore`, { body: d });
    assert.equal(r.status, 201);
    assert.equal(r.headers.warning, undefined);
    assert.equal(Object.hasOwn(s.cluster.api.get('deployments', 'default', 'typo2').spec ?? {}, 'replicass'), false);
  });

  it('names several unknown fields and duplicate fields in document order, as upstream strict decoding does', async () => {
    const body =
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"many","labels":{"app":"web","app":"web"}},' +
      '"spec":{"replicas":1,"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":' +
      '{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx","poarts":[]}]}},"bogus":true}}';
    const strict = await s.request('POST', `${DEPLOYS}?fieldValidation=Strict`, {
      body,
      contentType: 'application/json',
    });
    assert.equal(strict.status, 400);
    assert.equal(
      strict.json.message,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ' +
        'duplicate field "metadata.labels.app", duplicate field "spec.replicas", ' +
        'unknown field "spec.template.spec.containers[0].poarts", unknown field "spec.bogus"',
    );
    const warn = await s.request('POST', DEPLOYS, { body, contentType: 'application/json' });
    assert.equal(warn.status, 201);
    assert.equal(
      warn.headers.warning,
      [
        '299 - "duplicate field \\"metadata.labels.app\\""',
        '299 - "duplicate field \\"spec.replicas\\""',
        '299 - "unknown field \\"spec.template.spec.containers[0].poarts\\""',
        '299 - "unknown field \\"spec.bogus\\""',
      ].join(', '),
    );
    const stored = s.cluster.api.get('deployments', 'default', 'many');
    assert.equal((stored.spec as { replicas: number }).replicas, 2, 'the last of a repeated key wins');
    assert.equal(JSON.stringify(stored).includes('poarts') || JSON.stringify(stored).includes('bogus'), false);
  });

  it('patches: Strict is 422 on the patch, naming the patched object (JSON, merge) or the patch (strategic)', async () => {
    const before = s.cluster.api.get('deployments', 'default', 'typo');
    const merge = await s.request('PATCH', `${DEPLOYS}/typo?fieldValidation=Strict`, {
      body: { spec: { paused: true, bogus: 1 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(merge.status, 422);
    assert.equal(merge.json.reason, 'Invalid');
    const message = String(merge.json.message);
    assert.ok(message.startsWith(' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"apps/v1\\",'), message);
    assert.ok(message.endsWith('": strict decoding error: unknown field "spec.bogus"'), message);
    assert.deepEqual(merge.json.details, {
      causes: [
        { reason: 'FieldValueInvalid', message: message.slice(' "" is invalid: patch: '.length), field: 'patch' },
      ],
    });
    const strategic = await s.request('PATCH', `${DEPLOYS}/typo?fieldValidation=Strict`, {
      body: { spec: { template: { spec: { containers: [{ name: 'web', poarts: [{ containerPort: 80 }] }] } } } },
      contentType: 'application/strategic-merge-patch+json',
    });
    assert.equal(strategic.status, 422);
    assert.equal(
      strategic.json.message,
      ' "" is invalid: patch: Invalid value: "map[spec:map[template:map[spec:map[containers:[map[name:web poarts:[map[containerPort:80]]]]]]]]": ' +
        'strict decoding error: unknown field "spec.template.spec.containers[0].poarts"',
    );
    const json = await s.request('PATCH', `${DEPLOYS}/typo?fieldValidation=Strict`, {
      body: '[{"op":"add","path":"/spec/bogus","value":1,"value":2}]',
      contentType: 'application/json-patch+json',
    });
    assert.equal(json.status, 422);
    assert.match(
      String(json.json.message),
      /": strict decoding error: json patch duplicate field "\[0\]\.value", unknown field "spec\.bogus"$/,
    );
    assert.deepEqual(s.cluster.api.get('deployments', 'default', 'typo'), before, 'nothing changed');
  });

  it('patches: Warn (the default) drops unknown fields with a Warning header; Ignore drops them silently', async () => {
    const warn = await s.request('PATCH', `${DEPLOYS}/typo`, {
      body: { spec: { paused: true, bogus: 1 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(warn.status, 200);
    assert.equal(warn.headers.warning, '299 - "unknown field \\"spec.bogus\\""');
    const stored = s.cluster.api.get('deployments', 'default', 'typo').spec;
    assert.equal(stored?.paused, true);
    assert.equal(Object.hasOwn(stored ?? {}, 'bogus'), false);
    const ignore = await s.request('PATCH', `${DEPLOYS}/typo?fieldValidation=Ignore`, {
      body: { spec: { minReadySeconds: 5, bogus: 1 } },
      contentType: 'application/strategic-merge-patch+json',
    });
    assert.equal(ignore.status, 200);
    assert.equal(ignore.headers.warning, undefined);
    const after = s.cluster.api.get('deployments', 'default', 'typo').spec;
    assert.equal(after?.minReadySeconds, 5);
    assert.equal(Object.hasOwn(after ?? {}, 'bogus'), false);
  });

  it('server-side apply refuses an unknown field whatever the mode (structured-merge-diff)', async () => {
    const applied = { ...typo(), metadata: { name: 'ssa' } };
    for (const mode of ['Ignore', 'Warn', 'Strict']) {
      const r = await s.request('PATCH', `${DEPLOYS}/ssa?fieldManager=me&fieldValidation=${mode}`, {
        body: applied,
        contentType: 'application/apply-patch+yaml',
      });
      assert.equal(r.status, 500, mode);
      assert.equal(
        r.json.message,
        'failed to create typed patch object (/ssa; apps/v1, Kind=Deployment): .spec.replicass: field not declared in schema',
      );
    }
    assert.equal(s.cluster.api.tryGet('deployments', 'default', 'ssa'), undefined);
  });

  it('stores no null a Go decode would drop: null fields are absent, null label values are empty', async () => {
    const d: Record<string, unknown> & { spec: Record<string, unknown> } = JSON.parse(
      JSON.stringify(deployment('nulls')),
    );
    d.spec.paused = null;
    (d.metadata as Record<string, unknown>).labels = { app: 'web', gone: null };
    (d.metadata as Record<string, unknown>).creationTimestamp = null;
    const containers = (d.spec.template as { spec: { containers: Record<string, unknown>[] } }).spec.containers;
    containers[0].livenessProbe = null;
    const r = await s.request('POST', DEPLOYS, { body: d });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.warning, undefined);
    const stored = s.cluster.api.get('deployments', 'default', 'nulls');
    assert.deepEqual(stored.metadata.labels, { app: 'web', gone: '' });
    const text = JSON.stringify(stored);
    assert.equal(text.includes(':null'), false, text);
  });

  it('refuses an unknown directive with 422', async () => {
    const r = await s.request('POST', `${DEPLOYS}?fieldValidation=Loud`, { body: deployment('z') });
    assert.equal(r.status, 422);
    assert.equal(
      r.json.message,
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });
});

describe('HTTP API: dry run', () => {
  let s: Served;
  before(async () => {
    s = await serve();
    await s.request('POST', CMS, { body: configMap('kept', { v: 'original' }) });
  });
  after(() => s.close());

  it('admits and answers every write with ?dryRun=All but changes nothing', async () => {
    const rv = s.cluster.api.resourceVersion;
    const create = await s.request('POST', `${CMS}?dryRun=All`, { body: configMap('ghost') });
    assert.equal(create.status, 201);
    assert.equal((create.json.metadata as { name: string }).name, 'ghost');
    const current = s.cluster.api.get('configmaps', 'default', 'kept');
    const update = await s.request('PUT', `${CMS}/kept?dryRun=All`, { body: { ...current, data: { v: 'changed' } } });
    assert.equal(update.status, 200);
    assert.deepEqual(update.json.data, { v: 'changed' });
    const patch = await s.request('PATCH', `${CMS}/kept?dryRun=All`, {
      body: { data: { v: 'patched' } },
      contentType: 'application/merge-patch+json',
    });
    assert.deepEqual(patch.json.data, { v: 'patched' });
    const del = await s.request('DELETE', `${CMS}/kept?dryRun=All`);
    assert.equal(del.status, 200);
    const delCollection = await s.request('DELETE', `${CMS}?dryRun=All`);
    assert.equal(delCollection.status, 200);
    assert.equal((delCollection.json.items as unknown[]).length, 1);
    const invalid = await s.request('POST', `${CMS}?dryRun=All`, { body: { ...configMap('Bad_Name') } });
    assert.equal(invalid.status, 422);
    assert.equal(s.cluster.api.resourceVersion, rv);
    assert.deepEqual(s.cluster.api.get('configmaps', 'default', 'kept').data, { v: 'original' });
    assert.equal(s.cluster.api.tryGet('configmaps', 'default', 'ghost'), undefined);
  });

  it('refuses any dryRun value but All with 422', async () => {
    const r = await s.request('POST', `${CMS}?dryRun=Yes`, { body: configMap('x') });
    assert.equal(r.status, 422);
    assert.equal(
      r.json.message,
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Yes"}: supported values: "All"',
    );
    assert.equal(s.cluster.api.tryGet('configmaps', 'default', 'x'), undefined);
  });
});

describe('HTTP API: delete and deletecollection', () => {
  let s: Served;
  before(async () => {
    s = await serve();
  });
  after(() => s.close());

  it('answers a delete that removes the object with a Success Status naming it', async () => {
    const created = await s.request('POST', CMS, { body: configMap('gone') });
    const uid = (created.json.metadata as { uid: string }).uid;
    const r = await s.request('DELETE', `${CMS}/gone`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'gone', group: '', kind: 'configmaps', uid },
    });
    assert.equal((await s.request('DELETE', `${CMS}/gone`)).status, 404);
  });

  it('answers a graceful pod delete with the pod as it now is (deletionTimestamp set)', async () => {
    await s.request('POST', '/api/v1/namespaces/default/pods', { body: pod('graceful', {}, { nodeName: 'node-1' }) });
    const r = await s.request('DELETE', '/api/v1/namespaces/default/pods/graceful', {
      body: { gracePeriodSeconds: 30 },
    });
    assert.equal(r.status, 200);
    assert.equal(r.json.kind, 'Pod');
    assert.ok((r.json.metadata as { deletionTimestamp?: string }).deletionTimestamp);
    assert.equal((r.json.metadata as { deletionGracePeriodSeconds?: number }).deletionGracePeriodSeconds, 30);
    assert.ok(s.cluster.api.tryGet('pods', 'default', 'graceful'));
  });

  it('takes DeleteOptions from the query too, and refuses a bad policy with 422', async () => {
    await s.request('POST', '/api/v1/namespaces/default/pods', { body: pod('quick', {}, { nodeName: 'node-1' }) });
    const r = await s.request('DELETE', '/api/v1/namespaces/default/pods/quick?gracePeriodSeconds=0');
    assert.equal(r.status, 200);
    assert.equal(r.json.kind, 'Pod');
    assert.equal(s.cluster.api.tryGet('pods', 'default', 'quick'), undefined);
    await s.request('POST', CMS, { body: configMap('policy') });
    const bad = await s.request('DELETE', `${CMS}/policy`, { body: { propagationPolicy: 'Sideways' } });
    assert.equal(bad.status, 422);
    assert.ok(s.cluster.api.tryGet('configmaps', 'default', 'policy'));
  });

  it('deletes a collection by label selector, leaving the rest', async () => {
    for (const [name, tier] of [
      ['c1', 'web'],
      ['c2', 'web'],
      ['c3', 'db'],
    ])
      await s.request('POST', CMS, { body: configMap(name, {}, { tier }) });
    const r = await s.request('DELETE', `${CMS}?labelSelector=tier%3Dweb`);
    assert.equal(r.status, 200);
    assert.equal(r.json.kind, 'ConfigMapList');
    assert.deepEqual(
      (r.json.items as { metadata: { name: string } }[]).map((i) => i.metadata.name),
      ['c1', 'c2'],
    );
    assert.equal(s.cluster.api.tryGet('configmaps', 'default', 'c1'), undefined);
    assert.ok(s.cluster.api.tryGet('configmaps', 'default', 'c3'));
  });

  it('warns that a Job delete without a policy orphans its pods', async () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'busybox' }] } } },
    };
    assert.equal((await s.request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job })).status, 201);
    const r = await s.request('DELETE', '/apis/batch/v1/namespaces/default/jobs/j');
    assert.equal(r.status, 200);
    assert.match(String(r.headers.warning), /child pods are preserved by default when jobs are deleted/);
  });
});

describe('HTTP API: lists', () => {
  let s: Served;
  before(async () => {
    s = await serve();
    for (let i = 0; i < 5; i++)
      await s.request('POST', CMS, { body: configMap(`item-${i}`, {}, { parity: i % 2 === 0 ? 'even' : 'odd' }) });
  });
  after(() => s.close());

  it('filters by label and field selectors', async () => {
    const even = await s.request('GET', `${CMS}?labelSelector=parity%3Deven`);
    assert.deepEqual(
      (even.json.items as { metadata: { name: string } }[]).map((i) => i.metadata.name),
      ['item-0', 'item-2', 'item-4'],
    );
    const byName = await s.request('GET', `${CMS}?fieldSelector=metadata.name%3Ditem-3`);
    assert.deepEqual(
      (byName.json.items as { metadata: { name: string } }[]).map((i) => i.metadata.name),
      ['item-3'],
    );
    const badSelector = await s.request('GET', `${CMS}?labelSelector=%3D%3D%3D`);
    assert.equal(badSelector.status, 400);
  });

  it('pages with limit and continue', async () => {
    const first = await s.request('GET', `${CMS}?limit=2`);
    const meta = first.json.metadata as { continue?: string; remainingItemCount?: number };
    assert.equal((first.json.items as unknown[]).length, 2);
    assert.ok(meta.continue);
    const rest = await s.request('GET', `${CMS}?limit=10&continue=${encodeURIComponent(meta.continue!)}`);
    assert.deepEqual(
      (rest.json.items as { metadata: { name: string } }[]).map((i) => i.metadata.name),
      ['item-2', 'item-3', 'item-4'],
    );
    const bad = await s.request('GET', `${CMS}?limit=abc`);
    assert.equal(bad.status, 400);
  });

  it('serves resourceVersion semantics it can honour; 410 for an older Exact version, 504 for a future one', async () => {
    const rv = Number(s.cluster.api.resourceVersion);
    assert.equal((await s.request('GET', `${CMS}?resourceVersion=${rv}&resourceVersionMatch=Exact`)).status, 200);
    assert.equal(
      (await s.request('GET', `${CMS}?resourceVersion=${rv - 1}&resourceVersionMatch=NotOlderThan`)).status,
      200,
    );
    const old = await s.request('GET', `${CMS}?resourceVersion=${rv - 1}&resourceVersionMatch=Exact`);
    assert.equal(old.status, 410);
    assert.equal(old.json.reason, 'Expired');
    const future = await s.request('GET', `${CMS}?resourceVersion=${rv + 100}`);
    assert.equal(future.status, 504);
    const noVersion = await s.request('GET', `${CMS}?resourceVersionMatch=Exact`);
    assert.equal(noVersion.status, 422);
    assert.equal(
      noVersion.json.message,
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
  });
});
