/**
 * The ServiceAccount controller (upstream: pkg/controller/serviceaccount/serviceaccounts_controller.go) and the root
 * CA publisher (pkg/controller/certificates/rootcacertpublisher/publisher.go): `default` and `kube-root-ca.crt` in
 * every namespace, restored when deleted or edited.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RootCaPublisher, SANDBOX_CA_PEM } from '../../../../sandbox/controllers/serviceaccount/rootCaPublisher';
import { ServiceAccountsController } from '../../../../sandbox/controllers/serviceaccount/serviceAccountsController';
import { newHarness } from '../harness';
import type { Harness } from '../harness';

function start(): Harness {
  const h = newHarness(1);
  new ServiceAccountsController(h.ctx).start();
  new RootCaPublisher(h.ctx).start();
  return h;
}

describe('ServiceAccount controller', () => {
  test('every namespace, the system ones included, gets ServiceAccount default', () => {
    const h = start();
    h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    h.advance(0);
    const names = h.api
      .list('serviceaccounts')
      .items.map((sa) => `${sa.metadata.namespace}/${sa.metadata.name}`)
      .sort();
    assert.deepEqual(names, [
      'default/default',
      'kube-node-lease/default',
      'kube-public/default',
      'kube-system/default',
      'team/default',
    ]);
  });

  test('a deleted default ServiceAccount is created again', () => {
    const h = start();
    h.advance(0);
    const before = h.api.get('serviceaccounts', 'default', 'default').metadata.uid;
    h.api.delete('serviceaccounts', 'default', 'default');
    h.advance(0);
    const after = h.api.get('serviceaccounts', 'default', 'default').metadata.uid;
    assert.notEqual(after, before);
  });

  test('a terminating namespace gets nothing new', () => {
    const h = start();
    h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gone' } });
    h.advance(0);
    h.api.delete('namespaces', '', 'gone');
    h.api.delete('serviceaccounts', 'gone', 'default');
    h.advance(0);
    assert.equal(h.api.tryGet('serviceaccounts', 'gone', 'default'), undefined);
  });
});

describe('root CA publisher', () => {
  test('kube-root-ca.crt with ca.crt and upstream’s description, in every namespace', () => {
    const h = start();
    h.advance(0);
    const cm = h.api.get('configmaps', 'kube-system', 'kube-root-ca.crt');
    assert.deepEqual(cm.data, { 'ca.crt': SANDBOX_CA_PEM });
    assert.match(cm.metadata.annotations!['kubernetes.io/description'], /^Contains a CA bundle that can be used/);
    assert.equal(h.api.list('configmaps').items.filter((c) => c.metadata.name === 'kube-root-ca.crt').length, 4);
  });

  test('an edited bundle is restored; a deleted one recreated', () => {
    const h = start();
    h.advance(0);
    const cm = h.api.get('configmaps', 'default', 'kube-root-ca.crt');
    h.api.update({ ...cm, data: { 'ca.crt': 'tampered' } });
    h.advance(0);
    assert.deepEqual(h.api.get('configmaps', 'default', 'kube-root-ca.crt').data, { 'ca.crt': SANDBOX_CA_PEM });
    h.api.delete('configmaps', 'default', 'kube-root-ca.crt');
    h.advance(0);
    assert.ok(h.api.tryGet('configmaps', 'default', 'kube-root-ca.crt'));
  });
});
