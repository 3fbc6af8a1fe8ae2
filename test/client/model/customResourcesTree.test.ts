/** Custom resources in the cluster tree: a group per kind under its namespace, printer columns as description. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterTree } from '../../../client/src/model/clusterTree';
import { customResourceHealth, resourceHealth } from '../../../client/src/health/resourceHealth';
import type { KubeObject } from '../../../sandbox/api/types';
import { NOW, cacheOf, controller, deployment, meta, namespace, pod, replicaSet } from './fixtures';
import type { TreeNode } from '../../../client/src/model/treeNode';

const crd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: meta('certificates.cert-manager.io', 'uid-crd'),
  spec: {
    group: 'cert-manager.io',
    scope: 'Namespaced',
    names: { kind: 'Certificate', plural: 'certificates', singular: 'certificate', listKind: 'CertificateList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        additionalPrinterColumns: [
          { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
          { name: 'Secret', type: 'string', jsonPath: '.spec.secretName' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
  status: {
    acceptedNames: {
      kind: 'Certificate',
      plural: 'certificates',
      singular: 'certificate',
      listKind: 'CertificateList',
    },
    conditions: [
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
    storedVersions: ['v1'],
  },
} as KubeObject;

function certificate(name: string, ready?: 'True' | 'False'): KubeObject {
  return {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: meta(name, `uid-${name}`, 'default'),
    spec: { secretName: `${name}-tls` },
    ...(ready ? { status: { conditions: [{ type: 'Ready', status: ready, message: `ready ${ready}` }] } } : {}),
  } as KubeObject;
}

describe('ClusterTree: custom resources', () => {
  test('each kind is a group under its namespace after the built-in kinds, rows described by the printer columns', () => {
    const tree = new ClusterTree(
      cacheOf([
        { resource: 'namespaces', object: namespace('default') },
        { resource: 'deployments', object: deployment('web', 1, 1) },
        { resource: 'customresourcedefinitions', object: crd },
        { resource: 'certificates.cert-manager.io', object: certificate('api', 'True') },
        { resource: 'certificates.cert-manager.io', object: certificate('web', 'False') },
        { resource: 'certificates.cert-manager.io', object: certificate('new') },
      ]),
      () => NOW,
    );
    const ns = tree.children(tree.roots().find((n) => n.id === 'namespaces')!).find((n) => n.label === 'default')!;
    const groups = tree.children(ns);
    assert.deepEqual(
      groups.map((g) => [g.label, g.description]),
      [
        ['Deployments', '1'],
        ['Certificate (cert-manager.io)', '3'],
      ],
    );
    assert.deepEqual(
      tree.children(groups[1]!).map((n) => [n.label, n.description, n.icon, n.contextValue]),
      [
        ['api', 'True · api-tls', { id: 'symbol-class', color: 'charts.green' }, 'customresource'],
        ['new', 'new-tls', { id: 'symbol-class' }, 'customresource'],
        ['web', 'False · web-tls', { id: 'symbol-class', color: 'charts.red' }, 'customresource'],
      ],
    );
  });

  test('health is Unknown unless a Ready or Available condition says otherwise; built-in kinds keep their rules', () => {
    assert.equal(resourceHealth(certificate('a'))?.status, 'Unknown');
    assert.deepEqual(resourceHealth(certificate('a', 'True')), customResourceHealth(certificate('a', 'True')));
    assert.equal(resourceHealth(certificate('a', 'True'))?.status, 'Healthy');
    assert.deepEqual(
      [resourceHealth(certificate('a', 'False'))?.status, resourceHealth(certificate('a', 'False'))?.message],
      ['Degraded', 'ready False'],
    );
    const available = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: meta('t', 'uid-t', 'default'),
      status: { conditions: [{ type: 'Available', status: 'False', message: '' }] },
    } as KubeObject;
    assert.deepEqual(
      [resourceHealth(available)?.status, resourceHealth(available)?.message],
      ['Degraded', 'Available is False'],
    );
    // A built-in group without a rule still has no health, as in Argo CD.
    assert.equal(
      resourceHealth({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: meta('n', 'u', 'default'),
      }),
      undefined,
    );
  });

  test("an operator's custom resource nests what it controls: Deployment → ReplicaSet → Pod, a Service, another CR", () => {
    const owner = controller('Certificate', 'api', 'uid-api', 'cert-manager.io/v1');
    const web = { ...deployment('web', 1, 1), metadata: meta('web', 'uid-web', 'default', owner) } as KubeObject;
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('api-svc', 'uid-api-svc', 'default', owner),
      spec: { ports: [{ port: 80 }] },
    } as KubeObject;
    const child = { ...certificate('api-child'), metadata: meta('api-child', 'uid-api-child', 'default', owner) };
    // A ConfigMap owned by the CR without `controller: true` is not nested (only the controller reference nests).
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('notes', 'uid-notes', 'default', { ...owner, controller: false }),
    } as KubeObject;
    const tree = new ClusterTree(
      cacheOf([
        { resource: 'namespaces', object: namespace('default') },
        { resource: 'customresourcedefinitions', object: crd },
        { resource: 'certificates.cert-manager.io', object: certificate('api', 'True') },
        { resource: 'certificates.cert-manager.io', object: child },
        { resource: 'deployments', object: web },
        { resource: 'replicasets', object: replicaSet('web-1', controller('Deployment', 'web', 'uid-web'), 1, 1) },
        {
          resource: 'pods',
          object: pod('web-1-a', 'running', 'n1', controller('ReplicaSet', 'web-1', 'uid-web-1')),
        },
        { resource: 'services', object: svc },
        { resource: 'configmaps', object: cm },
      ]),
      () => NOW,
    );
    const ns = tree.children(tree.roots().find((n) => n.id === 'namespaces')!).find((n) => n.label === 'default')!;
    const groups = tree.children(ns);
    // The owned objects left their own groups (as a Deployment's ReplicaSets do); the un-controlled ConfigMap did not.
    assert.deepEqual(
      groups.map((g) => [g.label, g.description]),
      [
        ['ConfigMaps', '1'],
        ['Certificate (cert-manager.io)', '1'],
      ],
    );
    const api = tree.children(groups[1]!)[0]!;
    assert.equal(api.collapsible, 'collapsed');
    const under = (n: TreeNode): string[] => tree.children(n).map((c) => `${c.contextValue} ${c.label}`);
    assert.deepEqual(under(api), ['deployment web', 'service api-svc', 'customresource api-child']);
    const deploymentRow = tree.children(api)[0]!;
    assert.equal(deploymentRow.id, 'certificates.cert-manager.io/uid-api/deployments/uid-web');
    assert.equal(deploymentRow.revealsManifest, false);
    const rs = tree.children(deploymentRow)[0]!;
    assert.deepEqual(under(rs), ['pod.running web-1-a']);
    assert.equal(tree.children(tree.children(api)[2]!).length, 0);
  });

  test('a cluster-scoped custom resource is no row of the tree: what it controls stays in its own groups', () => {
    const clusterScoped = {
      apiVersion: 'example.com/v1',
      kind: 'Platform',
      metadata: meta('main', 'uid-main'),
    } as KubeObject;
    const web = {
      ...deployment('web', 1, 1),
      metadata: meta('web', 'uid-web', 'default', controller('Platform', 'main', 'uid-main', 'example.com/v1')),
    } as KubeObject;
    const tree = new ClusterTree(
      cacheOf([
        { resource: 'namespaces', object: namespace('default') },
        { resource: 'platforms.example.com', object: clusterScoped },
        { resource: 'deployments', object: web },
      ]),
      () => NOW,
    );
    const ns = tree.children(tree.roots().find((n) => n.id === 'namespaces')!).find((n) => n.label === 'default')!;
    assert.deepEqual(
      tree.children(ns).map((g) => g.label),
      ['Deployments'],
    );
  });
});
