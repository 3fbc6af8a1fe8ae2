import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { podHostPorts } from '../../../sandbox/scheduler/podInfo';
import { pod } from './fixtures';

describe('the scheduler shares what many pods have alike (issue 16)', () => {
  test('pods without host ports share one frozen empty list; a pod with host ports gets its own', () => {
    const a = podHostPorts(pod('a'));
    const b = podHostPorts(pod('b'));
    assert.equal(a, b);
    assert.deepEqual(a, []);
    assert.ok(Object.isFrozen(a), 'shared: must not be changed');
    const withPorts = pod('c', {
      spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }] },
    });
    const ports = podHostPorts(withPorts);
    assert.deepEqual(ports, [{ ip: '0.0.0.0', protocolPort: 'TCP/8080' }]);
    assert.notEqual(ports, a);
    assert.ok(!Object.isFrozen(ports));
  });
});
