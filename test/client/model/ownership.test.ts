/** Warnings on both files of an object two files declare, from the desired state the worker sends. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { declaredRef, ownershipWarnings } from '../../../client/src/model/ownership';
import type { DesiredObject } from '../../../client/src/sandbox/protocol';
import { configMap, deployment } from '../../sandbox/fixtures';

const object = (o: Partial<DesiredObject>): DesiredObject => ({
  resource: 'deployments',
  namespace: 'default',
  name: 'web',
  source: 'web.yaml',
  line: 8,
  manifest: deployment('web'),
  shadowed: [],
  ...o,
});

describe('ownershipWarnings', () => {
  test('nothing for objects one file declares', () => {
    assert.deepEqual(ownershipWarnings([object({})]), []);
  });

  test('one warning on each declaring file, naming the other and which declaration runs', () => {
    const warnings = ownershipWarnings([
      object({ source: 'new.yaml', line: 0, shadowed: [{ source: 'web.yaml', line: 8 }] }),
    ]);
    assert.deepEqual(warnings, [
      {
        source: 'new.yaml',
        line: 0,
        message:
          "deployment.apps/web is also declared in web.yaml:9. This file was applied last, so its declaration is the one in the cluster; if it stops declaring deployment.apps/web, web.yaml's declaration is applied instead.",
      },
      {
        source: 'web.yaml',
        line: 8,
        message:
          'deployment.apps/web is also declared in new.yaml:1, which was applied later: its declaration is the one in the cluster. This one is applied again if new.yaml stops declaring deployment.apps/web.',
      },
    ]);
  });

  test('three files: the newest shadowed one takes over first', () => {
    const [first] = ownershipWarnings([
      object({
        source: 'c.yaml',
        shadowed: [
          { source: 'a.yaml', line: 0 },
          { source: 'b.yaml', line: 3 },
        ],
      }),
    ]);
    assert.match(
      first.message,
      /also declared in b\.yaml:4, a\.yaml:1\..* b\.yaml's declaration is applied instead\.$/,
    );
  });

  test('refs as kubectl writes them: core kinds without a group', () => {
    assert.equal(declaredRef({ name: 'cfg', manifest: configMap('cfg') }), 'configmap/cfg');
    assert.equal(declaredRef({ name: 'web', manifest: deployment('web') }), 'deployment.apps/web');
  });
});
