import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsFor, eventsText } from '../../../client/src/model/events';
import type { KubeObject } from '../../../sandbox/api/types';
import { NOW, cacheOf, meta, pod } from './fixtures';

function event(
  name: string,
  involved: Record<string, string>,
  reason: string,
  message: string,
  last: string,
  type = 'Normal',
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta(name, `uid-${name}`, 'default'),
    involvedObject: involved,
    reason,
    message,
    type,
    firstTimestamp: last,
    lastTimestamp: last,
    count: 1,
  };
}

describe('events of an object', () => {
  const target = pod('web-1', 'running', 'node-1');
  const cache = cacheOf([
    { resource: 'pods', object: target },
    {
      resource: 'events',
      object: event(
        'e-started',
        { kind: 'Pod', name: 'web-1', namespace: 'default', uid: 'uid-web-1' },
        'Started',
        'Started container app',
        '2025-01-01T00:09:00Z',
      ),
    },
    {
      resource: 'events',
      object: event(
        'e-scheduled',
        { kind: 'Pod', name: 'web-1', namespace: 'default' },
        'Scheduled',
        'Successfully assigned default/web-1 to node-1',
        '2025-01-01T00:08:00Z',
      ),
    },
    {
      resource: 'events',
      object: event(
        'e-old',
        { kind: 'Pod', name: 'web-1', namespace: 'default', uid: 'uid-earlier-web-1' },
        'Killing',
        'Stopping container app',
        '2025-01-01T00:01:00Z',
      ),
    },
    {
      resource: 'events',
      object: event(
        'e-other',
        { kind: 'Pod', name: 'web-2', namespace: 'default', uid: 'uid-web-2' },
        'Started',
        'Started container app',
        '2025-01-01T00:09:00Z',
      ),
    },
  ]);

  test('matches by uid (an earlier object of the same name is left out), or by kind and name without one, oldest first', () => {
    assert.deepEqual(
      eventsFor(cache, target).map((e) => e.metadata.name),
      ['e-scheduled', 'e-started'],
    );
  });

  test('prints them as kubectl get events does', () => {
    assert.equal(
      eventsText(eventsFor(cache, target), NOW, 'default'),
      [
        'LAST SEEN   TYPE     REASON      OBJECT      MESSAGE',
        '2m          Normal   Scheduled   pod/web-1   Successfully assigned default/web-1 to node-1',
        '60s         Normal   Started     pod/web-1   Started container app',
        '',
      ].join('\n'),
    );
  });

  test('says so when there are none', () => {
    assert.equal(eventsText([], NOW, 'default'), 'No events found in default namespace.\n');
    assert.equal(eventsText([], NOW, undefined), 'No events found.\n');
  });
});
