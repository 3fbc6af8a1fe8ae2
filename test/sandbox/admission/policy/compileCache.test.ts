/** compilePolicy's cache for specs that are not frozen (a workspace's documents): reused until the content changes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePolicy } from '../../../../sandbox/admission/policy/compilePolicy';
import type { PolicySpec } from '../../../../sandbox/admission/policy/types';

test('an unfrozen spec is compiled once while unchanged, and again after an edit', () => {
  const spec = { validations: [{ expression: 'object.spec.replicas >= 2' }] } as PolicySpec;
  const first = compilePolicy(spec);
  assert.equal(compilePolicy(spec), first, 'the same content reuses the compiled policy');
  assert.equal(typeof first.validations[0].expression, 'object');
  spec.validations![0].expression = 'object.spec.replicas >=';
  const edited = compilePolicy(spec);
  assert.notEqual(edited, first);
  assert.equal(typeof edited.validations[0].expression, 'string', 'the edited expression does not compile');
});
