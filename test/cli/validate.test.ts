import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import packageJson from '../../package.json';
import { cliFixture, lines } from './cliFixture';
import type { CliFixture, Run } from './cliFixture';

const FILES: Record<string, string> = {
  'good.yaml': lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: settings', 'data:', '  mode: fast'),
  'manifests/web.yaml': lines(
    'apiVersion: apps/v1',
    'kind: Deploymnt',
    'metadata:',
    '  name: web',
    '---',
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: web',
    'spec:',
    '  containers:',
    '    - name: web',
    '      image: nginx',
    '      ports: [{containerPort: 70000}]',
  ),
  'manifests/b-old.yml': lines('apiVersion: extensions/v1beta1', 'kind: Ingress', 'metadata:', '  name: site'),
  'manifests/nested/cert.yaml': lines(
    'apiVersion: cert-manager.io/v1',
    'kind: Certificate',
    'metadata:',
    '  name: tls',
  ),
  'manifests/notes.txt': 'kind: not yaml we look at\n',
  'manifests/.hidden/skip.yaml': lines('apiVersion: apps/v1', 'kind: Nope'),
  'versions/pod.yaml': lines(
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: p',
    'spec:',
    '  hostnameOverride: web-0',
    '  containers:',
    '    - name: c',
    '      image: nginx',
  ),
  'crds/route.yaml': lines(
    'apiVersion: gateway.networking.k8s.io/v1',
    'kind: HTTPRoute',
    'metadata:',
    '  name: r',
    '---',
    'apiVersion: snapshot.storage.k8s.io/v1',
    'kind: VolumeSnapshot',
    'metadata:',
    '  name: s',
  ),
  'crds/kustomization.yaml': lines(
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources: [route.yaml]',
  ),
  'crds/typo.yaml': lines('apiVersion: networking.k8s.io/v1', 'kind: HTTPRoute', 'metadata:', '  name: t'),
  'cr/crd.yaml': lines(
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata:',
    '  name: widgets.example.com',
    'spec:',
    '  group: example.com',
    '  scope: Namespaced',
    '  names: {plural: widgets, kind: Widget}',
    '  versions:',
    '  - name: v1',
    '    served: true',
    '    storage: true',
    '    schema:',
    '      openAPIV3Schema:',
    '        type: object',
    '        properties:',
    '          spec:',
    '            type: object',
    '            properties:',
    '              replicas: {type: integer}',
    '              color: {type: string}',
  ),
  'cr/w.yaml': lines(
    'apiVersion: example.com/v1',
    'kind: Widget',
    'metadata:',
    '  name: w',
    'spec:',
    '  replicas: many',
    '  colr: red',
    '---',
    'apiVersion: other.io/v1',
    'kind: Gadget',
    'metadata:',
    '  name: g',
  ),
};

describe('kube-reconcile validate', () => {
  let fixture: CliFixture;
  const run = (...argv: string[]): Promise<Run> => fixture.run(...argv);

  before(async () => {
    fixture = await cliFixture('kube-reconcile-cli-', FILES);
  });
  after(async () => {
    await fixture.dispose();
  });

  test('text: one line per problem, folders recursed in sorted order, summary on stderr, exit 1', async () => {
    assert.deepEqual(await run('validate', 'good.yaml', 'manifests'), {
      code: 1,
      stdout: lines(
        'manifests/b-old.yml:1:13 error removed-api-version extensions/v1beta1 Ingress was removed in Kubernetes 1.22; use networking.k8s.io/v1',
        'manifests/nested/cert.yaml:2:7 warning unknown-kind No CustomResourceDefinition for "cert-manager.io/v1 Certificate" in the workspace: it is not checked',
        'manifests/web.yaml:2:7 error unknown-kind Unknown kind "Deploymnt" for apiVersion "apps/v1"',
        'manifests/web.yaml:14:31 error container-port-number spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ),
      stderr: '4 files, 5 resources: 3 errors, 1 warning\n',
    });
  });

  test('--kubernetes-version: a field 1.34 added is refused under 1.32 (the default) and accepted under 1.34', async () => {
    assert.deepEqual(await run('validate', 'versions'), {
      code: 1,
      stdout: lines(
        'versions/pod.yaml:6:3 error unknown-field "hostnameOverride" is not in Kubernetes 1.32 (added in 1.34): unknown field in PodSpec',
      ),
      stderr: '1 file, 1 resource: 1 error, 0 warnings\n',
    });
    assert.deepEqual(await run('validate', '--kubernetes-version', '1.34', 'versions'), {
      code: 0,
      stdout: '',
      stderr: '1 file, 1 resource: 0 errors, 0 warnings\n',
    });
    const bad = await run('validate', '--kubernetes-version', '1.29', 'versions');
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /--kubernetes-version: unsupported Kubernetes version "1\.29": use one of 1\.30, 1\.31, 1\.32/,
    );
  });

  test('custom resources of *.k8s.io groups that are not built in are warnings (exit 0); kustomization.yaml is skipped', async () => {
    const r = await run('validate', 'crds/route.yaml', 'crds/kustomization.yaml');
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      lines(
        'crds/route.yaml:2:7 warning unknown-kind No CustomResourceDefinition for "gateway.networking.k8s.io/v1 HTTPRoute" in the workspace: it is not checked',
        'crds/route.yaml:7:7 warning unknown-kind No CustomResourceDefinition for "snapshot.storage.k8s.io/v1 VolumeSnapshot" in the workspace: it is not checked',
      ),
    );
  });

  test('a custom resource whose CRD is among the files: no unknown-kind warning, its errors at the exact key', async () => {
    const r = await run('validate', 'cr');
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      lines(
        'cr/w.yaml:6:13 error custom-resource-validation Widget.example.com "w" is invalid: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
        'cr/w.yaml:7:3 error unknown-field Unknown field "colr" in Widget.spec; did you mean "color"? (strict field validation refuses it: unknown field "spec.colr")',
        'cr/w.yaml:10:7 warning unknown-kind No CustomResourceDefinition for "other.io/v1 Gadget" in the workspace: it is not checked',
      ),
    );
    // Without its CRD the same file is only warnings.
    const alone = await run('validate', 'cr/w.yaml');
    assert.equal(alone.code, 0);
    assert.match(
      alone.stdout,
      /^cr\/w\.yaml:2:7 warning unknown-kind No CustomResourceDefinition for "example\.com\/v1 Widget"/,
    );
  });

  test('an unknown kind in a built-in group is an error', async () => {
    const r = await run('validate', 'crds/typo.yaml');
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      lines('crds/typo.yaml:2:7 error unknown-kind Unknown kind "HTTPRoute" for apiVersion "networking.k8s.io/v1"'),
    );
  });

  test('json: an array of problems with 1-based, end-exclusive positions', async () => {
    const result = await run('validate', '--format', 'json', 'manifests/web.yaml');
    assert.deepEqual(
      { ...result, stdout: JSON.parse(result.stdout) as unknown },
      {
        code: 1,
        stdout: [
          {
            file: 'manifests/web.yaml',
            line: 2,
            column: 7,
            endLine: 2,
            endColumn: 16,
            severity: 'error',
            code: 'unknown-kind',
            message: 'Unknown kind "Deploymnt" for apiVersion "apps/v1"',
          },
          {
            file: 'manifests/web.yaml',
            line: 14,
            column: 31,
            endLine: 14,
            endColumn: 36,
            severity: 'error',
            code: 'container-port-number',
            message:
              'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
          },
        ],
        stderr: '',
      },
    );
  });

  test('clean files exit 0', async () => {
    assert.deepEqual(await run('validate', 'good.yaml'), {
      code: 0,
      stdout: '',
      stderr: '1 file, 1 resource: 0 errors, 0 warnings\n',
    });
    assert.deepEqual(await run('validate', '--format=json', 'good.yaml'), { code: 0, stdout: '[]\n', stderr: '' });
  });

  test('warnings only exit 0', async () => {
    assert.deepEqual(await run('validate', 'manifests/nested'), {
      code: 0,
      stdout:
        'manifests/nested/cert.yaml:2:7 warning unknown-kind No CustomResourceDefinition for "cert-manager.io/v1 Certificate" in the workspace: it is not checked\n',
      stderr: '1 file, 1 resource: 0 errors, 1 warning\n',
    });
  });

  test('an unreadable file is reported in place and the others are still validated', async () => {
    assert.deepEqual(await run('validate', 'missing.yaml', 'good.yaml'), {
      code: 1,
      stdout: 'missing.yaml:1:1 error file-unreadable cannot read file: ENOENT: no such file or directory\n',
      stderr: '2 files, 1 resource: 1 error, 0 warnings\n',
    });
  });

  test('usage errors exit 2', async () => {
    const hint = 'Run "kube-reconcile validate --help" for usage.\n';
    assert.deepEqual(await run('validate'), {
      code: 2,
      stdout: '',
      stderr: `kube-reconcile validate: no files or folders given\n${hint}`,
    });
    assert.deepEqual(await run('validate', '--strict', 'good.yaml'), {
      code: 2,
      stdout: '',
      stderr: `kube-reconcile validate: unknown option --strict\n${hint}`,
    });
    assert.deepEqual(await run('validate', '--format', 'yaml', 'good.yaml'), {
      code: 2,
      stdout: '',
      stderr: `kube-reconcile validate: option --format must be one of text, json (got "yaml")\n${hint}`,
    });
    const unknown = await run('frobnicate', 'good.yaml');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^kube-reconcile: unknown command "frobnicate"\n/);
    assert.equal((await run()).code, 2);
  });

  test('--version prints the package version; --help lists every command', async () => {
    assert.deepEqual(await run('--version'), { code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
    const help = await run('--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^ {2}validate <files or folders\.\.\.>/m);
    assert.match(help.stdout, /^ {2}simulate <files or folders\.\.\.>/m);
    assert.match(help.stdout, /^ {2}serve \[files or folders\.\.\.\]/m);
    assert.doesNotMatch(help.stdout, /Not available yet/);
    assert.match((await run('validate', '--help')).stdout, /^Usage: kube-reconcile validate/);
  });
});

describe('kube-reconcile validate across files', () => {
  const service = lines(
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    '  name: web',
    'spec:',
    '  selector:',
    '    app: web',
    '  ports: [{port: 80}]',
  );
  let fixture: CliFixture;
  before(async () => {
    fixture = await cliFixture('kube-reconcile-cross-', { 'a.yaml': service, 'b.yaml': service });
  });
  after(async () => {
    await fixture.dispose();
  });

  test('duplicates (warnings: the API server accepts both) and selectors that match nothing are found across the files given', async () => {
    const { code, stdout } = await fixture.run('validate', '.');
    assert.equal(code, 0);
    const found = stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ').slice(0, 3).join(' '));
    assert.deepEqual(found, [
      'a.yaml:4:9 warning duplicate-object',
      'a.yaml:6:3 warning service-selector-matches-nothing',
      'b.yaml:4:9 warning duplicate-object',
      'b.yaml:6:3 warning service-selector-matches-nothing',
    ]);
  });
});
