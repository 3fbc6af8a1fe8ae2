import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { BEHAVIOR_ANNOTATION, containerBehavior, parseBehavior } from '../../../sandbox/kubelet/behaviors';
import { formatGoDuration, parseDuration } from '../../../sandbox/kubelet/duration';
import { Backoff } from '../../../sandbox/kubelet/backoff';
import { normalizedImage, parseImage } from '../../../sandbox/kubelet/images';

describe('parseBehavior', () => {
  const cases: [string, ReturnType<typeof parseBehavior>][] = [
    ['crash-after=30s exit=2', { behavior: { exit: { after: 30_000, code: 2 } }, errors: [] }],
    ['exit=2 crash-after=30s', { behavior: { exit: { after: 30_000, code: 2 } }, errors: [] }],
    ['crash-after=1m30s', { behavior: { exit: { after: 90_000, code: 1 } }, errors: [] }],
    ['oom-after=20s', { behavior: { exit: { after: 20_000, code: 137, oom: true } }, errors: [] }],
    ['exit-after=500ms', { behavior: { exit: { after: 500, code: 0 } }, errors: [] }],
    ['exit=3', { behavior: { exit: { after: 'quick', code: 3 } }, errors: [] }],
    [
      '  never-ready   ignore-sigterm image-missing ',
      { behavior: { neverReady: true, ignoreSigterm: true, imageMissing: true }, errors: [] },
    ],
    [
      'ready-after=20s start-delay=10s liveness-fail-after=2m',
      { behavior: { readyAfterMs: 20_000, startDelayMs: 10_000, livenessFailAfterMs: 120_000 }, errors: [] },
    ],
    [
      'crash-after=soon never-ready=yes exit=256 explode start-delay',
      {
        behavior: {},
        errors: [
          'invalid duration "soon" for crash-after (use e.g. 30s, 2m, 1m30s, 500ms)',
          'never-ready is a flag and takes no value (got "never-ready=yes")',
          'exit must be an integer from 0 to 255 (got "256")',
          'unknown behavior "explode" (known: crash-after, oom-after, exit-after, start-delay, ready-after, liveness-fail-after, exit, image-missing, never-ready, ignore-sigterm)',
          'start-delay needs a duration, e.g. start-delay=30s',
        ],
      },
    ],
    ['', { behavior: {}, errors: [] }],
  ];
  for (const [text, expected] of cases)
    test(JSON.stringify(text), () => assert.deepEqual(parseBehavior(text), expected));
});

describe('containerBehavior', () => {
  const pod = (annotations: Record<string, string>): Pod => ({
    metadata: { name: 'p', annotations },
    spec: { containers: [] },
  });
  const app: Container = { name: 'app', image: 'nginx' };

  test('the container annotation overrides the pod-wide one key by key', () => {
    const p = pod({
      [BEHAVIOR_ANNOTATION]: 'crash-after=30s never-ready',
      [`${BEHAVIOR_ANNOTATION}.app`]: 'oom-after=5s',
    });
    assert.deepEqual(containerBehavior(p, app, false), {
      behavior: { exit: { after: 5000, code: 137, oom: true }, neverReady: true },
      errors: [],
    });
  });

  test('the pod-wide annotation does not apply to init containers; the named one does', () => {
    const p = pod({
      [BEHAVIOR_ANNOTATION]: 'crash-after=30s',
      [`${BEHAVIOR_ANNOTATION}.setup`]: 'exit-after=3s exit=4',
    });
    assert.deepEqual(containerBehavior(p, { name: 'setup', image: 'busybox' }, true), {
      behavior: { exit: { after: 3000, code: 4 } },
      errors: [],
    });
    assert.deepEqual(containerBehavior(p, { name: 'other', image: 'busybox', command: ['sleep', '1'] }, true), {
      behavior: {},
      errors: [],
    });
  });

  test('errors name the annotation they come from', () => {
    assert.deepEqual(containerBehavior(pod({ [`${BEHAVIOR_ANNOTATION}.app`]: 'crash-after=x' }), app, false).errors, [
      `${BEHAVIOR_ANNOTATION}.app: invalid duration "x" for crash-after (use e.g. 30s, 2m, 1m30s, 500ms)`,
    ]);
  });

  test('without an exit key, none is set (the process decides when it runs)', () => {
    assert.deepEqual(
      containerBehavior(
        pod({ [BEHAVIOR_ANNOTATION]: 'never-ready' }),
        { name: 'app', image: 'busybox', command: ['false'] },
        false,
      ),
      { behavior: { neverReady: true }, errors: [] },
    );
  });
});

describe('durations', () => {
  test('parse', () => {
    assert.deepEqual(['30s', '2m', '1m30s', '500ms', '1h', '1.5s', '', '10', 's', '3d', '1m 2s'].map(parseDuration), [
      30_000,
      120_000,
      90_000,
      500,
      3_600_000,
      1500,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
  test('format as Go does', () => {
    assert.deepEqual([0, 812, 1000, 1234, 10_000, 80_000, 160_000, 300_000, 3_723_000].map(formatGoDuration), [
      '0s',
      '812ms',
      '1s',
      '1.234s',
      '10s',
      '1m20s',
      '2m40s',
      '5m0s',
      '1h2m3s',
    ]);
  });
});

describe('Backoff', () => {
  test('10 s doubling to the 300 s cap, measured from the event', () => {
    const b = new Backoff();
    const windows: number[] = [];
    let t = 0;
    for (let i = 0; i < 9; i++) {
      b.next('k', t);
      windows.push(b.get('k'));
      t += b.get('k') + 5000;
    }
    assert.deepEqual(windows, [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000, 300_000]);
  });

  test('inBackOffSince is true for less than the window after the event', () => {
    const b = new Backoff();
    b.next('k', 1000);
    assert.deepEqual(
      [
        b.inBackOffSince('k', 5000, 5000),
        b.inBackOffSince('k', 5000, 14_999),
        b.inBackOffSince('k', 5000, 15_000),
        b.inBackOffSince('other', 5000, 5000),
      ],
      [true, true, false, false],
    );
  });

  test('an event more than 10 min (2×cap) after the last update resets the curve', () => {
    const b = new Backoff();
    b.next('k', 0);
    b.next('k', 1000);
    b.next('k', 2000);
    assert.equal(b.get('k'), 40_000);
    assert.equal(b.inBackOffSince('k', 2000 + 600_001, 2000 + 600_002), false);
    b.next('k', 2000 + 600_000);
    assert.equal(b.get('k'), 80_000, 'exactly 10 min is not yet expired');
    b.next('k', 2000 + 1_200_001);
    assert.equal(b.get('k'), 10_000);
  });

  test('inBackOffSinceUpdate measures from the last next()', () => {
    const b = new Backoff();
    b.next('k', 0);
    assert.deepEqual(
      [b.inBackOffSinceUpdate('k', 9999), b.inBackOffSinceUpdate('k', 10_000), b.windowEnd('k')],
      [true, false, 10_000],
    );
  });
});

describe('image references', () => {
  const cases: [string, string][] = [
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['bitnami/redis:7', 'docker.io/bitnami/redis:7'],
    ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10'],
    ['localhost:5000/app', 'localhost:5000/app:latest'],
    [
      'Nginx',
      `couldn't parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase`,
    ],
    ['nginx::1', `couldn't parse image name "nginx::1": invalid reference format`],
    ['nginx@sha256:abc', `couldn't parse image name "nginx@sha256:abc": invalid reference format`],
  ];
  for (const [image, expected] of cases) {
    test(image, () => {
      const ref = parseImage(image);
      assert.equal('error' in ref ? ref.error : normalizedImage(ref), expected);
    });
  }
});
