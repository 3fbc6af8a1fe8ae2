import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { WEB_DEPLOYMENT, cliFixture, lines } from './cliFixture';
import type { CliFixture, Run } from './cliFixture';

const DEPLOYMENT = WEB_DEPLOYMENT;

const FILES: Record<string, string> = {
  'app/web.yaml': DEPLOYMENT,
  'app/config.yaml': lines(
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: settings',
    'data:',
    '  mode: fast',
  ),
  'bad/mixed.yaml': lines(
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: ok',
    '---',
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: broken',
    'spec:',
    '  selector:',
    '    matchLabels: {app: a}',
    '  template:',
    '    metadata:',
    '      labels: {app: b}',
    '    spec:',
    '      containers: [{name: c, image: nginx}]',
  ),
  'bad/syntax.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n',
  'bad/typo.yaml': lines(
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: typo',
    'spec:',
    '  containers:',
    '    - name: web',
    '      image: nginx',
    '      poarts:',
    '        - containerPort: 80',
  ),
  'bad/typed.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: "2"').replace(/\bweb\b/g, 'typed'),
  'later/scale.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 4'),
  'pdb/web.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 4'),
  'pdb/budget.yaml': lines(
    'apiVersion: policy/v1',
    'kind: PodDisruptionBudget',
    'metadata:',
    '  name: web',
    'spec:',
    '  maxUnavailable: 1',
    '  selector:',
    '    matchLabels: {app: web}',
  ),
  'stuck/web.yaml': DEPLOYMENT,
  'stuck/budget.yaml': lines(
    'apiVersion: policy/v1',
    'kind: PodDisruptionBudget',
    'metadata:',
    '  name: web',
    'spec:',
    '  minAvailable: 2',
    '  selector:',
    '    matchLabels: {app: web}',
  ),
};

describe('kube-reconcile simulate', () => {
  let fixture: CliFixture;
  const run = (...argv: string[]): Promise<Run> => fixture.run(...argv);

  before(async () => {
    fixture = await cliFixture('kube-reconcile-sim-', FILES);
  });
  after(async () => {
    await fixture.dispose();
  });

  test('applies, settles, and prints kubectl tables and events; exit 0', async () => {
    const r = await run('simulate', 'app');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const out = r.stdout;
    assert.match(out, /^configmap\/settings created\ndeployment\.apps\/web created\n/);
    assert.match(out, /\nSettled after \d+s of virtual time \(seed 1, 3 nodes\)\.\n/);
    assert.match(out, /\nNAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\ndeployment\.apps\/web\s+2\/2\s+2\s+2\s+\d+s\n/);
    assert.match(out, /\nNAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nreplicaset\.apps\/web-[a-z0-9]+\s+2\s+2\s+2\s+\d+s\n/);
    assert.equal((out.match(/\npod\/web-[a-z0-9]+-[a-z0-9]{5}\s+1\/1\s+Running\s+0\s+\d+s/g) ?? []).length, 2);
    assert.equal((out.match(/\nnode\/node-\d\s+Ready\s+<none>\s+\d+[sm]\S*\s+v1\.32\.0/g) ?? []).length, 3);
    assert.match(out, /\nLAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n/);
    assert.match(out, /Normal\s+ScalingReplicaSet\s+deployment\/web\s+Scaled up replica set web-[a-z0-9]+ from 0 to 2/);
  });

  test('same seed and inputs give byte-identical output; another seed differs', async () => {
    const a = await run('simulate', 'app', '--seed', '42');
    const b = await run('simulate', 'app', '--seed', '42');
    const c = await run('simulate', 'app', '--seed', '43');
    assert.equal(a.stdout, b.stdout);
    assert.notEqual(a.stdout, c.stdout);
  });

  test('rejected objects are reported with the file and line of the field at fault; the rest is applied; exit 1', async () => {
    const r = await run('simulate', 'bad', '--output', 'json');
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr
        .split('\n')
        .filter((l) => l.startsWith('bad/'))
        .join('\n'),
      [
        'bad/syntax.yaml:4: Flow map in block collection must be sufficiently indented and end with a }',
        'bad/mixed.yaml:15: Deployment.apps "broken" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`',
        'bad/typed.yaml:6: Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
        'bad/typo.yaml:9: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].poarts"',
      ].join('\n'),
    );
    const list = JSON.parse(r.stdout) as { kind: string; items: { kind: string; metadata: { name: string } }[] };
    assert.equal(list.kind, 'List');
    assert.ok(list.items.some((i) => i.kind === 'ConfigMap' && i.metadata.name === 'ok'));
    assert.ok(!list.items.some((i) => i.kind === 'Deployment' || (i.kind === 'Pod' && i.metadata.name === 'typo')));
  });

  test('-o json and -o yaml: stdout holds the List alone; what happens goes to stderr', async () => {
    const args = ['app', '--at', '1m:kill-pods=app=web', '--log', '--for', '2m'];
    const json = await run('simulate', ...args, '-o', 'json');
    assert.equal(json.code, 0, json.stderr);
    const list = JSON.parse(json.stdout) as { kind: string; items: { kind: string }[] };
    assert.equal(list.kind, 'List');
    assert.ok(list.items.some((i) => i.kind === 'Deployment'));
    assert.match(json.stderr, /^configmap\/settings created\ndeployment\.apps\/web created\n/);
    assert.match(json.stderr, /\[1m0s\] 1m:kill-pods=app=web: pod default\/web-/);
    assert.match(json.stderr, /Ran for 2m0s of virtual time/);
    const yaml = await run('simulate', ...args, '--output=yaml');
    assert.equal(yaml.code, 0, yaml.stderr);
    assert.deepEqual(parseYaml(yaml.stdout), list, 'the same List, as YAML');
    assert.match(yaml.stdout, /^apiVersion: v1\nitems:\n- apiVersion: /);
    assert.equal(yaml.stderr, json.stderr);
  });

  test('--at actions run at their time; --record writes every watch event as a JSON line', async () => {
    const r = await run(
      'simulate',
      'app/web.yaml',
      '--at',
      '2m:kill-pods=app=web',
      '--at',
      '3m:apply=later/scale.yaml',
      '--at',
      '4m:fail-node=node-1',
      '--record',
      'events.jsonl',
      '--for',
      '5m',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[2m0s\] 2m:kill-pods=app=web: pod default\/web-[a-z0-9]+-[a-z0-9]{5} killed\n/);
    assert.match(r.stdout, /\[3m0s\] 3m:apply=later\/scale\.yaml\ndeployment\.apps\/web configured\n/);
    assert.match(r.stdout, /\[4m0s\] 4m:fail-node=node-1: node node-1 failed/);
    assert.match(r.stdout, /Ran for 5m0s of virtual time/);
    const recorded = (await readFile(join(fixture.dir, 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { time: number; type: string; object: { kind: string } });
    assert.ok(recorded.length > 20);
    assert.deepEqual(recorded[0].type, 'ADDED');
    assert.ok(recorded.every((e, i) => i === 0 || e.time >= recorded[i - 1].time));
    assert.ok(recorded.some((e) => e.type === 'DELETED' && e.object.kind === 'Pod'));
    assert.ok(recorded.every((e) => ['ADDED', 'MODIFIED', 'DELETED'].includes(e.type)));
  });

  test('--at drain= evicts through the API as kubectl drain does: a PodDisruptionBudget makes it wait and retry', async () => {
    const r = await run('simulate', 'pdb', '--nodes', '2', '--at', '1m:drain=node-1');
    assert.equal(r.code, 0, r.stderr);
    const pod = 'web-[a-z0-9]+-[a-z0-9]{5}';
    assert.match(r.stdout, /\[1m0s\] 1m:drain=node-1: node\/node-1 cordoned\n/);
    assert.match(r.stdout, new RegExp(`\\[1m0s\\] 1m:drain=node-1: evicting pod default/${pod}\\n`));
    // kubectl's retry line, on standard error, at the time it happened.
    assert.match(
      r.stderr,
      new RegExp(
        `^\\[1m0s\\] 1m:drain=node-1: error when evicting pods/"${pod}" -n "default" \\(will retry after 5s\\): Cannot evict pod as it would violate the pod's disruption budget\\.\\n`,
      ),
    );
    assert.match(r.stdout, new RegExp(`\\[1m5s\\] 1m:drain=node-1: evicting pod default/${pod}\\n`));
    assert.match(r.stdout, /\[1m\d+s\] 1m:drain=node-1: node\/node-1 drained\n/);
    assert.match(
      r.stdout,
      /\nNAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\npoddisruptionbudget\.policy\/web\s+N\/A\s+1\s+1\s/,
    );
  });

  test('a drain a budget never allows is still waiting when the run ends: said on stderr, exit 1', async () => {
    const r = await run('simulate', 'stuck', '--nodes', '1', '--limit', '2m', '--at', '30s:drain=node-1');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /Not settled after 2m0s of virtual time/);
    assert.match(
      r.stderr,
      /\[2m0s\] 30s:drain=node-1: still draining when the run ended, waiting for default\/web-\S+, default\/web-\S+ \(a PodDisruptionBudget allows no disruption: default\/web-\S+, default\/web-\S+\)\n$/,
    );
  });

  test('usage errors exit 2', async () => {
    assert.equal((await run('simulate')).code, 2);
    assert.equal((await run('simulate', 'app', '--nodes', 'zero')).code, 2);
    assert.equal((await run('simulate', 'app', '--at', 'soon:fail-node=x')).code, 2);
    assert.equal((await run('simulate', 'app', '--at', '1m:explode=x')).code, 2);
    assert.equal((await run('simulate', 'app', '--for', '1m', '--until-settled')).code, 2);
  });
});
