/**
 * A running container's files, logs and exec made on first use (issue 16: a settled pod nobody reads keeps ~1.5 KiB of
 * kubelet state): what is read after the pod settled answers as when everything was made at the container's start.
 * The pinned texts below were read on main before the change (the same test, run there).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { ContainerFs, FileTree } from '../../../../sandbox/kubelet/container/fileSystem';
import type { FsMaker, Mount } from '../../../../sandbox/kubelet/container/fileSystem';
import { rootTree } from '../../../../sandbox/kubelet/container/rootfs';
import { fixedLines } from '../../../../sandbox/kubelet/logs/lineSource';
import { sharedList } from '../../../../sandbox/kubelet/sharedList';
import { newPod, setupKubelet } from '../setup';

const pod: Pod = { metadata: { name: 'a', namespace: 'default', uid: 'u1' }, spec: { containers: [] } };

/** A maker that counts how often it is asked, over a root tree, a read-only volume and a shared one. */
function counted(shared: FileTree): { maker: FsMaker; made: () => number } {
  let made = 0;
  const maker: FsMaker = {
    live: [shared],
    make() {
      made++;
      const config = new FileTree('config', true);
      config.lazyFiles(1, () => ({ '/key': 'value\n' }));
      const mounts: Mount[] = [
        { path: '/etc/config', tree: config, source: '/', readOnly: true },
        { path: '/data', tree: shared, source: '/', readOnly: false },
      ];
      return { root: rootTree(pod, 'nginx:1.27', '10.244.0.5'), mounts };
    },
  };
  return { maker, made: () => made };
}

describe('a container view made on its first use', () => {
  test('nothing is made until a read; then it answers as a view made at once from the same parts', () => {
    const shared = new FileTree('data');
    const { maker, made } = counted(shared);
    const lazy = new ContainerFs(maker);
    const eager = new ContainerFs(counted(new FileTree('data')).maker.make().root, maker.make().mounts);
    const before = made();
    // When what it reads next changes: only the shared volume can change before it is made (another writer).
    assert.equal(lazy.nextChangeAfter(0), undefined);
    const other = shared.writer();
    other.add({ at: 50, op: 'write', path: '/note', text: 'hi\n' });
    assert.equal(lazy.nextChangeAfter(0), 50);
    lazy.cutWriters(10);
    assert.equal(lazy.made, false);
    assert.equal(made(), before);
    // The first read makes it, once.
    assert.equal(lazy.read('/etc/hostname', 0), 'a\n');
    assert.equal(lazy.made, true);
    assert.equal(lazy.read('/data/note', 60), 'hi\n');
    assert.equal(made(), before + 1);
    for (const path of ['/', '/etc', '/etc/config', '/usr/share/nginx/html', '/data']) {
      assert.deepEqual(lazy.list(path, 0), eager.list(path, 0), path);
      assert.equal(lazy.stat(path, 0), eager.stat(path, 0), path);
    }
    for (const path of ['/etc/hosts', '/etc/resolv.conf', '/etc/config/key', '/usr/share/nginx/html/index.html'])
      assert.equal(lazy.read(path, 0), eager.read(path, 0), path);
    assert.equal(lazy.write('/etc/config/key', 'x', 1, false), 'EROFS');
    assert.equal(lazy.write('/tmp/x', 'x', 1, false), undefined);
    assert.equal(lazy.read('/tmp/x', 1), 'x');
    assert.equal(made(), before + 1);
  });

  test('a view made by a write sequences the write after the files present from the start', () => {
    const { maker } = counted(new FileTree('data'));
    const fs = new ContainerFs(maker);
    assert.equal(fs.write('/etc/hostname', 'renamed\n', 5, false), undefined);
    assert.equal(fs.read('/etc/hostname', 4), 'a\n');
    assert.equal(fs.read('/etc/hostname', 5), 'renamed\n');
  });
});

describe('shared lists', () => {
  test('equal lists are one frozen list; different ones are not', () => {
    const a = sharedList(['/var/run/secrets/kubernetes.io/serviceaccount'], 'test-key');
    const b = sharedList(['/var/run/secrets/kubernetes.io/serviceaccount'], 'test-key');
    const c = sharedList(['/other'], 'test-key');
    assert.equal(a, b);
    assert.notEqual(a, c);
    assert.deepEqual(c, ['/other']);
    assert.ok(Object.isFrozen(a));
    assert.throws(() => (a as string[]).push('/x'));
  });

  test('lines printed at one time read as the same lines, in order, with at most `max`', () => {
    const lines = [
      { at: 10, text: 'one' },
      { at: 10, text: 'two' },
      { at: 10, text: 'three' },
    ];
    const source = fixedLines(lines);
    assert.deepEqual(source.between(0, 10, 100), lines);
    assert.deepEqual(source.between(0, 10, 2), lines.slice(1));
    assert.deepEqual(source.between(10, 20, 100), []);
    assert.deepEqual(source.between(0, 9, 100), []);
    assert.equal(source.nextAfter(0), 10);
    assert.equal(source.nextAfter(10), undefined);
  });
});

describe("a settled pod's files, logs and exec read later answer as before", () => {
  function settled() {
    const f = setupKubelet();
    f.h.api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'site', namespace: 'default' },
      data: { 'index.html': 'first\n' },
    });
    f.create(
      newPod('web', {
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            volumeMounts: [
              { name: 'site', mountPath: '/srv/site/' },
              { name: 'scratch', mountPath: '/scratch' },
            ],
          },
          {
            name: 'writer',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'echo hello > /scratch/greeting; sleep 3600'],
            volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
          },
        ],
        volumes: [
          { name: 'site', configMap: { name: 'site' } },
          { name: 'scratch', emptyDir: {} },
        ],
      }),
    );
    f.h.advance(60_000);
    return f;
  }

  test('the files as the container started: ConfigMap content read then, the pod files, what a neighbour wrote', () => {
    const f = settled();
    assert.equal(f.pod('web')!.status!.phase, 'Running');
    // Changed after the start: the container's files keep what was read when it started.
    const cm = f.h.api.get('configmaps', 'default', 'site');
    f.h.api.update({ ...cm, data: { 'index.html': 'second\n' } });
    f.h.advance(1000);
    const exec = (argv: string[]) => f.kubelet.exec(f.pod('web')!, 'app', argv);
    assert.equal(exec(['cat', '/srv/site/index.html']).stdout, 'first\n');
    assert.equal(exec(['cat', '/scratch/greeting']).stdout, 'hello\n');
    assert.equal(exec(['cat', '/etc/hostname']).stdout, 'web\n');
    const ip = f.pod('web')!.status!.podIP!;
    assert.equal(
      exec(['cat', '/etc/hosts']).stdout,
      [
        '# Kubernetes-managed hosts file.',
        '127.0.0.1\tlocalhost',
        '::1\tlocalhost ip6-localhost ip6-loopback',
        'fe00::0\tip6-localnet',
        'fe00::0\tip6-mcastprefix',
        'fe00::1\tip6-allnodes',
        'fe00::2\tip6-allrouters',
        `${ip}\tweb`,
        '',
      ].join('\n'),
    );
    assert.equal(exec(['ls', '/srv/site']).stdout, 'index.html\n');
    assert.equal(exec(['ls', '/']).stdout, PINNED.root);
    // What exec writes stays; the neighbour sees it on the shared volume.
    assert.equal(exec(['sh', '-c', 'echo again >> /scratch/greeting']).exitCode, 0);
    assert.equal(f.kubelet.exec(f.pod('web')!, 'writer', ['cat', '/scratch/greeting']).stdout, 'hello\nagain\n');
  });

  test("nginx's start-up lines and the shell's output read after settling", () => {
    const f = settled();
    const logs = (container: string) =>
      f.kubelet.containerLogs(f.pod('web')!, container, { timestamps: true }).replace(/^\S+ /gm, 'T ');
    assert.equal(logs('app'), PINNED.nginx);
    assert.equal(logs('writer'), '');
    assert.equal(
      f.kubelet.containerLogs(f.pod('web')!, 'app', { tailLines: 1 }),
      '2026/01/01 00:00:01 [notice] 1#1: start worker processes\n',
    );
  });
});

const PINNED = {
  root: 'bin\ndev\netc\nhome\nlib\nmnt\nopt\nproc\nroot\nrun\nsbin\nscratch\nsrv\nsys\ntmp\nusr\nvar\n',
  nginx: [
    'T /docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
    'T /docker-entrypoint.sh: Configuration complete; ready for start up',
    'T 2026/01/01 00:00:01 [notice] 1#1: nginx/1.27.0',
    'T 2026/01/01 00:00:01 [notice] 1#1: start worker processes',
    '',
  ].join('\n'),
};
