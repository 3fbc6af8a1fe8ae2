/**
 * The layer checker (`npm run check:layers`, run by `npm test`) fails on a planted layer violation or import
 * cycle, naming the file, the import and the rule; and it reads imports the way TypeScript does.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkGraph, moduleOf } from '../../scripts/layers/check';
import type { Violation } from '../../scripts/layers/check';
import { buildImportGraph, importsOf } from '../../scripts/layers/graph';
import type { ImportEdge, ImportGraph } from '../../scripts/layers/graph';
import { MODULES, ROOTS } from '../../scripts/layers/rules';

const ROOT = join(__dirname, '..', '..');

/** A graph of `files`, each with the imports listed for it (already resolved), one per line from line 1. */
function graphOf(files: Record<string, (string | { to: string; typeOnly?: boolean })[]>): ImportGraph {
  const imports: ImportEdge[] = [];
  for (const [from, targets] of Object.entries(files)) {
    targets.forEach((t, i) => {
      const { to, typeOnly = false } = typeof t === 'string' ? { to: t } : t;
      imports.push({ from, line: i + 1, specifier: `<${to}>`, to, typeOnly });
    });
  }
  return { files: Object.keys(files).sort(), imports, libReferences: [] };
}

const violations = (graph: ImportGraph): Violation[] => checkGraph(graph, MODULES).violations;

describe('layer rules on a graph', () => {
  test('imports down the layers pass: controllers → client-side → core, cluster → components, edges → cluster', () => {
    const graph = graphOf({
      'sandbox/api/types.ts': [],
      'sandbox/apiserver/apiServer.ts': ['sandbox/api/types.ts'],
      'sandbox/client/informer.ts': ['sandbox/apiserver/apiServer.ts'],
      'sandbox/controllers/job/job.ts': ['sandbox/client/informer.ts', 'npm:kubernetes-types'],
      'sandbox/cluster/cluster.ts': ['sandbox/controllers/job/job.ts'],
      'sandbox/http/server.ts': ['sandbox/cluster/cluster.ts', 'node:https'],
      'client/src/worker/session.ts': ['sandbox/cluster/cluster.ts', 'client/src/sandbox/protocol.ts'],
      'client/src/sandbox/protocol.ts': [{ to: 'sandbox/scheduler/explanation.ts', typeOnly: true }],
      'sandbox/scheduler/explanation.ts': [],
      'server/src/services/validate.ts': ['sandbox/api/types.ts', 'npm:vscode-languageserver-types'],
      'client/src/extension.ts': ['npm:vscode', 'client/src/sandbox/protocol.ts'],
    });
    assert.deepEqual(violations(graph), []);
  });

  test('core importing the cluster fails, naming the file, the import and the rule', () => {
    const graph = graphOf({
      'sandbox/api/types.ts': ['sandbox/util/json.ts', 'sandbox/cluster/cluster.ts'],
      'sandbox/util/json.ts': [],
      'sandbox/cluster/cluster.ts': [],
    });
    const [v, ...rest] = violations(graph);
    assert.deepEqual(rest, []);
    assert.equal(v.rule, 'layer');
    assert.equal(v.file, 'sandbox/api/types.ts');
    assert.match(
      v.message,
      /^sandbox\/api\/types\.ts:2: import '<sandbox\/cluster\/cluster\.ts>' \(sandbox\/cluster\/cluster\.ts\)/,
    );
    assert.match(v.message, /rule \[layer\]: core \(core: sandbox\/api\/, .*\) may import nothing outside itself/);
    assert.match(v.message, /— not cluster \(cluster: sandbox\/cluster\/\)/);
  });

  test('a component importing another component or the cluster fails: they meet only at the API server', () => {
    const graph = graphOf({
      'sandbox/gitops/forCluster.ts': [{ to: 'sandbox/cluster/cluster.ts', typeOnly: true }],
      'sandbox/scheduler/scheduler.ts': ['sandbox/kubelet/kubelet.ts'],
      'sandbox/cluster/cluster.ts': [],
      'sandbox/kubelet/kubelet.ts': [],
    });
    const found = violations(graph).map((v) => v.message.split('\n')[0]);
    assert.deepEqual(found, [
      "sandbox/gitops/forCluster.ts:1: import type '<sandbox/cluster/cluster.ts>' (sandbox/cluster/cluster.ts)",
      "sandbox/scheduler/scheduler.ts:1: import '<sandbox/kubelet/kubelet.ts>' (sandbox/kubelet/kubelet.ts)",
    ]);
  });

  test('the extension reaching into the language server fails; the language server reaching into client/ too', () => {
    const graph = graphOf({
      'client/src/apply/manifestsForApply.ts': ['server/src/services/parseManifests.ts'],
      'server/src/services/parseManifests.ts': ['client/src/model/tree.ts'],
      'client/src/model/tree.ts': [],
    });
    const vs = violations(graph);
    assert.equal(vs.length, 2);
    assert.match(vs[0].message, /host \(edges: client\/src\/\) may import .* — not language-server/);
    assert.match(vs[0].message, /talks to the language server over LSP only/);
    assert.match(vs[1].message, /language-server \(language server: server\/src\/\) may import core — not host-pure/);
  });

  test('sandbox/ importing server/ or client/ fails', () => {
    const graph = graphOf({
      'sandbox/cluster/cluster.ts': ['server/src/services/validateDocument.ts', 'client/src/sandbox/protocol.ts'],
      'server/src/services/validateDocument.ts': [],
      'client/src/sandbox/protocol.ts': [],
    });
    assert.deepEqual(
      violations(graph).map((v) => `${v.rule} ${v.message.split('\n')[1].replace(/ may import .* — /, ' … ')}`),
      [
        'layer   rule [layer]: cluster (cluster: sandbox/cluster/) … not language-server (language server: server/src/).',
        'layer   rule [layer]: cluster (cluster: sandbox/cluster/) … not host-pure (edges: client/src/sandbox/, ' +
          'client/src/model/, client/src/health/, client/src/foresight/diagnostics.ts, client/src/foresight/lenses.ts).',
      ],
    );
  });

  test('the host may name component types, never load component code', () => {
    const graph = graphOf({
      'client/src/views/tree.ts': [
        { to: 'sandbox/scheduler/explanation.ts', typeOnly: true },
        'sandbox/scheduler/explanation.ts',
      ],
      'sandbox/scheduler/explanation.ts': [],
    });
    const vs = violations(graph);
    assert.equal(vs.length, 1);
    assert.match(vs[0].message, /^client\/src\/views\/tree\.ts:2: import /);
    assert.match(vs[0].message, /use `import type` if types are all it needs/);
  });

  test('the host never loads the control plane, even through modules it may import; types and small helpers pass', () => {
    const graph = graphOf({
      'client/src/live/liveCommands.ts': ['live/planText.ts', 'live/apply.ts'],
      // live/ may load sandbox/plan (the diff), and core; the host may load live/: only the chain says it is too much
      'live/planText.ts': [
        'live/snapshot.ts',
        'sandbox/plan/format.ts',
        { to: 'sandbox/plan/plan.ts', typeOnly: true },
      ],
      'live/apply.ts': ['sandbox/plan/diff.ts'],
      'live/snapshot.ts': ['sandbox/apiserver/snapshotFormat.ts'],
      'sandbox/plan/format.ts': ['sandbox/plan/plan.ts'],
      'sandbox/plan/plan.ts': ['sandbox/cluster/cluster.ts'],
      'sandbox/plan/diff.ts': [],
      'sandbox/cluster/cluster.ts': [],
      'sandbox/apiserver/snapshotFormat.ts': [],
      'client/src/worker/livePlan.ts': ['sandbox/plan/plan.ts'],
    });
    const vs = violations(graph);
    assert.equal(vs.length, 1, vs.map((v) => v.message).join('\n'));
    assert.equal(vs[0].rule, 'never-loads');
    assert.equal(vs[0].file, 'client/src/live/liveCommands.ts');
    assert.match(
      vs[0].message,
      /^client\/src\/live\/liveCommands\.ts loads sandbox\/plan\/plan\.ts: client\/src\/live\/liveCommands\.ts → live\/planText\.ts → sandbox\/plan\/format\.ts → sandbox\/plan\/plan\.ts\n/,
    );
    assert.match(vs[0].message, /\n {4}live\/planText\.ts:2 imports '<sandbox\/plan\/format\.ts>'\n/);
    assert.match(vs[0].message, /rule \[never-loads\]: host .* the control plane runs in the sandbox worker/);
    // the format moved behind the worker: clean (the worker itself loads the engine, as it should)
    const fixed = graphOf({
      'client/src/live/liveCommands.ts': ['live/planText.ts'],
      'live/planText.ts': [{ to: 'sandbox/plan/plan.ts', typeOnly: true }],
      'sandbox/plan/plan.ts': [],
      'client/src/worker/livePlan.ts': ['sandbox/plan/plan.ts'],
    });
    assert.deepEqual(violations(fixed), []);
  });

  test('vscode outside the extension host fails, and so does a DOM library named in a file, even the webview', () => {
    const graph: ImportGraph = {
      ...graphOf({
        'client/src/worker/session.ts': ['npm:vscode'],
        'client/src/extension.ts': ['npm:vscode'],
        'sandbox/api/types.ts': [],
        'client/webview/main.ts': [],
      }),
      libReferences: [
        { file: 'sandbox/api/types.ts', line: 1, lib: 'dom' },
        { file: 'client/webview/main.ts', line: 1, lib: 'dom' },
      ],
    };
    const vs = violations(graph);
    assert.deepEqual(
      vs.map((v) => [v.rule, v.file]),
      [
        ['forbidden-import', 'client/src/worker/session.ts'],
        ['dom-lib', 'sandbox/api/types.ts'],
        ['dom-lib', 'client/webview/main.ts'],
      ],
    );
    assert.match(
      vs[0].message,
      /worker \(edges: client\/src\/worker\/\) never imports vscode: only the extension host/,
    );
    assert.match(vs[1].message, /^sandbox\/api\/types\.ts:1: \/\/\/ <reference lib="dom" \/>\n {2}rule \[dom-lib\]/);
  });

  test('a file in a folder no layer names fails until it is placed', () => {
    const vs = violations(graphOf({ 'sandbox/preview/engine.ts': [] }));
    assert.equal(vs.length, 1);
    assert.equal(vs[0].rule, 'unassigned-file');
    assert.match(vs[0].message, /^sandbox\/preview\/engine\.ts belongs to no layer/);
  });

  test('an import cycle fails, showing every step; a file importing itself too', () => {
    const graph = graphOf({
      'sandbox/apiserver/apiServer.ts': ['sandbox/apiserver/serverSideApply/index.ts'],
      'sandbox/apiserver/serverSideApply/index.ts': ['sandbox/apiserver/serverSideApply/fieldManager.ts'],
      'sandbox/apiserver/serverSideApply/fieldManager.ts': [
        'sandbox/api/types.ts',
        { to: 'sandbox/apiserver/apiServer.ts', typeOnly: true },
      ],
      'sandbox/api/types.ts': [],
      'sandbox/util/json.ts': ['sandbox/util/json.ts'],
    });
    const vs = violations(graph);
    assert.deepEqual(
      vs.map((v) => v.rule),
      ['cycle', 'cycle'],
    );
    assert.equal(
      vs[0].message,
      [
        'import cycle: sandbox/apiserver/apiServer.ts → sandbox/apiserver/serverSideApply/index.ts → ' +
          'sandbox/apiserver/serverSideApply/fieldManager.ts → sandbox/apiserver/apiServer.ts',
        "    sandbox/apiserver/apiServer.ts:1 imports '<sandbox/apiserver/serverSideApply/index.ts>'",
        "    sandbox/apiserver/serverSideApply/index.ts:1 imports '<sandbox/apiserver/serverSideApply/fieldManager.ts>'",
        "    sandbox/apiserver/serverSideApply/fieldManager.ts:2 imports '<sandbox/apiserver/apiServer.ts>'",
        '  rule [cycle]: no import cycles anywhere; move what the files share into a module both may import.',
      ].join('\n'),
    );
    assert.match(vs[1].message, /^import cycle: sandbox\/util\/json\.ts → sandbox\/util\/json\.ts\n/);
  });

  test('an exception allows exactly its import, and one that matches nothing is reported as stale', () => {
    const graph = graphOf({
      'sandbox/schema/schema.ts': ['client/src/config.ts'],
      'sandbox/schema/types.ts': ['client/src/config.ts'],
    });
    const result = checkGraph(graph, MODULES, [
      { from: 'sandbox/schema/schema.ts', to: 'client/src/config.ts', why: 'allowed for the test' },
      { from: 'sandbox/api/types.ts', to: 'sandbox/cluster/', why: 'no such import' },
    ]);
    assert.deepEqual(
      result.violations.map((v) => v.file),
      ['sandbox/schema/types.ts'],
    );
    assert.deepEqual(
      result.staleExceptions.map((e) => e.from),
      ['sandbox/api/types.ts'],
    );
  });

  test('every folder the brief names has the layer it names', () => {
    const layer = (p: string): string | undefined => moduleOf(p, MODULES)?.layer;
    for (const core of ['api', 'store', 'apiserver', 'admission', 'schema', 'clock', 'util', 'printers']) {
      assert.equal(layer(`sandbox/${core}/x.ts`), 'core', core);
    }
    assert.equal(layer('sandbox/client/component.ts'), 'client-side');
    assert.equal(layer('sandbox/operations/apply/apply.ts'), 'client-side');
    for (const c of ['controllers', 'scheduler', 'kubelet', 'gitops'])
      assert.equal(layer(`sandbox/${c}/x.ts`), 'components');
    assert.equal(layer('sandbox/cluster/cluster.ts'), 'cluster');
    for (const e of ['sandbox/http/x.ts', 'cli/main.ts', 'client/src/extension.ts', 'client/src/worker/main.ts']) {
      assert.equal(layer(e), 'edges', e);
    }
  });
});

describe('reading imports', () => {
  test('type-only imports are told from imports that load code', () => {
    const text = [
      "import type { A } from './a';",
      "import { type B, type C } from './b';",
      "import { type D, e } from './d';",
      "import f from './f';",
      "import './side-effect';",
      "export type { G } from './g';",
      "export { h } from './h';",
      "export * from './i';",
      'type J = import("./j").J;',
      "const k = () => import('./k');",
      "import l = require('./l');",
      "import * as m from 'node:path';",
      "import { n } from 'kubernetes-types/core/v1';",
      "import { o } from '@kubernetes/client-node/dist/x';",
      "import { p } from 'fs';",
    ].join('\n');
    const { imports } = importsOf('sandbox/x/y.ts', text, () => false);
    assert.deepEqual(
      imports.map((i) => `${i.line} ${i.typeOnly ? 'type' : 'code'} ${i.to}`),
      [
        '1 type sandbox/x/a',
        '2 type sandbox/x/b',
        '3 code sandbox/x/d',
        '4 code sandbox/x/f',
        '5 code sandbox/x/side-effect',
        '6 type sandbox/x/g',
        '7 code sandbox/x/h',
        '8 code sandbox/x/i',
        '9 type sandbox/x/j',
        '10 code sandbox/x/k',
        '11 code sandbox/x/l',
        '12 code node:path',
        '13 code npm:kubernetes-types',
        '14 code npm:@kubernetes/client-node',
        '15 code node:fs',
      ],
    );
  });

  test('relative imports resolve as the bundler does: .ts, /index.ts, .json; lib references are read', () => {
    const exists = (p: string): boolean =>
      ['sandbox/a/b.ts', 'sandbox/a/c/index.ts', 'server/generated/schema.json'].includes(p);
    const text = [
      '/// <reference lib="dom" />',
      "import { b } from './b';",
      "import { c } from './c';",
      "import s from '../../server/generated/schema.json';",
      "import { d } from './b.js';",
    ].join('\n');
    const { imports, libReferences } = importsOf('sandbox/a/x.ts', text, exists);
    assert.deepEqual(
      imports.map((i) => i.to),
      ['sandbox/a/b.ts', 'sandbox/a/c/index.ts', 'server/generated/schema.json', 'sandbox/a/b.ts'],
    );
    assert.deepEqual(libReferences, [{ file: 'sandbox/a/x.ts', line: 1, lib: 'dom' }]);
  });
});

describe('npm run check:layers on a tree', () => {
  /** Writes `files` under a fresh temporary root; returns it. */
  function tree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'layers-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  const run = (root: string): { status: number | null; out: string } => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/layers/main.ts'), '--root', root], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    return { status: r.status, out: r.stdout + r.stderr };
  };

  const CLEAN = {
    'sandbox/api/types.ts': 'export interface KubeObject { kind: string }\n',
    'sandbox/client/informer.ts': "import type { KubeObject } from '../api/types';\nexport type Seen = KubeObject;\n",
    'sandbox/cluster/cluster.ts': "import type { Seen } from '../client/informer';\nexport type All = Seen[];\n",
  };

  test('a clean tree passes; a planted violating import and a planted cycle fail it with clear messages', () => {
    const root = tree(CLEAN);
    try {
      const clean = run(root);
      assert.equal(clean.status, 0, clean.out);
      assert.match(clean.out, /layers: 3 files, 2 imports, no violation, no cycle/);

      writeFileSync(
        join(root, 'sandbox/api/types.ts'),
        "import type { All } from '../cluster/cluster';\nexport interface KubeObject { kind: string; all?: All }\n",
      );
      const planted = run(root);
      assert.equal(planted.status, 1);
      assert.match(
        planted.out,
        /sandbox\/api\/types\.ts:1: import type '\.\.\/cluster\/cluster' \(sandbox\/cluster\/cluster\.ts\)\n {2}rule \[layer\]: core/,
      );
      // The same import closes a cycle api → cluster → client → api.
      assert.match(
        planted.out,
        /import cycle: sandbox\/api\/types\.ts → sandbox\/cluster\/cluster\.ts → sandbox\/client\/informer\.ts → sandbox\/api\/types\.ts/,
      );
      assert.match(planted.out, /layers: 2 violation\(s\) in 3 files/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a cycle inside one module fails too', () => {
    const root = tree({
      ...CLEAN,
      'sandbox/kubelet/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'sandbox/kubelet/b.ts': "import type { a } from './a';\nexport const b = 1;\nexport type A = typeof a;\n",
    });
    try {
      const r = run(root);
      assert.equal(r.status, 1);
      assert.match(
        r.out,
        /import cycle: sandbox\/kubelet\/a\.ts → sandbox\/kubelet\/b\.ts → sandbox\/kubelet\/a\.ts\n/,
      );
      assert.match(r.out, / {4}sandbox\/kubelet\/b\.ts:1 imports '\.\/a'\n/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the real tree is read whole: every folder of the brief is there and assigned', () => {
    const graph = buildImportGraph(ROOT, ROOTS);
    for (const dir of ['sandbox/api/', 'sandbox/client/', 'sandbox/controllers/', 'sandbox/cluster/', 'cli/']) {
      assert.ok(
        graph.files.some((f) => f.startsWith(dir)),
        dir,
      );
    }
    const unassigned = graph.files.filter((f) => moduleOf(f, MODULES) === undefined);
    assert.deepEqual(unassigned, []);
  });
});
