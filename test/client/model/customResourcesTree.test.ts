/** Custom resources in the cluster tree: a group per kind under its namespace, printer columns as description. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterTree } from '../../../client/src/model/clusterTree';
import { customResourceHealth, resourceHealth } from '../../../client/src/health/resourceHealth';
import type { KubeObject } from '../../../sandbox/api/types';
import { NOW, cacheOf, deployment, meta, namespace } from './fixtures';

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
});
