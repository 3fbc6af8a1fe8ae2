/**
 * The controller base (sandbox/controllers/framework/controller.ts) and its
 * event handlers: what a controller declares is what it gets — events mapped
 * to keys, retries with back-off and a log line, requeueAfter, and nothing
 * after stop.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Namespace, Pod, Service } from 'kubernetes-types/core/v1';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { KubeObject, Typed } from '../../../sandbox/api/types';
import type { ComponentContext } from '../../../sandbox/client/component';
import type { Informer } from '../../../sandbox/client/informer';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import {
  Controller,
  type FailureSubject,
  type ReconcileResult,
  type Watches,
} from '../../../sandbox/controllers/framework/controller';
import { Expectations } from '../../../sandbox/controllers/framework/expectations';
import {
  type EventHandler,
  enqueueMapped,
  enqueueObject,
  enqueueOwner,
  enqueueOwnerObserving,
  enqueueSelecting,
  resolveOwner,
} from '../../../sandbox/controllers/framework/handlers';
import { KeyTimers } from '../../../sandbox/controllers/framework/keyTimers';
import type { WorkQueue } from '../../../sandbox/controllers/framework/workQueue';
import { newHarness, type Harness } from './harness';

/** The tutorial's example, as the base's doc comment writes it. */
class PodCountController extends Controller {
  private namespaces!: Informer<Typed<Namespace>>;
  private pods!: Informer<Typed<Pod>>;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'podcount-controller' });
  }

  protected watch(w: Watches): void {
    this.namespaces = w.watch('namespaces', enqueueObject());
    this.pods = w.watch(
      'pods',
      enqueueMapped((pod) => pod.metadata.namespace),
    );
  }

  protected reconcile(name: string): ReconcileResult {
    const ns = this.namespaces.cache.get(name);
    if (!ns || ns.metadata.deletionTimestamp) return;
    const count = String(this.pods.cache.list(name).length);
    if (ns.metadata.annotations?.['example.dev/pods'] === count) return;
    const annotations = { ...ns.metadata.annotations, 'example.dev/pods': count };
    this.ctx.api.update({ ...ns, metadata: { ...ns.metadata, annotations } });
  }
}

/**
 * A controller that records the keys it reconciles (with the time), for the handler under test; `outcome` decides
 * what each reconcile does.
 */
class Probe extends Controller {
  readonly seen: string[] = [];
  outcome: (key: string) => ReconcileResult = () => undefined;

  constructor(
    ctx: ComponentContext,
    private readonly declare: (w: Watches, probe: Probe) => void,
  ) {
    super(ctx, { name: 'probe-controller' });
  }

  protected watch(w: Watches): void {
    this.declare(w, this);
  }

  protected reconcile(key: string): ReconcileResult {
    this.seen.push(`${this.ctx.clock.now() - START}:${key}`);
    return this.outcome(key);
  }

  /** Exposed for the tests. */
  secondQueue(reconcile: (key: string) => ReconcileResult): WorkQueue {
    return this.newQueue(reconcile);
  }

  keyTimers(fire: (key: string) => void): KeyTimers {
    return this.newTimers(fire);
  }
}

let START = 0;

function harness(): Harness {
  const h = newHarness();
  START = h.clock.now();
  return h;
}

const keysOf = (p: Probe): string[] => p.seen.map((s) => s.slice(s.indexOf(':') + 1));

function pod(name: string, labels: Record<string, string> = {}, owner?: KubeObject): Typed<Pod> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels,
      ...(owner
        ? {
            ownerReferences: [
              {
                apiVersion: owner.apiVersion,
                kind: owner.kind,
                name: owner.metadata.name!,
                uid: owner.metadata.uid!,
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };
}

function replicaSet(name: string): Typed<ReplicaSet> {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

function service(name: string, selector?: Record<string, string>): Typed<Service> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: { ports: [{ port: 80 }], ...(selector ? { selector } : {}) },
  };
}

describe('controller base: the tutorial example', () => {
  test('annotates each namespace with its pod count, following pod creates and deletes', () => {
    const h = harness();
    new PodCountController(h.ctx).start();
    h.settle();
    assert.equal(h.api.get('namespaces', undefined, 'default').metadata.annotations?.['example.dev/pods'], '0');
    h.api.create(pod('a'));
    h.api.create(pod('b'));
    h.settle();
    assert.equal(h.api.get('namespaces', undefined, 'default').metadata.annotations?.['example.dev/pods'], '2');
    h.api.delete('pods', 'default', 'a', { gracePeriodSeconds: 0 });
    h.settle();
    assert.equal(h.api.get('namespaces', undefined, 'default').metadata.annotations?.['example.dev/pods'], '1');
    assert.equal(h.api.get('namespaces', undefined, 'kube-system').metadata.annotations?.['example.dev/pods'], '0');
  });
});

describe('controller base: event handlers map events to keys', () => {
  test('enqueueObject: own key on add, update, delete; `events` and `when` narrow it', () => {
    const h = harness();
    const all = new Probe(h.ctx, (w) => w.watch('configmaps', enqueueObject()));
    const deletesOnly = new Probe(h.ctx, (w) => w.watch('configmaps', enqueueObject({ events: ['delete'] })));
    const labelled = new Probe(h.ctx, (w) =>
      w.watch('configmaps', enqueueObject({ when: (cm) => cm.metadata.labels?.watch === 'yes' })),
    );
    for (const c of [all, deletesOnly, labelled]) c.start();
    const cm = h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } });
    h.settle();
    h.api.update({ ...cm, metadata: { ...cm.metadata, labels: { watch: 'yes' } } });
    h.settle();
    h.api.delete('configmaps', 'default', 'c');
    h.settle();
    assert.deepEqual(keysOf(all), ['default/c', 'default/c', 'default/c']);
    assert.deepEqual(keysOf(deletesOnly), ['default/c']);
    assert.deepEqual(keysOf(labelled), ['default/c', 'default/c']);
  });

  test('enqueueOwner: a pod wakes the ReplicaSet that controls it — not one re-created under the same name', () => {
    const h = harness();
    const probe = new Probe(h.ctx, (w) => {
      const rss = w.informer('replicasets');
      w.watch('pods', enqueueOwner(rss, { kind: 'ReplicaSet', group: 'apps' }));
    });
    probe.start();
    const rs = h.api.create(replicaSet('web'));
    h.api.create(pod('owned', {}, rs));
    h.api.create(pod('orphan'));
    h.settle();
    assert.deepEqual(keysOf(probe), ['default/web']);
    h.api.delete('replicasets', 'default', 'web');
    h.api.create(replicaSet('web'));
    h.api.patch('pods', 'default', 'owned', 'merge', { metadata: { labels: { touched: 'yes' } } });
    h.settle();
    assert.deepEqual(keysOf(probe), ['default/web'], 'the new ReplicaSet has another uid: not the owner');
  });

  test('enqueueOwner: a controller reference that moves wakes the old owner, then the new one', () => {
    const h = harness();
    const probe = new Probe(h.ctx, (w) => {
      const rss = w.informer('replicasets');
      w.watch('pods', enqueueOwner(rss, { kind: 'ReplicaSet' }));
    });
    const a = h.api.create(replicaSet('a'));
    const b = h.api.create(replicaSet('b'));
    const p = h.api.create(pod('p', {}, a));
    probe.start();
    h.settle();
    probe.seen.length = 0;
    h.api.update({ ...p, metadata: { ...p.metadata, ownerReferences: pod('p', {}, b).metadata.ownerReferences } });
    h.settle();
    assert.deepEqual(keysOf(probe), ['default/a', 'default/b']);
  });

  test('enqueueOwner: only the named kind (and group)', () => {
    const h = harness();
    const probe = new Probe(h.ctx, (w) => {
      const rss = w.informer('replicasets');
      w.watch('pods', enqueueOwner(rss, { kind: 'ReplicaSet', group: 'extensions' }));
    });
    probe.start();
    const rs = h.api.create(replicaSet('web'));
    h.api.create(pod('p', {}, rs));
    h.settle();
    assert.deepEqual(keysOf(probe), []);
  });

  test('enqueueSelecting: pods wake the Services selecting their old and new labels; no selector selects nothing', () => {
    const h = harness();
    const probe = new Probe(h.ctx, (w) => {
      const services = w.informer('services');
      w.watch(
        'pods',
        enqueueSelecting(services, (svc) => (svc.spec?.selector ? { matchLabels: svc.spec.selector } : undefined)),
      );
    });
    h.api.create(service('web', { app: 'web' }));
    h.api.create(service('db', { app: 'db' }));
    h.api.create(service('external'));
    h.api.create(service('everything', {}));
    probe.start();
    const p = h.api.create(pod('p', { app: 'web' }));
    h.settle();
    assert.deepEqual(keysOf(probe), ['default/web']);
    probe.seen.length = 0;
    h.api.update({ ...p, metadata: { ...p.metadata, labels: { app: 'db' } } });
    h.settle();
    assert.deepEqual(keysOf(probe), ['default/db', 'default/web']);
  });

  test('enqueueMapped: any mapping; `update: both` maps the old object too', () => {
    const h = harness();
    const byLabel = (o: KubeObject): string | undefined => o.metadata.labels?.team;
    const newOnly = new Probe(h.ctx, (w) => w.watch('configmaps', enqueueMapped(byLabel)));
    const both = new Probe(h.ctx, (w) => w.watch('configmaps', enqueueMapped(byLabel, { update: 'both' })));
    newOnly.start();
    both.start();
    const cm = h.api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'default', labels: { team: 'red' } },
    });
    h.settle();
    newOnly.seen.length = 0;
    both.seen.length = 0;
    h.api.update({ ...cm, metadata: { ...cm.metadata, labels: { team: 'blue' } } });
    h.settle();
    assert.deepEqual(keysOf(newOnly), ['blue']);
    assert.deepEqual(keysOf(both), ['blue', 'red']);
  });

  test('enqueueOwnerObserving: creations and deletions observed for the owner; orphans wake would-be adopters', () => {
    const h = harness();
    const expectations = new Expectations(h.clock);
    let rss!: Informer<Typed<ReplicaSet>>;
    const probe = new Probe(h.ctx, (w) => {
      rss = w.informer('replicasets');
      w.watch(
        'pods',
        enqueueOwnerObserving({
          expectations,
          resolve: (ns, ref) => resolveOwner(rss, ns, ref, { kind: 'ReplicaSet', group: 'apps' }),
          adopters: (pod) =>
            rss.cache.list(pod.metadata.namespace).filter((rs) => rs.metadata.name === pod.metadata.labels?.app),
        }),
      );
    });
    probe.start();
    const rs = h.api.create(replicaSet('web'));
    expectations.expectCreations('default/web', 2);
    h.api.create(pod('a', {}, rs));
    assert.equal(expectations.satisfied('default/web'), false, 'one of two creations seen');
    h.api.create(pod('b', {}, rs));
    assert.equal(expectations.satisfied('default/web'), true);
    expectations.expectDeletions('default/web', ['default/a']);
    assert.equal(expectations.satisfied('default/web'), false);
    h.api.delete('pods', 'default', 'a', { gracePeriodSeconds: 0 });
    assert.equal(expectations.satisfied('default/web'), true, 'the deletion was observed');
    h.api.create(pod('orphan', { app: 'web' }));
    h.api.create(pod('stranger', { app: 'db' }));
    h.settle();
    assert.deepEqual(keysOf(probe), ['default/web']);
  });

  test('keys are de-duplicated: many events before a pass give one reconcile', () => {
    const h = harness();
    const probe = new Probe(h.ctx, (w) =>
      w.watch(
        'configmaps',
        enqueueMapped(() => 'one-key'),
      ),
    );
    probe.start();
    for (const name of ['a', 'b', 'c'])
      h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
    h.settle();
    assert.deepEqual(keysOf(probe), ['one-key']);
  });

  test('an index is added to a shared cache once, however many controllers declare it', () => {
    const h = harness();
    let calls = 0;
    const declare = (w: Watches): void => {
      w.index(w.informer('pods'), 'by-app', (p) => {
        calls++;
        return [p.metadata.labels?.app ?? ''];
      });
    };
    h.api.create(pod('p', { app: 'web' }));
    new Probe(h.ctx, declare).start();
    new Probe(h.ctx, declare).start();
    assert.equal(calls, 1);
    assert.deepEqual(
      h.ctx.informers
        .get('pods')
        .cache.byIndex('by-app', 'web')
        .map((p) => p.metadata.name),
      ['p'],
    );
  });
});

describe('controller base: retries, requeueAfter, errors', () => {
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } };

  test('a failed reconcile is retried after 5, 10, 20 ms and logged as SyncError; success resets the back-off', () => {
    const h = harness();
    const probe = new Probe(h.ctx, (w) => w.watch('configmaps', enqueueObject()));
    let failures = 3;
    probe.outcome = () => {
      if (failures-- > 0) throw new Error('boom');
    };
    probe.start();
    h.api.create(configMap);
    h.settle();
    assert.deepEqual(probe.seen, ['0:default/c', '5:default/c', '15:default/c', '35:default/c']);
    assert.deepEqual(
      h.logLines().filter((l) => l.includes('SyncError')),
      [
        '00:00:00.000 probe-controller Warning SyncError default/c: sync "default/c" failed: boom (retry in 5ms)',
        '00:00:00.005 probe-controller Warning SyncError default/c: sync "default/c" failed: boom (retry in 10ms)',
        '00:00:00.015 probe-controller Warning SyncError default/c: sync "default/c" failed: boom (retry in 20ms)',
      ],
    );
    failures = 1;
    probe.seen.length = 0;
    h.api.patch('configmaps', 'default', 'c', 'merge', { data: { a: 'b' } });
    h.settle();
    assert.deepEqual(
      probe.seen.map((s) => Number(s.split(':')[0]) - Number(probe.seen[0].split(':')[0])),
      [0, 5],
      'the back-off starts again from 5 ms after a success',
    );
  });

  test('describeFailure names the object and what failed in the log line', () => {
    const h = harness();
    class Named extends Probe {
      protected override describeFailure(key: string): FailureSubject {
        return { object: `object-of-${key}`, what: 'the named step' };
      }
    }
    const probe = new Named(h.ctx, (w) => w.watch('configmaps', enqueueObject()));
    let failures = 1;
    probe.outcome = () => {
      if (failures-- > 0) throw new Error('no');
    };
    probe.start();
    h.api.create(configMap);
    h.settle();
    assert.deepEqual(
      h.logLines().filter((l) => l.includes('SyncError')),
      ['00:00:00.000 probe-controller Warning SyncError object-of-default/c: the named step failed: no (retry in 5ms)'],
    );
  });

  test('{ requeueAfter } brings the key back after that long, as a foreground timer', () => {
    const h = harness();
    const probe = new Probe(h.ctx, (w) => w.watch('configmaps', enqueueObject()));
    let revisits = 2;
    probe.outcome = () => (revisits-- > 0 ? { requeueAfter: 30_000 } : undefined);
    probe.start();
    h.api.create(configMap);
    h.settle();
    assert.deepEqual(probe.seen, ['0:default/c', '30000:default/c', '60000:default/c']);
    assert.equal(h.clock.pendingForegroundTimers, 0);
  });

  test('a second queue has its own reconcile and the same retries and log line', () => {
    const h = harness();
    const second: string[] = [];
    let failures = 1;
    const probe = new Probe(h.ctx, (w, p) => {
      const q = p.secondQueue((key) => {
        second.push(`${h.clock.now() - START}:${key}`);
        if (failures-- > 0) throw new Error('second failed');
      });
      w.watch('configmaps', enqueueObject(), q);
    });
    probe.start();
    h.api.create(configMap);
    h.settle();
    assert.deepEqual(probe.seen, [], 'the main queue got nothing');
    assert.deepEqual(second, ['0:default/c', '5:default/c']);
    assert.equal(h.logLines().filter((l) => l.includes('failed: second failed (retry in 5ms)')).length, 1);
  });
});

describe('controller base: start and stop', () => {
  test('after stop no event is handled, no delayed key or timer fires, and start does not revive it', () => {
    const h = harness();
    const fired: string[] = [];
    let timers: KeyTimers | undefined;
    const probe = new Probe(h.ctx, (w, p) => {
      w.watch('configmaps', enqueueObject());
      timers = p.keyTimers((key) => fired.push(key));
    });
    probe.outcome = () => ({ requeueAfter: 1000 });
    probe.start();
    h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
    h.advance(0);
    timers!.schedule('t', 500);
    assert.deepEqual(keysOf(probe), ['default/a']);
    probe.stop();
    h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'default' } });
    h.advance(5000);
    assert.deepEqual(keysOf(probe), ['default/a'], 'neither the new object nor the requeue was handled');
    assert.deepEqual(fired, []);
    assert.equal(h.clock.pendingForegroundTimers, 0);
    probe.start();
    h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } });
    h.advance(5000);
    assert.deepEqual(keysOf(probe), ['default/a']);
  });

  test('stop removes the handlers from the shared informer; other controllers keep theirs', () => {
    const h = harness();
    const stopped = new Probe(h.ctx, (w) => w.watch('configmaps', enqueueObject()));
    const kept = new Probe(h.ctx, (w) => w.watch('configmaps', enqueueObject()));
    stopped.start();
    kept.start();
    stopped.stop();
    h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } });
    h.settle();
    assert.deepEqual(keysOf(stopped), []);
    assert.deepEqual(keysOf(kept), ['default/x']);
  });

  test('a controller stopped by one of its own handlers handles nothing more, even later in that delivery', () => {
    const h = harness();
    const calls: string[] = [];
    const probe: Probe = new Probe(h.ctx, (w) => {
      const stopping: EventHandler<KubeObject> = {
        onAdd: (obj) => {
          calls.push(`first ${obj.metadata.name}`);
          probe.stop();
        },
      };
      w.watch('configmaps', stopping);
      w.watch('configmaps', { onAdd: (obj) => calls.push(`second ${obj.metadata.name}`) });
    });
    probe.start();
    h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } });
    h.settle();
    assert.deepEqual(calls, ['first x']);
  });
});

describe('KeyTimers', () => {
  test('latest: a new time replaces the pending one; cancel withdraws it', () => {
    const clock = new VirtualClock(0);
    const fired: string[] = [];
    const t = new KeyTimers(clock, (k) => fired.push(`${clock.now()}:${k}`));
    t.schedule('a', 100);
    t.schedule('a', 300);
    t.schedule('b', 50);
    t.cancel('b');
    clock.advance(1000);
    assert.deepEqual(fired, ['300:a']);
  });

  test('earliest: a sooner pending time is kept; background timers do not count as pending work', () => {
    const clock = new VirtualClock(0);
    const fired: string[] = [];
    const t = new KeyTimers(clock, (k) => fired.push(`${clock.now()}:${k}`), { keep: 'earliest', background: true });
    t.schedule('a', 100);
    t.schedule('a', 300);
    t.schedule('b', 300);
    t.schedule('b', 200);
    assert.equal(clock.pendingForegroundTimers, 0);
    assert.equal(t.dueAt('b'), 200);
    clock.advance(1000);
    assert.deepEqual(fired, ['100:a', '200:b']);
    assert.equal(t.has('a'), false);
  });
});
