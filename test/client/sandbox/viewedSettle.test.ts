/**
 * The Cluster view's connection (ViewedCluster) says whether the sandbox is still busy and when it settles, so the
 * view's pacer can hold a busy sandbox's refresh for the state it settles into — but only while the sandbox is shown:
 * a real context shown instead is never "busy" and its settle notices are not the sandbox's.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ViewedCluster } from '../../../client/src/live/viewedCluster';
import { FakeConnection } from '../commands/fakes';

describe('ViewedCluster: the sandbox settling', () => {
  test('forwards the sandbox’s settled state and settle notices while the sandbox is shown, and neither for a context', () => {
    const sandbox = new FakeConnection();
    const viewed = new ViewedCluster(sandbox, () => 0);
    let settles = 0;
    viewed.onDidSettle(() => settles++);

    sandbox.settled = false;
    assert.equal(viewed.settled, false, 'busy');
    sandbox.fireSettle();
    assert.equal(viewed.settled, true);
    assert.equal(settles, 1);

    viewed.showContext('staging');
    sandbox.settled = false;
    assert.equal(viewed.settled, undefined, 'a real cluster cannot tell');
    sandbox.fireSettle();
    assert.equal(settles, 1, 'the sandbox settling is not the context’s');

    viewed.showSandbox();
    sandbox.settled = false;
    assert.equal(viewed.settled, false);
    sandbox.fireSettle();
    assert.equal(settles, 2);
  });
});
