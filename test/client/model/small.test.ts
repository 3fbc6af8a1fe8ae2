import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { LogBuffer } from '../../../client/src/model/logBuffer';
import { liveYaml } from '../../../client/src/model/liveYaml';
import { refFromArg, refText } from '../../../client/src/model/objectRef';
import { MAX_REPLICAS, parseReplicas, validateReplicas } from '../../../client/src/model/replicas';
import { DEFAULT_SETTINGS, readSettings, sandboxSettings } from '../../../client/src/model/settings';
import type { SettingKey } from '../../../client/src/model/settings';
import { statusBarText } from '../../../client/src/model/statusBarText';
import type { SandboxStatus } from '../../../client/src/sandbox/protocol';
import { NOW } from './fixtures';

describe('replica input', () => {
  test('accepts whole numbers from 0 to the maximum, trimmed', () => {
    assert.deepEqual(['0', '3', ' 12 ', String(MAX_REPLICAS)].map(validateReplicas), [
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    assert.deepEqual(['0', '3', ' 12 '].map(parseReplicas), [0, 3, 12]);
  });

  test('rejects empty, negative, fractional, exponent and oversized input with a message', () => {
    assert.deepEqual(['', '  ', '-1', '1.5', '1e3', 'three', String(MAX_REPLICAS + 1)].map(validateReplicas), [
      'Enter the number of replicas.',
      'Enter the number of replicas.',
      '"-1" is not a whole number of replicas (0 or more).',
      '"1.5" is not a whole number of replicas (0 or more).',
      '"1e3" is not a whole number of replicas (0 or more).',
      '"three" is not a whole number of replicas (0 or more).',
      `At most ${MAX_REPLICAS} replicas in the sandbox.`,
    ]);
    assert.equal(parseReplicas('-1'), undefined);
  });
});

describe('status bar text', () => {
  const status: SandboxStatus = { running: true, paused: false, speed: 5, time: NOW, pods: 12, nodes: 3 };

  test('running, paused, stopped and not yet started', () => {
    assert.deepEqual(statusBarText(status), {
      text: '$(pulse) Sandbox 5× · 12 pods',
      tooltip: 'Kube Reconcile sandbox running at 5× (3 nodes, 12 pods, clock 00:10:00). Click for sandbox controls.',
    });
    assert.deepEqual(statusBarText({ ...status, paused: true, pods: 1 }), {
      text: '$(debug-pause) Sandbox paused · 1 pod',
      tooltip:
        'Kube Reconcile sandbox paused: its clock stands still, nothing reconciles (3 nodes, 1 pod, clock 00:10:00). Click for sandbox controls: Resume, Step.',
      background: 'statusBarItem.warningBackground',
    });
    assert.equal(statusBarText({ ...status, running: false }).text, '$(circle-slash) Sandbox stopped · 12 pods');
    assert.equal(statusBarText(undefined).text, '$(loading~spin) Sandbox starting');
    const draining = statusBarText({
      ...status,
      operations: [
        {
          title: 'Drain node-2',
          detail: 'waiting: a PodDisruptionBudget allows no disruption for default/web-1 (retrying every 5s)',
        },
      ],
    });
    assert.deepEqual(
      statusBarText(status, { text: '1 pod failing · node-2 NotReady', details: ['Failing: default/web-1'] }),
      {
        text: '$(pulse) Sandbox 5× · 12 pods · $(error) 1 pod failing · node-2 NotReady',
        tooltip:
          'Kube Reconcile sandbox running at 5× (3 nodes, 12 pods, clock 00:10:00). Click for sandbox controls.\nFailing: default/web-1',
      },
    );
    assert.equal(
      statusBarText(status, { text: '2 pods Pending', details: [] }).text,
      '$(pulse) Sandbox 5× · 12 pods · $(warning) 2 pods Pending',
    );
    const message =
      'cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare';
    assert.deepEqual(statusBarText({ ...status, refusedDrains: [{ node: 'node-2', message }] }), {
      text: '$(pulse) Sandbox 5× · 12 pods · $(warning) Drain node-2 failed',
      tooltip:
        'Kube Reconcile sandbox running at 5× (3 nodes, 12 pods, clock 00:10:00). Click for sandbox controls.\n' +
        `Drain node-2 failed: ${message}. node-2 stays cordoned: Uncordon it, or drain it again.`,
    });
    assert.equal(
      statusBarText({
        ...status,
        refusedDrains: [
          { node: 'node-2', message },
          { node: 'node-3', message },
        ],
      }).text,
      '$(pulse) Sandbox 5× · 12 pods · $(warning) 2 drains failed',
    );
    assert.deepEqual(draining, {
      text: '$(pulse) Sandbox 5× · 12 pods · $(sync~spin) Drain node-2',
      tooltip:
        'Kube Reconcile sandbox running at 5× (3 nodes, 12 pods, clock 00:10:00). Click for sandbox controls.\n' +
        'Drain node-2: waiting: a PodDisruptionBudget allows no disruption for default/web-1 (retrying every 5s)',
    });
  });
});

describe('LogBuffer', () => {
  test('appends until full, then replaces the channel with the newest half', () => {
    const b = new LogBuffer(4);
    assert.deepEqual(b.add(['a', 'b']), { kind: 'append', text: 'a\nb\n' });
    assert.equal(b.add([]), undefined);
    assert.deepEqual(b.add(['c', 'd']), { kind: 'append', text: 'c\nd\n' });
    assert.deepEqual(b.add(['e']), { kind: 'replace', text: 'd\ne\n' });
    assert.equal(b.size, 2);
    assert.deepEqual(b.add(['f']), { kind: 'append', text: 'f\n' });
  });
});

describe('settings', () => {
  test('reads every setting, with defaults for missing and out-of-range values', () => {
    const values: Partial<Record<SettingKey, unknown>> = {
      'sandbox.nodes': 5,
      'sandbox.speed': 20,
      'sandbox.seed': 42,
      applyOn: 'anySave',
      applyOnStartup: 'never',
      selfHeal: false,
      kubernetesVersion: '1.33',
    };
    assert.deepEqual(
      readSettings((k) => values[k]),
      {
        nodes: 5,
        speed: 20,
        seed: 42,
        applyOn: 'anySave',
        applyOnStartup: 'never',
        selfHeal: false,
        kubernetesVersion: '1.33',
      },
    );
    assert.deepEqual(
      readSettings(() => undefined),
      DEFAULT_SETTINGS,
    );
    const bad: Partial<Record<SettingKey, unknown>> = {
      'sandbox.nodes': 0,
      'sandbox.speed': 7,
      'sandbox.seed': 1.5,
      applyOn: 'always',
      applyOnStartup: true,
      selfHeal: 1,
      kubernetesVersion: '1.29',
    };
    assert.deepEqual(
      readSettings((k) => bad[k]),
      {
        nodes: 3,
        speed: 1,
        seed: 1,
        applyOn: 'explicitSave',
        applyOnStartup: 'ask',
        selfHeal: true,
        kubernetesVersion: '1.32',
      },
    );
    assert.equal(readSettings((k) => (k === 'kubernetesVersion' ? '1.34' : undefined)).kubernetesVersion, '1.34');
  });

  test('applyOn: the legacy applyOnSave false means never, unless applyOn is set; true is the default', () => {
    const read = (v: Partial<Record<SettingKey, unknown>>) => readSettings((k) => v[k]).applyOn;
    assert.equal(read({ applyOnSave: false }), 'never');
    assert.equal(read({ applyOnSave: true }), 'explicitSave');
    assert.equal(read({ applyOnSave: false, applyOn: 'anySave' }), 'anySave');
    assert.equal(read({}), 'explicitSave');
  });

  test('the sandbox part is what init takes', () => {
    assert.deepEqual(sandboxSettings({ ...DEFAULT_SETTINGS, nodes: 4 }), {
      nodes: 4,
      speed: 1,
      seed: 1,
      selfHeal: true,
      kubernetesVersion: '1.32',
    });
  });
});

describe('object refs', () => {
  test('come from a tree node or a plain ref; anything else is no ref', () => {
    const ref = { resource: 'pods', namespace: 'default', name: 'web-1' };
    assert.deepEqual(
      [
        refFromArg({ id: 'x', ref }),
        refFromArg(ref),
        refFromArg(undefined),
        refFromArg({ ref: { name: 1 } }),
        refFromArg('pods/web-1'),
      ],
      [ref, ref, undefined, undefined, undefined],
    );
  });

  test('are named as kubectl names objects', () => {
    assert.deepEqual(
      [
        refText({ resource: 'deployments', name: 'web' }),
        refText({ resource: 'nodes', name: 'node-1' }),
        refText({ resource: 'ingresses', name: 'i' }),
      ],
      ['deployment/web', 'node/node-1', 'ingress/i'],
    );
  });
});

describe('liveYaml', () => {
  test('is the whole object without managed fields', () => {
    const obj = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'default', managedFields: [{ manager: 'kubectl' }] },
      data: { a: '1' },
    };
    assert.deepEqual(parse(liveYaml(obj)), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'default' },
      data: { a: '1' },
    });
  });
});
