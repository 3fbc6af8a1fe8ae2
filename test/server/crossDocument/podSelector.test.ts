// pod-selector-matches-nothing: a pod (anti-)affinity term or topology spread constraint selecting no pod template of
// its namespace (the Kubernetes docs' ZooKeeper StatefulSet's anti-affinity selects `app In (zk)` while its pods are
// labelled `app.kubernetes.io/name: zk`, so the scheduler is free to put every replica on one node).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFolder } from './helpers';
import { labelSelectorFromObject, type LabelSelector } from '../../../sandbox/api/selectors/labelSelector';
import { PodTemplateLabels } from '../../../server/src/services/crossDocument/rule';
import { matchesSome } from '../../../server/src/services/crossDocument/rules/podSelectorMatchesNothing';

const zk = (templateLabels: string, affinity: string): string => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: zk
spec:
  serviceName: zk-hs
  replicas: 3
  selector:
    matchLabels: ${templateLabels}
  template:
    metadata:
      labels: ${templateLabels}
    spec:
${affinity}      containers:
      - name: zk
        image: registry.k8s.io/kubernetes-zookeeper:1.0-3.4.10
`;

const ANTI_ZK = `      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchExpressions:
              - key: app
                operator: In
                values: [zk]
            topologyKey: kubernetes.io/hostname
`;

const messages = (out: ReturnType<typeof checkFolder>): string[] =>
  Object.values(out)
    .flat()
    .filter((d) => d.code === 'pod-selector-matches-nothing')
    .map((d) => `${d.range.start.line}: ${d.message}`);

describe('pod-selector-matches-nothing', () => {
  test("ZooKeeper's anti-affinity selecting app In (zk) while its pods carry app.kubernetes.io/name: zk", () => {
    const out = checkFolder({ 'zk.yaml': zk('{app.kubernetes.io/name: zk}', ANTI_ZK) });
    assert.deepEqual(messages(out), [
      `16: pod anti-affinity term's labelSelector app in (zk) matches no pod template in namespace "default" in this workspace folder, so it constrains nothing; pod templates there are labelled app.kubernetes.io/name=zk`,
    ]);
    assert.equal(out['zk.yaml'][0].severity, 2, 'a warning');
  });

  test('a term matching its own template, or another file’s template, is fine', () => {
    assert.deepEqual(messages(checkFolder({ 'zk.yaml': zk('{app: zk}', ANTI_ZK) })), []);
    const cache = zk('{app: zk}', '').replace('name: zk\n', 'name: other\n');
    const web = zk('{app: web}', ANTI_ZK).replace('name: zk\n', 'name: web\n');
    assert.deepEqual(messages(checkFolder({ 'web.yaml': web, 'zk.yaml': cache })), []);
  });

  test('topology spread and preferred affinity terms are checked too; other namespaces are not', () => {
    const spread = `      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
        labelSelector:
          matchLabels: {app: zookeeper}
      affinity:
        podAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 10
            podAffinityTerm:
              labelSelector: {matchLabels: {tier: cache}}
              topologyKey: kubernetes.io/hostname
          - weight: 10
            podAffinityTerm:
              labelSelector: {matchLabels: {tier: cache}}
              namespaces: [caches]
              topologyKey: kubernetes.io/hostname
`;
    assert.deepEqual(
      messages(checkFolder({ 'zk.yaml': zk('{app: zk}', spread) })).map((m) => m.replace(/ in this .*$/, '')),
      [
        `17: topology spread constraint's labelSelector app=zookeeper matches no pod template in namespace "default"`,
        `24: pod affinity term's labelSelector tier=cache matches no pod template in namespace "default"`,
      ],
    );
  });

  test('no warning when the namespace has no workload in scope (the pods may come from elsewhere)', () => {
    const pinned = zk('{app: zk}', ANTI_ZK.replace('values: [zk]', 'values: [cache]')).replace(
      'name: zk\n',
      'name: zk\n  namespace: zk\n',
    );
    // The only workload is in namespace zk: the term is checked against it (and warned about) …
    assert.equal(messages(checkFolder({ 'zk.yaml': pinned })).length, 1);
    // … while a folder with no pod template at all gets no warning.
    const svc = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: 80\n';
    assert.deepEqual(messages(checkFolder({ 'svc.yaml': svc })), []);
  });
});

test('matching a selector against the indexed templates answers as trying every template, on 2,000 generated pairs', () => {
  let seed = 7;
  const rand = (n: number): number => {
    seed = (seed * 48271) % 2147483647; // Park–Miller: exact in doubles
    return Math.floor((seed / 2147483647) * n);
  };
  const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)];
  const keys = ['app', 'tier', 'app.kubernetes.io/name', 'constructor'];
  const values = ['zk', 'web', 'db', ''];
  const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Bogus'];
  let matched = 0;
  let unmatched = 0;
  for (let i = 0; i < 2000; i++) {
    const all: Record<string, string>[] = [];
    for (let t = rand(6); t > 0; t--) {
      const labels: Record<string, string> = {};
      for (let n = rand(3); n > 0; n--) labels[pick(keys)] = pick(values);
      all.push(labels);
    }
    const selector: Record<string, unknown> = {};
    if (rand(4) === 0) selector.matchLabels = { [pick(keys)]: pick(values) };
    const exprs: Record<string, unknown>[] = [];
    for (let n = rand(3); n > 0; n--) {
      const operator = pick(operators);
      const vs = operator === 'In' || operator === 'NotIn' ? values.filter(() => rand(2) === 0) : [];
      exprs.push({ key: pick(keys), operator, ...(vs.length > 0 || rand(5) === 0 ? { values: vs } : {}) });
    }
    if (exprs.length > 0) selector.matchExpressions = exprs;
    const templates = new PodTemplateLabels(all);
    let expected: boolean;
    try {
      const compiled = labelSelectorFromObject(selector as LabelSelector);
      expected = all.some((labels) => compiled.matches(labels));
    } catch {
      expected = false;
    }
    if (expected) matched++;
    else unmatched++;
    assert.equal(matchesSome(selector as LabelSelector, templates), expected, JSON.stringify({ selector, all }));
  }
  assert.ok(matched > 200 && unmatched > 200, `matched ${matched}, unmatched ${unmatched}`);
});
