/**
 * Admission does its repeated work once (label keys and values found valid, quantities' canonical text, a policy
 * expression's compile verdict, an object's pod spec and containers while the rules read it) and still answers
 * exactly as the uncached checks do: the remembered answers depend on nothing but what they are keyed by.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isQualifiedName, isValidLabelValue } from '../../../sandbox/api/names';
import { formatQuantity, parseQuantity } from '../../../sandbox/api/quantity';
import { applyDefaults } from '../../../sandbox/admission/defaults';
import { validateObject } from '../../../sandbox/admission/validation';
import { labelValueErrors, qualifiedNameErrors } from '../../../sandbox/admission/validation/rules/labels';
import { containersOf, podSpecOf, readingPodSpecsOf } from '../../../sandbox/admission/podSpecs';
import { resourceFor } from '../../../sandbox/api/resources';
import type { KubeObject } from '../../../sandbox/api/types';
import { labelSelectorMatches, type LabelSelector } from '../../../sandbox/api/selectors/labelSelector';
import { validateLabelSelector } from '../../../sandbox/admission/validation/rules/labelSelector';
import { matchesByLabelsOnly } from '../../../sandbox/admission/validation/rules/workloadSelector';
import { deployment, pod } from './fixtures';
import { lines, validate, variant } from './helpers';

const TEXTS = [
  'app',
  'app.kubernetes.io/name',
  'Example.com/Owner',
  '',
  '/',
  'a/b/c',
  '-bad',
  'bad-',
  'x'.repeat(63),
  'x'.repeat(64),
  'example.com/',
  '/name',
  'UPPER_lower.9',
  'white space',
  'ünïcode',
];

test('remembered label key and value checks answer as isQualifiedName and isValidLabelValue, every time', () => {
  for (let round = 0; round < 3; round++) {
    for (const t of TEXTS) {
      assert.deepEqual([...qualifiedNameErrors(t)], isQualifiedName(t), `key ${JSON.stringify(t)} round ${round}`);
      assert.deepEqual([...labelValueErrors(t)], isValidLabelValue(t), `value ${JSON.stringify(t)} round ${round}`);
    }
  }
});

test('an object with bad labels gets the same findings on every validation, good labels in between', () => {
  const bad = variant(pod, (p) => {
    p.metadata.labels = { app: 'web', '-bad': 'ok', good: 'bad value!', 'example.com/': 'x' };
  });
  const first = lines(validate(bad));
  assert.ok(
    first.some((l) => l.startsWith('metadata-labels')),
    first.join('\n'),
  );
  assert.deepEqual(lines(validate(pod)), []);
  assert.deepEqual(lines(validate(bad)), first);
});

test('defaults write the canonical text of each quantity, the same in every container and every object', () => {
  const texts = ['1000m', '0.5', '128Mi', '1G', '1e3', '100m', '2', 'bogus', '1.5Gi', '0'];
  const expected = (v: string | number): string | number => {
    const q = parseQuantity(v);
    return q ? formatQuantity(q) : v;
  };
  for (let round = 0; round < 2; round++) {
    const p = variant(pod, (o) => {
      const c = (o.spec as { containers: Record<string, unknown>[] }).containers[0];
      const requests: Record<string, string | number> = {};
      texts.forEach((t, i) => (requests[`example.com/r${i}`] = t));
      requests.cpu = 1.5;
      c.resources = { requests, limits: { ...requests } };
      (o.spec as { containers: Record<string, unknown>[] }).containers.push({ ...c, name: 'second' });
    });
    applyDefaults(p, resourceFor('v1', 'Pod')!);
    for (const c of (p.spec as { containers: { resources: Record<string, Record<string, unknown>> }[] }).containers) {
      for (const list of ['requests', 'limits']) {
        texts.forEach((t, i) =>
          assert.equal(c.resources[list][`example.com/r${i}`], expected(t), `${t} round ${round}`),
        );
        assert.equal(c.resources[list].cpu, expected(1.5));
      }
    }
  }
});

test("a policy expression's verdict depends on whether params are declared and on the result wanted", () => {
  const policy = (spec: Record<string, unknown>): KubeObject => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p' },
    spec: {
      matchConstraints: {
        resourceRules: [
          { operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
        ],
      },
      failurePolicy: 'Fail',
      ...spec,
    },
  });
  const withoutParams = policy({ validations: [{ expression: 'params.x == 1' }] });
  const withParams = policy({
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [{ expression: 'params.x == 1' }],
  });
  const undeclared = lines(validate(withoutParams));
  assert.ok(
    undeclared.some((l) => l.includes("undeclared reference to 'params'")),
    undeclared.join('\n'),
  );
  assert.deepEqual(lines(validate(withParams)), []);
  assert.deepEqual(lines(validate(withoutParams)), undeclared);
  // One text, two results wanted: a string is a fine message but not a validation.
  const text = policy({ validations: [{ expression: "'a' == 'a'", messageExpression: "'a'" }] });
  assert.deepEqual(lines(validate(text)), []);
  const notBool = lines(validate(policy({ validations: [{ expression: "'a'" }] })));
  assert.ok(
    notBool.some((l) => l.includes('cel expression must evaluate to a bool')),
    notBool.join('\n'),
  );
});

test('while the rules read an object its pod spec and containers are found once, frozen, and only there', () => {
  const d = structuredClone(deployment);
  const outside = podSpecOf(d)!;
  assert.equal(Object.isFrozen(outside), false, 'outside a validation, a fresh answer the caller may keep');
  assert.notEqual(podSpecOf(d), outside);
  readingPodSpecsOf(d, () => {
    const at = podSpecOf(d)!;
    assert.equal(podSpecOf(d), at, 'found once');
    assert.ok(Object.isFrozen(at));
    const list = containersOf(at.spec, at.path);
    assert.equal(containersOf(at.spec, at.path), list);
    assert.ok(Object.isFrozen(list) && list.every((c) => Object.isFrozen(c)));
    assert.throws(() => (list as unknown[]).push({}), TypeError);
    assert.equal(list[0].path, 'spec.template.spec.containers[0]');
    // Another object (an UPDATE's old one) is not answered from this object's memo.
    const other = structuredClone(deployment);
    assert.notEqual(podSpecOf(other), at);
    assert.notEqual(containersOf(podSpecOf(other)!.spec, at.path), list);
    // A nested reading restores the outer one.
    readingPodSpecsOf(other, () => assert.equal(podSpecOf(other), podSpecOf(other)));
    assert.equal(podSpecOf(d), at);
  });
  assert.equal(Object.isFrozen(podSpecOf(d)), false, 'the memo ends with the reading');
});

test('one object validated, changed, validated again: the second validation sees the change', () => {
  const r = resourceFor('apps/v1', 'Deployment')!;
  const d = structuredClone(deployment);
  applyDefaults(d, r);
  assert.deepEqual(lines(validateObject(d, { resource: r, operation: 'CREATE' })), []);
  const spec = (d.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec;
  spec.containers[0].image = '';
  spec.containers.push({ name: 'app', image: 'busybox', imagePullPolicy: 'Always' });
  const after = lines(validateObject(d, { resource: r, operation: 'CREATE' }));
  assert.ok(
    after.some((l) => l.includes('spec.template.spec.containers[0].image')),
    after.join('\n'),
  );
  assert.ok(
    after.some((l) => l.includes('spec.template.spec.containers[1].name')),
    after.join('\n'),
  );
});

test('a matchLabels-only selector is matched as the compiled selector matches it, on 3,000 generated pairs', () => {
  let seed = 16;
  const rand = (n: number): number => {
    seed = (seed * 48271) % 2147483647; // Park–Miller: exact in doubles
    return Math.floor((seed / 2147483647) * n);
  };
  const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)];
  const keys = ['app', 'tier', 'app.kubernetes.io/name', 'example.com/x', 'constructor', 'toString'];
  const badKeys = ['-bad', '', 'a/b/c'];
  const values = ['web', 'db', '', 'Web', 'a.b-c_d'];
  const oddValues: unknown[] = ['bad value', 42, true, null];
  let compared = 0;
  let matched = 0;
  for (let i = 0; i < 3000; i++) {
    const matchLabels: Record<string, unknown> = {};
    for (let n = rand(4); n > 0; n--)
      matchLabels[rand(10) === 0 ? pick(badKeys) : pick(keys)] = rand(10) === 0 ? pick(oddValues) : pick(values);
    const selector: Record<string, unknown> = { matchLabels: rand(10) === 0 ? pick(['x', ['a'], null]) : matchLabels };
    const exprs = rand(6);
    if (exprs === 1) selector.matchExpressions = [];
    else if (exprs === 2) selector.matchExpressions = null;
    else if (exprs === 3) selector.matchExpressions = [{ key: 'app', operator: 'Exists' }];
    else if (exprs === 4) selector.matchExpressions = 'In';
    const labels: Record<string, string> = {};
    if (rand(2) === 0) for (const [k, v] of Object.entries(matchLabels)) if (typeof v === 'string') labels[k] = v;
    for (let n = rand(3); n > 0; n--) labels[pick(keys)] = pick(values);
    if (validateLabelSelector('t', selector, 'spec.selector').length > 0) continue;
    const fast = matchesByLabelsOnly(selector, labels);
    if (fast === undefined) continue;
    compared++;
    if (fast) matched++;
    assert.equal(fast, labelSelectorMatches(selector as LabelSelector, labels), JSON.stringify({ selector, labels }));
  }
  assert.ok(compared > 300 && matched > 30 && compared - matched > 30, `compared ${compared}, matched ${matched}`);
});
