/** Parsed manifests placed in their file: 1-based lines of documents and fields (the CLI, foresight, the host). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { placeManifests } from '../../../sandbox/manifests/placedManifests';

const TEXT = `# a comment
apiVersion: v1
kind: ConfigMap
metadata:
  name: first
data:
  a: "1"
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: app
          image: nginx
`;

test('each document gets its file, its 1-based first line and its object, in order', () => {
  const placed = placeManifests(manifestObjects(TEXT).manifests, 'dir/web.yaml');
  assert.deepEqual(
    placed.map((m) => [m.source, m.line, m.object.kind, m.object.metadata.name]),
    [
      ['dir/web.yaml', 2, 'ConfigMap', 'first'],
      ['dir/web.yaml', 9, 'Deployment', 'web'],
    ],
  );
});

test('lineOf places an upstream field path on its 1-based line, or on its nearest key the text has', () => {
  const [, deployment] = placeManifests(manifestObjects(TEXT).manifests, 'web.yaml');
  assert.equal(deployment.lineOf('spec.replicas'), 14);
  assert.equal(deployment.lineOf('spec.template.spec.containers[0].image'), 19);
  // absent from the text: the nearest enclosing key (the container), not the document's first line
  assert.equal(deployment.lineOf('spec.template.spec.containers[0].resources'), 18);
});

test('no documents, no manifests', () => {
  assert.deepEqual(placeManifests(manifestObjects('# nothing\n').manifests, 'empty.yaml'), []);
});
