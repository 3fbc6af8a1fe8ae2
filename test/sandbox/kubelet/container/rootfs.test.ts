import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { ContainerFs, FileLayer, FileTree } from '../../../../sandbox/kubelet/container/fileSystem';
import { rootTree } from '../../../../sandbox/kubelet/container/rootfs';

const pod = (name: string, namespace = 'default'): Pod => ({
  metadata: { name, namespace },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
});

describe('container root trees share their image layer', () => {
  test('every nginx root holds the image files, the devices and its own pod files', () => {
    const a = rootTree(pod('a'), 'nginx:1.27', '10.244.0.5');
    const b = rootTree(pod('b', 'shop'), 'nginx:1.27', '10.244.0.6');
    for (const t of [a, b]) {
      assert.equal(t.entry('/usr/share/nginx/html/index.html', 0)?.kind, 'file');
      assert.deepEqual(t.entry('/dev/null', 0), { kind: 'file', text: '' });
      assert.deepEqual(t.entry('/var/log', 0), { kind: 'dir' });
    }
    assert.deepEqual(a.entry('/etc/hostname', 0), { kind: 'file', text: 'a\n' });
    assert.deepEqual(b.entry('/etc/hostname', 0), { kind: 'file', text: 'b\n' });
    assert.match((b.entry('/etc/resolv.conf', 0) as { text: string }).text, /^search shop\.svc\.cluster\.local /);
    assert.match((a.entry('/etc/hosts', 0) as { text: string }).text, /10\.244\.0\.5\ta\n$/);
    assert.deepEqual(a.children('/etc', 0), ['hostname', 'hosts', 'nginx', 'resolv.conf']);
    assert.deepEqual(a.children('/', 0).slice(0, 4), ['bin', 'dev', 'etc', 'home']);
  });

  test("one tree's writes, removals and mount points do not show in another made from the same layer", () => {
    const a = rootTree(pod('a'), 'nginx:1.27', '10.244.0.5');
    const b = rootTree(pod('b'), 'nginx:1.27', '10.244.0.6');
    const w = a.writer();
    w.add({ at: 5, op: 'write', path: '/usr/share/nginx/html/index.html', text: 'mine\n' });
    w.add({ at: 6, op: 'remove', path: '/etc/nginx', recursive: true });
    new ContainerFs(a, [{ path: '/data/cache', tree: new FileTree('cache'), source: '/', readOnly: false }]);
    assert.deepEqual(a.entry('/usr/share/nginx/html/index.html', 5), { kind: 'file', text: 'mine\n' });
    assert.equal(a.entry('/etc/nginx/nginx.conf', 6), undefined);
    assert.deepEqual(a.entry('/data/cache', 0), { kind: 'dir' });
    // Before the write the layer's file is there; the other tree never sees any of it.
    assert.match((a.entry('/usr/share/nginx/html/index.html', 4) as { text: string }).text, /Welcome to nginx!/);
    assert.match((b.entry('/usr/share/nginx/html/index.html', 9) as { text: string }).text, /Welcome to nginx!/);
    assert.equal(b.entry('/etc/nginx/nginx.conf', 9)?.kind, 'file');
    assert.equal(b.entry('/data/cache', 0), undefined);
    assert.ok(!b.children('/', 0).includes('data'));
  });

  test('a layer holds the parents of its directories; other images get no nginx files', () => {
    const layer = new FileLayer(['/usr/local/bin'], { '/etc/motd': 'hi\n' });
    const t = new FileTree('rootfs', false, layer);
    assert.deepEqual(t.children('/', 0), ['etc', 'usr']);
    assert.deepEqual(t.children('/usr', 0), ['local']);
    assert.deepEqual(t.entry('/etc/motd', 0), { kind: 'file', text: 'hi\n' });
    const busybox = rootTree(pod('c'), 'busybox:1.36', '10.244.0.7');
    assert.equal(busybox.entry('/usr/share/nginx/html/index.html', 0), undefined);
    assert.deepEqual(busybox.entry('/tmp', 0), { kind: 'dir' });
  });
});

describe('files present from the start, made on the first read (issue 16)', () => {
  test('nothing is made until the tree is read; then they answer as if written when announced', () => {
    let made = 0;
    const t = new FileTree('rootfs');
    t.lazyFiles(2, () => {
      made++;
      return { '/etc/a': 'lazy a\n', '/etc/b': 'lazy b\n' };
    });
    // A later writer at the same instant (-Infinity) is sequenced after them, even though they are made afterwards.
    const w = t.writer();
    w.add({ at: -Infinity, op: 'write', path: '/etc/b', text: 'later b\n' });
    w.add({ at: 10, op: 'append', path: '/etc/a', text: 'more\n' });
    assert.equal(t.nextChangeAfter(0), 10);
    assert.equal(made, 0, 'asking when the tree next changes makes nothing');
    assert.deepEqual(t.entry('/etc/b', 0), { kind: 'file', text: 'later b\n' });
    assert.deepEqual(t.entry('/etc/a', 5), { kind: 'file', text: 'lazy a\n' });
    assert.deepEqual(t.entry('/etc/a', 10), { kind: 'file', text: 'lazy a\nmore\n' });
    assert.deepEqual(t.children('/etc', 0), ['a', 'b']);
    assert.equal(made, 1, 'made once');
    assert.equal(t.nextChangeAfter(0), 10);
  });

  test('a maker that makes another number of files than announced is an error, not a silent reorder', () => {
    const t = new FileTree('rootfs');
    t.lazyFiles(2, () => ({ '/x': '' }));
    assert.throws(() => t.entry('/x', 0), /1 files made, 2 announced/);
  });

  test("a root tree's pod files are the same whether read first or after a write", () => {
    const a = rootTree(pod('a'), 'nginx:1.27', '10.244.0.5');
    a.writer().add({ at: 3, op: 'append', path: '/etc/hosts', text: '10.0.0.9\textra\n' });
    const hosts = (a.entry('/etc/hosts', 3) as { text: string }).text;
    assert.match(hosts, /10\.244\.0\.5\ta\n10\.0\.0\.9\textra\n$/);
    assert.deepEqual(a.entry('/etc/hostname', 0), { kind: 'file', text: 'a\n' });
  });
});
