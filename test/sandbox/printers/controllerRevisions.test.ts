/** `kubectl get controllerrevisions` (upstream `printControllerRevision`) and the StatefulSet's wide columns. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTable, tableFor } from '../../../sandbox/printers/index';
import { NOW, obj } from './fixtures';

const text = (...lines: string[]) => lines.map((l) => `${l}\n`).join('');

describe('printers: ControllerRevisions', () => {
  test('NAME CONTROLLER REVISION AGE, the controller as kind.group/name, <none> without one', () => {
    const owned = obj(
      'apps/v1',
      'ControllerRevision',
      'web-66c9b4d89',
      { revision: 2 },
      { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u1', controller: true }] },
    );
    const orphan = obj('apps/v1', 'ControllerRevision', 'loose-1', { revision: 1 });
    assert.deepEqual(
      tableFor('controllerrevisions', [], NOW).columns.map((c) => c.name),
      ['Name', 'Controller', 'Revision', 'Age'],
    );
    assert.equal(
      formatTable(tableFor('controllerrevisions', [owned, orphan], NOW)),
      text(
        'NAME            CONTROLLER             REVISION   AGE',
        'web-66c9b4d89   statefulset.apps/web   2          5m',
        'loose-1         <none>                 1          5m',
      ),
    );
  });

  test('statefulsets -o wide: CONTAINERS and IMAGES', () => {
    const sts = obj('apps/v1', 'StatefulSet', 'web', {
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
      status: { readyReplicas: 3 },
    });
    assert.equal(
      formatTable(tableFor('sts', [sts], NOW, { wide: true })),
      text('NAME   READY   AGE   CONTAINERS   IMAGES', 'web    3/3     5m    nginx        nginx:1.27'),
    );
  });
});
