import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  definition,
  describeType,
  fieldPathText,
  kindEntry,
  kindsFor,
  resolveRef,
  typeAtPath,
} from '../../../server/src/schema/schema';
import type { Definition } from '../../../server/src/schema/types';

function def(name: string): Definition {
  const d = definition(name);
  assert.ok(d !== undefined, name);
  return d;
}

describe('schema API', () => {
  const deployment = def('io.k8s.api.apps.v1.Deployment');

  test('typeAtPath: a property deep in a pod template, with its schema and declaring definition', () => {
    const container = def('io.k8s.api.core.v1.Container');
    const port = def('io.k8s.api.core.v1.ContainerPort');
    assert.deepEqual(
      typeAtPath(deployment, ['spec', 'template', 'spec', 'containers', 0, 'ports', 1, 'containerPort']),
      {
        type: { kind: 'integer', format: 'int32' },
        property: port.properties.containerPort,
        parent: port,
      },
    );
    assert.deepEqual(typeAtPath(deployment, ['spec', 'template', 'spec', 'containers', 0]), {
      type: { kind: 'ref', name: container.name },
    });
    assert.deepEqual(typeAtPath(deployment, []), { type: { kind: 'ref', name: deployment.name } });
  });

  test('typeAtPath: map values, free-form JSON, and paths that leave the schema', () => {
    assert.deepEqual(typeAtPath(deployment, ['metadata', 'labels', 'app']), { type: { kind: 'string' } });
    const revision = def('io.k8s.api.apps.v1.ControllerRevision');
    assert.deepEqual(typeAtPath(revision, ['data', 'spec', 'anything', 3]), { type: { kind: 'any' } });
    assert.equal(typeAtPath(deployment, ['spec', 'poarts']), undefined);
    assert.equal(typeAtPath(deployment, ['spec', 0]), undefined);
    assert.equal(typeAtPath(deployment, ['spec', 'replicas', 'x']), undefined);
  });

  test('describeType prints types as kubectl explain does', () => {
    const spec = def('io.k8s.api.core.v1.PodSpec').properties;
    assert.deepEqual(
      [
        describeType(spec.containers.type),
        describeType(spec.nodeSelector.type),
        describeType(spec.overhead.type),
        describeType(spec.hostNetwork.type),
        describeType(spec.priority.type),
        describeType(spec.securityContext.type),
        describeType(def('io.k8s.api.apps.v1.RollingUpdateDeployment').properties.maxSurge.type),
        describeType(def('io.k8s.api.apps.v1.ControllerRevision').properties.data.type),
        describeType({ kind: 'number' }),
      ],
      [
        '[]Container',
        'map[string]string',
        'map[string]Quantity',
        'boolean',
        'integer',
        'PodSecurityContext',
        'IntOrString',
        'Object',
        'number',
      ],
    );
  });

  test('fieldPathText', () => {
    assert.equal(
      fieldPathText(['spec', 'template', 'spec', 'containers', 0, 'ports', 2, 'containerPort']),
      'spec.template.spec.containers[].ports[].containerPort',
    );
    assert.equal(fieldPathText([]), '');
    assert.equal(fieldPathText(['items', 0]), 'items[]');
  });

  test('kindEntry, kindsFor, resolveRef, definition', () => {
    assert.equal(kindEntry('apps/v1', 'deployment'), undefined);
    assert.equal(kindEntry('v1', 'Deployment'), undefined);
    assert.deepEqual(
      kindsFor('HorizontalPodAutoscaler').map((k) => k.apiVersion),
      ['autoscaling/v1', 'autoscaling/v2'],
    );
    assert.deepEqual(kindsFor('NoSuchKind'), []);
    assert.equal(resolveRef({ kind: 'ref', name: 'io.k8s.api.core.v1.Container' })?.title, 'Container');
    assert.equal(
      resolveRef({ kind: 'array', items: { kind: 'ref', name: 'io.k8s.api.core.v1.Container' } }),
      undefined,
    );
    assert.equal(definition('toString'), undefined);
  });
});
