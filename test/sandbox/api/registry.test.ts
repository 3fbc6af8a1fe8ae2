import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceRegistry } from '../../../sandbox/api/registry';
import { findByName } from '../../../sandbox/api/resources';
import type { ResourceType } from '../../../sandbox/api/resources';
import { DEFAULT_KUBERNETES_VERSION } from '../../../sandbox/schema/schema';

/** A custom resource whose names shadow nothing built in, or (`pods`) would be found after the built-in kind. */
function custom(plural: string, kind: string, shortNames: string[] = []): ResourceType {
  return {
    group: 'example.com',
    version: 'v1',
    kind,
    plural,
    singular: kind.toLowerCase(),
    namespaced: true,
    shortNames,
    categories: [],
    statusSubresource: false,
    scaleSubresource: false,
    hasGeneration: true,
  };
}

const NAMES = [
  'pods',
  'Pods',
  'pod',
  'po',
  'Pod',
  'deployments.apps',
  'deploy',
  'services',
  'svc',
  'events',
  'ev',
  'events.events.k8s.io',
  'nodes',
  'no',
  'widgets',
  'widget',
  'wd',
  'Widget',
  'widgets.example.com',
  'gadgets',
  'gadgets.example.com',
  'pods.example.com',
  'nothing',
  '',
  '.',
  'pods.',
  'apps',
];

/** byName, asked twice (the second answer from what it remembered), against the walk of the list it remembers. */
function assertAnswersAsTheWalk(registry: ResourceRegistry): void {
  for (let round = 0; round < 2; round++)
    for (const name of NAMES) assert.equal(registry.byName(name), findByName(registry.list(), name), name);
}

describe('ResourceRegistry.byName', () => {
  test('answers as the walk of the list, and again after custom resources are added and removed', () => {
    const registry = new ResourceRegistry(DEFAULT_KUBERNETES_VERSION);
    assertAnswersAsTheWalk(registry);
    assert.equal(registry.byName('widgets'), undefined);
    registry.setCustom('widgets.example.com', [custom('widgets', 'Widget', ['wd'])]);
    assertAnswersAsTheWalk(registry);
    assert.equal(registry.byName('wd')?.kind, 'Widget');
    registry.setCustom('pods.example.com', [custom('pods', 'Pod')]);
    assertAnswersAsTheWalk(registry);
    assert.equal(registry.byName('pods')?.group, '', 'the built-in kind comes first');
    assert.equal(registry.byName('pods.example.com')?.group, 'example.com');
    registry.setCustom('widgets.example.com', undefined);
    assertAnswersAsTheWalk(registry);
    assert.equal(registry.byName('wd'), undefined, 'a removed resource is not remembered');
    registry.setCustom('gadgets.example.com', [custom('gadgets', 'Gadget')]);
    assert.equal(registry.byName('gadgets')?.kind, 'Gadget', 'a name unknown before is found once registered');
  });

  test('past the names it remembers, new names are still answered (and found once registered)', () => {
    const registry = new ResourceRegistry(DEFAULT_KUBERNETES_VERSION);
    for (let i = 0; i < 3000; i++) assert.equal(registry.byName(`unknown-${i}`), undefined);
    assert.equal(registry.byName('po')?.kind, 'Pod');
    registry.setCustom('gadgets.example.com', [custom('gadgets', 'Gadget')]);
    assert.equal(registry.byName('gadgets')?.kind, 'Gadget');
    assertAnswersAsTheWalk(registry);
  });
});
