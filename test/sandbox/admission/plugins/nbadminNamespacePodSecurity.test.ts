/**
 * Pod Security admission on namespaces (upstream: pod-security-admission admission/admission.go ValidateNamespace,
 * EvaluatePodsInNamespace; api/helpers.go PolicyToEvaluate), with the documentation's examples
 * (test/fixtures/docs/nbadmin/security, see SOURCE.md): "Enforce Pod Security Standards with Namespace Labels" and
 * "Apply Pod Security Standards at the Namespace Level".
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { KubeObject } from '../../../../sandbox/api/types';
import { ApiServer } from '../../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../../sandbox/clock/virtualClock';
import { newApi, statusOf } from '../../fixtures';

const DIR = join(__dirname, '..', '..', '..', 'fixtures', 'docs', 'nbadmin', 'security');

function example(file: string, namespace?: string): KubeObject {
  const obj = parse(readFileSync(join(DIR, file), 'utf8')) as KubeObject;
  return namespace === undefined ? obj : { ...obj, metadata: { ...obj.metadata, namespace } };
}

function label(api: ApiServer, ns: string, labels: Record<string, string>, dryRun = false): string[] {
  const warnings: string[] = [];
  api.patch('namespaces', undefined, ns, 'merge', { metadata: { labels } }, { warn: (t) => warnings.push(t), dryRun });
  return warnings;
}

const ENFORCE = 'pod-security.kubernetes.io/enforce';

describe('PodSecurity: tightening a namespace warns about its existing pods', () => {
  test('baseline → restricted names the pods that break it, grouped by their failed checks', () => {
    const { api } = newApi();
    api.create(example('podsecurity-baseline.yaml'));
    api.create(example('example-baseline-pod.yaml', 'my-baseline-namespace'));
    api.create({
      ...example('example-baseline-pod.yaml', 'my-baseline-namespace'),
      metadata: { name: 'b', namespace: 'my-baseline-namespace' },
    });
    api.create({
      ...example('example-baseline-pod.yaml', 'my-baseline-namespace'),
      metadata: { name: 'a', namespace: 'my-baseline-namespace' },
    });
    const warnings = label(api, 'my-baseline-namespace', { [ENFORCE]: 'restricted' }, true);
    assert.deepEqual(warnings, [
      'existing pods in namespace "my-baseline-namespace" violate the new PodSecurity enforce level "restricted:latest"',
      'a (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ]);
    // a dry run changes nothing; the labels are stored only on the real write, with the same warnings
    assert.equal(api.get('namespaces', '', 'my-baseline-namespace').metadata.labels?.[ENFORCE], 'baseline');
    assert.deepEqual(label(api, 'my-baseline-namespace', { [ENFORCE]: 'restricted' }), warnings);
  });

  test('one pod is named alone, two as "and 1 other pod"; distinct check sets are sorted', () => {
    const { api } = newApi();
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    const mk = (name: string, spec: Record<string, unknown> = {}): void => {
      api.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'team' },
        spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
      });
    };
    mk('web-1');
    mk('web-2');
    mk('host', { hostNetwork: true });
    assert.deepEqual(label(api, 'team', { [ENFORCE]: 'baseline' }), [
      'existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"',
      'host: host namespaces',
    ]);
    assert.deepEqual(label(api, 'team', { [ENFORCE]: 'restricted', [`${ENFORCE}-version`]: 'v1.32' }), [
      'existing pods in namespace "team" violate the new PodSecurity enforce level "restricted:v1.32"',
      'host: host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      'web-1 (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ]);
  });

  test('no warnings when relaxing, going privileged, leaving enforce alone, or when every pod complies', () => {
    const { api } = newApi();
    api.create(example('podsecurity-restricted.yaml'));
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'empty' } });
    assert.deepEqual(label(api, 'empty', { [ENFORCE]: 'restricted' }), []);
    api.patch('namespaces', undefined, 'my-restricted-namespace', 'merge', {
      metadata: { labels: { [ENFORCE]: 'privileged' } },
    });
    api.create(example('example-baseline-pod.yaml', 'my-restricted-namespace'));
    assert.deepEqual(label(api, 'my-restricted-namespace', { [ENFORCE]: 'baseline' }), []);
    assert.deepEqual(label(api, 'my-restricted-namespace', { team: 'a' }), []);
    assert.equal(label(api, 'my-restricted-namespace', { [ENFORCE]: 'restricted' }).length, 2);
    assert.deepEqual(label(api, 'my-restricted-namespace', { [ENFORCE]: 'baseline' }), []);
    assert.deepEqual(label(api, 'my-restricted-namespace', { [ENFORCE]: 'privileged' }), []);
  });

  test('an exempt namespace gets no warnings', () => {
    const api = new ApiServer({
      clock: new VirtualClock(),
      random: 1,
      podSecurity: { exemptions: { namespaces: ['ops'] } },
    });
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ops' } });
    api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'ops' },
      spec: { hostPID: true, containers: [{ name: 'c', image: 'nginx' }] },
    });
    assert.deepEqual(label(api, 'ops', { [ENFORCE]: 'restricted' }), []);
  });
});

describe('PodSecurity: namespace labels that do not parse are refused', () => {
  test('a misspelt level or version is 422 Invalid on create, each label named, in upstream order', () => {
    const { api } = newApi();
    const s = statusOf(() =>
      api.create({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'typo',
          labels: {
            [ENFORCE]: 'Restricted',
            [`${ENFORCE}-version`]: '1.32',
            'pod-security.kubernetes.io/warn': 'strict',
          },
        },
      }),
    );
    assert.equal(s.code, 422);
    assert.equal(s.reason, 'Invalid');
    assert.equal(
      s.message,
      'Namespace "typo" is invalid: [' +
        'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "Restricted": must be one of privileged, baseline, restricted, ' +
        'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "1.32": must be "latest" or "v1.x", ' +
        'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "strict": must be one of privileged, baseline, restricted]',
    );
    assert.equal(api.tryGet('namespaces', '', 'typo'), undefined);
  });

  test("relabelling to a bad value is refused; the documentation's namespaces are accepted", () => {
    const { api } = newApi();
    api.create(example('podsecurity-baseline.yaml'));
    api.create(example('podsecurity-restricted.yaml'));
    const s = statusOf(() => label(api, 'my-baseline-namespace', { [ENFORCE]: 'bogus' }));
    assert.equal(s.code, 422);
    assert.equal(
      s.message,
      'Namespace "my-baseline-namespace" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: ' +
        'Invalid value: "bogus": must be one of privileged, baseline, restricted',
    );
    assert.equal(api.get('namespaces', '', 'my-baseline-namespace').metadata.labels?.[ENFORCE], 'baseline');
  });
});
