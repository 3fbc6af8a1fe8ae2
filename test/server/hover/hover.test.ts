import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Hover } from 'vscode-languageserver-types';
import { hoverAt } from '../../../server/src/services/hover/hover';
import { lines, withCursor } from '../completion/cursor';

function hover(src: string): Hover | null {
  const { doc, position } = withCursor(src);
  return hoverAt(doc, position);
}

const DEPLOYMENT = (...containers: string[]): string =>
  lines(
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    'spec:',
    '  template:',
    '    spec:',
    '      containers:',
    ...containers,
  );

describe('hover', () => {
  test('a required field deep in a pod template: type, required-ness, description, path', () => {
    assert.deepEqual(hover(DEPLOYMENT('        - name: web', '          ports:', '            - contain|erPort: 80')), {
      contents: {
        kind: 'markdown',
        value: [
          '**containerPort** `integer` *(required)*',
          "Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536.",
          '`spec.template.spec.containers[].ports[].containerPort` in `ContainerPort`',
        ].join('\n\n'),
      },
      range: { start: { line: 10, character: 14 }, end: { line: 10, character: 27 } },
    });
  });

  test('an optional field with an object type', () => {
    assert.deepEqual(hover(lines('apiVersion: v1', 'kind: Service', 'spec:', '  sessionAffinityCon|fig: {}')), {
      contents: {
        kind: 'markdown',
        value: [
          '**sessionAffinityConfig** `SessionAffinityConfig` *(optional)*',
          'sessionAffinityConfig contains the configurations of session affinity.',
          '`spec.sessionAffinityConfig` in `ServiceSpec`',
        ].join('\n\n'),
      },
      range: { start: { line: 3, character: 2 }, end: { line: 3, character: 23 } },
    });
  });

  test('the kind value: description and the versions serving it', () => {
    assert.deepEqual(hover(lines('apiVersion: autoscaling/v2', 'kind: HorizontalPod|Autoscaler')), {
      contents: {
        kind: 'markdown',
        value: [
          '**HorizontalPodAutoscaler** `autoscaling/v2`',
          'HorizontalPodAutoscaler is the configuration for a horizontal pod autoscaler, which automatically manages the replica count of any resource implementing the scale subresource based on the metrics specified.',
          'Served as: `autoscaling/v1`, `autoscaling/v2`',
        ].join('\n\n'),
      },
      range: { start: { line: 1, character: 6 }, end: { line: 1, character: 29 } },
    });
  });

  test('a removed apiVersion value says so', () => {
    assert.deepEqual(hover(lines('apiVersion: extensions/v1be|ta1', 'kind: Deployment'))?.contents, {
      kind: 'markdown',
      value: [
        '**Deployment** `apps/v1`',
        'Deployment enables declarative updates for Pods and ReplicaSets.',
        'Served as: `apps/v1`',
        '`extensions/v1beta1` no longer serves Deployment: it was removed in Kubernetes 1.16.',
      ].join('\n\n'),
    });
  });

  test('nothing on unknown fields, map keys, other values and unknown kinds', () => {
    assert.equal(hover(DEPLOYMENT('        - name: web', '          poa|rts: []')), null);
    assert.equal(hover(lines('apiVersion: v1', 'kind: ConfigMap', 'data:', '  ke|y: value')), null);
    assert.equal(hover(DEPLOYMENT('        - name: w|eb')), null);
    assert.equal(hover(lines('apiVersion: example.com/v1', 'kind: Wid|get')), null);
  });
});
