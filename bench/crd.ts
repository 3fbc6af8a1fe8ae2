/**
 * bench/crd: custom resources (issue 14). Time to register prometheus-operator's 10 CRDs — their abridged fixture
 * schemas (test/fixtures/public/prometheus-operator/crds) inflated to upstream's size (each version's schema gets
 * a synthetic pod-template-like subtree, ~3 MB of schema in all) — through the API server (defaults, validation,
 * structural checks, naming, establishing, registration); then to create 1,000 ServiceMonitors and 1,000
 * Prometheuses through it (pruning, defaulting, schema validation), and to validate 1,000 objects with the schema
 * module alone. Then the editor's path and `kube-reconcile validate` on the same CRDs and 1,000 ServiceMonitors as
 * YAML files (10 CRD files, 10 files of 100 custom resources): every file analysed, then the folder's
 * cross-document checks (`custom-resource-validation`: prune, default, schema, CEL, exact ranges); and the cost of
 * one edit (one file of 100 re-analysed, the folder checked again). Prints figures; never fails on them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse } from 'yaml';
import { ApiServer } from '../sandbox/apiserver/apiServer';
import { VirtualClock } from '../sandbox/clock/virtualClock';
import type { KubeObject } from '../sandbox/api/types';
import type { JSONSchemaProps } from '../sandbox/apiextensions/schema/types';
import { validateCustomResource } from '../sandbox/apiextensions/schema/validate';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { stringify } from 'yaml';
import { runValidate } from '../cli/validate';
import { crossDocumentDiagnostics } from '../server/src/services/crossDocument/crossDocumentDiagnostics';
import type { FileFacts } from '../server/src/services/crossDocument/facts';
import { withoutServedKindWarnings } from '../server/src/services/crossDocument/rules/customResourceValidation';
import { analyzeFile } from '../server/src/services/workspace/analyzeFile';
import { fmt, machine, summarize } from './stats';

const DIR = join(__dirname, '..', 'test', 'fixtures', 'public', 'prometheus-operator', 'crds');

/** A deterministic subtree shaped like upstream's (containers, probes, volumes): objects of described fields. */
function synthetic(depth: number, width: number, seed: number): JSONSchemaProps {
  const properties: Record<string, JSONSchemaProps> = {};
  for (let i = 0; i < width; i++) {
    const name = `field${seed}x${i}`;
    const description = `${name} is a synthetic field standing for upstream's generated pod template schema; it carries a description of typical length so that the schema's size in bytes is close to the real one.`;
    if (depth === 0 || i % 3 !== 0) properties[name] = { type: i % 2 === 0 ? 'string' : 'integer', description };
    else if (i % 2 === 0)
      properties[name] = { type: 'array', description, items: synthetic(depth - 1, width, seed * 7 + i) };
    else properties[name] = { ...synthetic(depth - 1, width, seed * 7 + i), description };
  }
  return { type: 'object', properties };
}

function loadCrds(): KubeObject[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f, i) => {
      const crd = parse(readFileSync(join(DIR, f), 'utf8')) as KubeObject & {
        spec: { versions: { schema: { openAPIV3Schema: JSONSchemaProps } }[] };
      };
      for (const v of crd.spec.versions) {
        const spec = v.schema.openAPIV3Schema.properties!.spec;
        spec.properties = { ...spec.properties, podTemplate: synthetic(3, 14, i + 1) };
      }
      return crd;
    });
}

function serviceMonitor(i: number): KubeObject {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name: `app-${i}`, namespace: 'default', labels: { team: `t${i % 10}` } },
    spec: {
      selector: { matchLabels: { app: `app-${i}` } },
      endpoints: [
        {
          port: 'web',
          interval: '30s',
          scheme: 'http',
          metricRelabelings: [{ action: 'drop', sourceLabels: ['__name__'] }],
        },
        { port: 'metrics', path: '/metrics', targetPort: 9090 },
      ],
      namespaceSelector: { matchNames: ['default'] },
    },
  };
}

function prometheus(i: number): KubeObject {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { name: `prom-${i}`, namespace: 'default' },
    spec: {
      version: 'v3.5.0',
      replicas: 2,
      serviceMonitorSelector: { matchLabels: { team: 'frontend' } },
      resources: { requests: { memory: '400Mi', cpu: '500m' } },
      retention: '15d',
    },
  };
}

const crds = loadCrds();
const schemaBytes = crds.reduce((n, c) => n + JSON.stringify(c).length, 0);

// One ~1 MiB CRD file in the editor: its single-document analysis (parse, schema rules, admission), the first time
// and again unchanged (a folder re-indexed after a settings change, a rescan, a checkout that kept the file). A
// comment line makes each run's first analysis a text never seen before.
const oneCrdText = stringify(crds[0]);
const fileFirst: number[] = [];
const fileAgain: number[] = [];
for (let run = 0; run < 5; run++) {
  const text = `# run ${run}\n${oneCrdText}`;
  const t0 = performance.now();
  analyzeFile(text);
  const t1 = performance.now();
  analyzeFile(text);
  fileFirst.push(t1 - t0);
  fileAgain.push(performance.now() - t1);
}
console.log(
  `  one CRD file (${fmt(oneCrdText.length / 2 ** 20)} MiB of YAML), editor analysis: first p50 ${fmt(summarize(fileFirst).p50, 1)} ms, unchanged again p50 ${fmt(summarize(fileAgain).p50, 1)} ms (5 runs)`,
);
if (process.env.BENCH_CRD_ONLY === 'file') process.exit(0);

const registrations: number[] = [];
let api: ApiServer | undefined;
for (let run = 0; run < 5; run++) {
  api = new ApiServer({ clock: new VirtualClock() });
  const t0 = performance.now();
  for (const crd of crds) api.create(crd, { fieldValidation: 'Strict' });
  registrations.push(performance.now() - t0);
}
const served = api!.resources.list().filter((r) => r.custom !== undefined).length;

function createAll(make: (i: number) => KubeObject): number {
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) api!.create(make(i), { fieldValidation: 'Strict' });
  return performance.now() - t0;
}
const smMs = createAll(serviceMonitor);
const promMs = createAll(prometheus);

const schema = api!.resources.byName('servicemonitors')!.custom!.schema as JSONSchemaProps;
const objects = Array.from({ length: 1000 }, (_, i) => serviceMonitor(i));
const pure: number[] = [];
for (let run = 0; run < 5; run++) {
  const t0 = performance.now();
  for (const o of objects) validateCustomResource(o, schema);
  pure.push(performance.now() - t0);
}

// A CRD with x-kubernetes-validations (3 rules, one a transition rule): creates and updates through the API server.
api!.create({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.bench.example.com' },
  spec: {
    group: 'bench.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [
                  { rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' },
                  { rule: "self.name.matches('^[a-z][a-z0-9-]*$')" },
                ],
                properties: {
                  name: { type: 'string', maxLength: 63 },
                  replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf' }] },
                  maxReplicas: { type: 'integer' },
                },
              },
            },
          },
        },
      },
    ],
  },
});
const widget = (i: number, replicas: number): KubeObject => ({
  apiVersion: 'bench.example.com/v1',
  kind: 'Widget',
  metadata: { name: `w-${i}`, namespace: 'default' },
  spec: { name: `w-${i}`, replicas, maxReplicas: 10 },
});
const celCreateMs = createAll((i) => widget(i, 1));
const tu = performance.now();
for (let i = 0; i < 1000; i++) {
  const live = api!.get('widgets', 'default', `w-${i}`);
  api!.update({ ...live, spec: widget(i, 2).spec });
}
const celUpdateMs = performance.now() - tu;

const reg = summarize(registrations);
const val = summarize(pure);
console.log(`bench/crd — ${machine()}`);
console.log(`  10 prometheus-operator CRDs, ${fmt(schemaBytes / 2 ** 20)} MiB of JSON, ${served} served resources`);
console.log(
  `  register the 10 CRDs (create: defaults, validation, structural checks, names, established, served): p50 ${fmt(reg.p50, 1)} ms, max ${fmt(reg.max, 1)} ms (5 runs)`,
);
console.log(
  `  create 1,000 ServiceMonitors through the API server (prune, default, validate): ${fmt(smMs, 1)} ms (${fmt(1000 / (smMs / 1000), 0)}/s)`,
);
console.log(
  `  create 1,000 Prometheuses through the API server: ${fmt(promMs, 1)} ms (${fmt(1000 / (promMs / 1000), 0)}/s)`,
);
console.log(`  validate 1,000 ServiceMonitors with the schema module alone: p50 ${fmt(val.p50, 1)} ms (5 runs)`);
console.log(
  `  create 1,000 custom resources with 3 CEL rules: ${fmt(celCreateMs, 1)} ms (${fmt(1000 / (celCreateMs / 1000), 0)}/s); update them (transition rule): ${fmt(celUpdateMs, 1)} ms`,
);

// The editor's path and the CLI's: the same CRDs and 1,000 ServiceMonitors as YAML files of one folder.
const crdTexts = crds.map((c) => stringify(c));
const crTexts = Array.from({ length: 10 }, (_, f) =>
  Array.from({ length: 100 }, (_, i) => stringify(serviceMonitor(f * 100 + i))).join('---\n'),
);
const folderTexts = [...crdTexts, ...crTexts];
const yamlBytes = folderTexts.reduce((n, t) => n + t.length, 0);

function analyzeFolder(): { facts: FileFacts[]; analyzeMs: number; crossMs: number; problems: number } {
  const t0 = performance.now();
  const facts: FileFacts[] = [];
  const own: (readonly unknown[])[] = [];
  folderTexts.forEach((text, i) => {
    const a = analyzeFile(text);
    facts.push({ uri: `file:///w/${i}.yaml`, display: `${i}.yaml`, objects: a.objects });
    own.push(a.diagnostics);
  });
  const t1 = performance.now();
  const cross = crossDocumentDiagnostics(facts);
  const filter = withoutServedKindWarnings(facts);
  let problems = 0;
  for (const f of facts) problems += (cross.get(f.uri) ?? []).length;
  facts.forEach((f, i) => (problems += filter(f, own[i] as never).length));
  return { facts, analyzeMs: t1 - t0, crossMs: performance.now() - t1, problems };
}
const editorRuns = Array.from({ length: 5 }, () => analyzeFolder());
const firstEditor = editorRuns[0];
const editAnalyze: number[] = [];
const editCross: number[] = [];
for (let run = 0; run < 5; run++) {
  const facts = [...editorRuns[run].facts];
  const t0 = performance.now();
  const edited = crTexts[run].replace('interval: 30s', 'interval: 60s');
  facts[crdTexts.length + run] = { ...facts[crdTexts.length + run], objects: analyzeFile(edited).objects };
  const t1 = performance.now();
  crossDocumentDiagnostics(facts);
  editAnalyze.push(t1 - t0);
  editCross.push(performance.now() - t1);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-crd-'));
folderTexts.forEach((text, i) => writeFileSync(join(dir, `${String(i).padStart(2, '0')}.yaml`), text));
const cliRuns: number[] = [];
let cliOut = '';
void (async () => {
  for (let run = 0; run < 3; run++) {
    cliOut = '';
    const t0 = performance.now();
    await runValidate([dir], {
      stdout: { write: (t: string) => (cliOut += t) },
      stderr: { write: () => true },
      cwd: dir,
    });
    cliRuns.push(performance.now() - t0);
  }
  rmSync(dir, { recursive: true, force: true });
  const steady = summarize(editorRuns.slice(1).map((r) => r.analyzeMs + r.crossMs));
  console.log(
    `  editor path, 20 files (${fmt(yamlBytes / 2 ** 20)} MiB of YAML: 10 CRDs, 1,000 ServiceMonitors), ${firstEditor.problems} problems (expected: none):`,
  );
  console.log(
    `    first pass: analyse every file ${fmt(firstEditor.analyzeMs, 1)} ms + folder checks ${fmt(firstEditor.crossMs, 1)} ms; later passes p50 ${fmt(steady.p50, 1)} ms`,
  );
  console.log(
    `    one edit (a file of 100 re-analysed, the folder checked again): analyse p50 ${fmt(summarize(editAnalyze).p50, 1)} ms + folder checks p50 ${fmt(summarize(editCross).p50, 1)} ms`,
  );
  console.log(
    `  kube-reconcile validate on those 20 files (in process): p50 ${fmt(summarize(cliRuns).p50, 1)} ms (3 runs), ${cliOut.split('\n').filter(Boolean).length} problems (expected: none)`,
  );
})();
