/**
 * The fuzz targets of `npm run fuzz` (scripts/fuzz.ts) and test/fuzz/fuzz.test.ts: property-based and mutation
 * fuzzing with fast-check of `validate`, apply, the HTTP body decoders (JSON, YAML, protobuf), patches of every type,
 * label and field selectors, quantities and cron schedules.
 *
 * Each target's property says what must hold for every input: no crash (only the errors the function documents —
 * an ApiError for API paths), no 500 (an ApiError is a 4xx), and on a refused write nothing stored changes (the
 * store's revision and the target object stay as they were). Mutation inputs start from valid objects (the
 * examples' kinds and kubectl's protobuf bodies) and damage them: a field removed, a value swapped for another type,
 * an unknown field, a huge number, a strange string, bytes flipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { ApiError } from '../../sandbox/api/errors';
import type { KubeObject } from '../../sandbox/api/types';
import { ApiServer } from '../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../sandbox/clock/virtualClock';
import { applyManifest } from '../../sandbox/operations/apply/apply';
import { decodeObjectBody, decodePatchBody } from '../../sandbox/http/body';
import { parseLabelSelector } from '../../sandbox/api/selectors/labelSelector';
import { parseFieldSelector } from '../../sandbox/api/selectors/fieldSelector';
import { compareQuantity, formatQuantity, parseQuantity } from '../../sandbox/api/quantity';
import { parseCron } from '../../sandbox/admission/validation/cron';
import { scheduleOf } from '../../sandbox/controllers/cronjob/schedule';
import { validateManifestText } from '../../server/src/services/validateDocument';
import { compareWithYaml } from '../sandbox/manifests/fastYamlCompare';
import { fuzzedYaml } from '../sandbox/manifests/fastYamlArbitrary';
import { Watchdog, watched } from './watchdog';

export interface FuzzTarget {
  name: string;
  /** Runs the target's property over `numRuns` inputs from `seed` (fewer when `timeLimitMs` runs out first). */
  check(numRuns: number, seed: number, timeLimitMs?: number): FuzzOutcome;
}

export interface FuzzOutcome {
  numRuns: number;
  /** The first input whose property failed (shrunk), and why; undefined when every input passed. */
  failure?: { counterexample: string; error: string };
}

/** A target from its property: a failure is reported with fast-check's shrunk counterexample. */
function target<Ts extends [unknown, ...unknown[]]>(name: string, property: fc.IPropertyWithHooks<Ts>): FuzzTarget {
  return {
    name,
    check: (numRuns, seed, timeLimitMs) => {
      // A hang gets no answer from fc.check: the watchdog reports the input and ends the run.
      const dog = new Watchdog(`fuzz target ${name}`);
      try {
        const d = fc.check(watched(property, dog, seed), {
          numRuns,
          seed,
          ...(timeLimitMs === undefined ? {} : { interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false }),
        });
        if (!d.failed) return { numRuns: d.numRuns };
        return {
          numRuns: d.numRuns,
          failure: { counterexample: fc.stringify(d.counterexample), error: String(d.errorInstance) },
        };
      } finally {
        void dog.stop();
      }
    },
  };
}

/** A finding: what broke, for which input. */
export class FuzzFinding extends Error {}

// ---- seeds: valid objects of the kinds users write ----

const NS = 'default';
const SEEDS: readonly KubeObject[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS, labels: { app: 'web' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.27',
              ports: [{ name: 'http', containerPort: 80 }],
              resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
              readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 5 },
              env: [{ name: 'A', value: 'b' }],
            },
          ],
          tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }],
        },
      },
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: NS, annotations: { a: 'b' } },
    spec: {
      initContainers: [{ name: 'init', image: 'busybox', command: ['sh', '-c', 'true'] }],
      containers: [
        { name: 'c', image: 'busybox', args: ['sleep', '3600'], volumeMounts: [{ name: 'v', mountPath: '/v' }] },
      ],
      volumes: [{ name: 'v', emptyDir: {} }],
      restartPolicy: 'Always',
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: NS },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] },
  },
  {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'nightly', namespace: NS },
    spec: {
      schedule: '*/5 * * * *',
      jobTemplate: {
        spec: {
          template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } },
        },
      },
    },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: NS },
    spec: {
      serviceName: 'db',
      replicas: 2,
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'postgres' }] } },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: NS }, data: { 'a.txt': 'x' } },
  {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'pdb', namespace: NS },
    spec: { minAvailable: '50%', selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] } },
  },
  {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: NS },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
    },
  },
];

// ---- mutation ----

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Strange values: other types, bounds, huge and tiny numbers, strings that break parsers. */
const strangeValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 31,
    2 ** 53 + 2,
    -(2 ** 63),
    1e308,
    '',
    ' ',
    '-',
    '0',
    '1e3',
    '100m',
    '1.5Gi',
    '99999999999999999999999Ei',
    'a'.repeat(300),
    '__proto__',
    'constructor',
    '\u0000',
    '\ud800',
    '${x}',
    'a=b,c!=d',
    '*/0 * * * *',
    [],
    {},
    [null],
    { __proto__: 1 } as unknown as Json,
    { $patch: 'delete' },
    { $retainKeys: ['x'] },
  ),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);

interface Mutation {
  /** Which node of the tree (modulo their count). */
  at: number;
  op: 'delete' | 'replace' | 'add' | 'duplicate-into-array';
  key: string;
  value: Json;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom<Mutation['op']>('delete', 'replace', 'replace', 'add', 'duplicate-into-array'),
  key: fc.oneof(
    fc.constantFrom('metadata', 'spec', 'status', 'name', 'namespace', 'kind', 'apiVersion', '__proto__', 'x-unknown'),
    fc.string({ maxLength: 8 }),
  ),
  value: strangeValue,
});

/** Every container node (object or array) of a tree, with its parent link, in document order. */
function containers(root: Json): (Json[] | { [k: string]: Json })[] {
  const out: (Json[] | { [k: string]: Json })[] = [];
  const walk = (v: Json) => {
    if (v === null || typeof v !== 'object') return;
    out.push(v);
    for (const c of Array.isArray(v) ? v : Object.values(v)) walk(c);
  };
  walk(root);
  return out;
}

function copyJson(v: Json): Json {
  return v === undefined ? null : (JSON.parse(JSON.stringify(v)) as Json);
}

/** Applies mutations to a deep copy of `seed`. */
export function mutate(seed: Json, mutations: readonly Mutation[]): Json {
  const root = JSON.parse(JSON.stringify(seed)) as Json;
  for (const mutation of mutations) {
    // Values are copied in, so no two places share one object (and no mutation can make a cycle).
    const m = { ...mutation, value: copyJson(mutation.value) };
    const nodes = containers(root);
    if (nodes.length === 0) break;
    const node = nodes[m.at % nodes.length];
    if (Array.isArray(node)) {
      const i = node.length === 0 ? 0 : m.at % node.length;
      if (m.op === 'delete') node.splice(i, 1);
      else if (m.op === 'add' || m.op === 'duplicate-into-array') node.push(copyJson(node[i] ?? m.value));
      else node[i] = m.value;
      continue;
    }
    const keys = Object.keys(node);
    const existing = keys.length === 0 ? m.key : keys[m.at % keys.length];
    if (m.op === 'delete') Reflect.deleteProperty(node, existing);
    else if (m.op === 'add')
      Object.defineProperty(node, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    else if (m.op === 'duplicate-into-array') node[existing] = [copyJson(node[existing] ?? null), m.value];
    else node[existing] = m.value;
  }
  return root;
}

const mutatedObject: fc.Arbitrary<Json> = fc
  .tuple(fc.constantFrom(...SEEDS), fc.array(mutationArb, { minLength: 0, maxLength: 4 }))
  .map(([seed, ms]) => mutate(seed as unknown as Json, ms));

// ---- contracts ----

/**
 * The 500s kube-apiserver itself answers, kept as upstream does (upstream wins): server-side apply of a
 * configuration that does not fit the type's schema (apiserver fieldmanager structuredmerge.go `Apply` returns a
 * plain `failed to create typed patch object` error, which the patch handler answers as an InternalError).
 */
const UPSTREAM_500 = [/^failed to create typed patch object /];

/** An API path may refuse only with an ApiError of 4xx (or one of upstream's own 500s). */
function refusedCleanly(e: unknown, what: string): ApiError {
  if (!(e instanceof ApiError)) throw new FuzzFinding(`${what}: crashed with ${String((e as Error)?.stack ?? e)}`);
  if (e.status.code >= 500 && !UPSTREAM_500.some((re) => re.test(e.message)))
    throw new FuzzFinding(`${what}: answered ${e.status.code} ${e.message}`);
  return e;
}

/** A fresh API server with one object of each seed kind stored. */
function seededServer(): ApiServer {
  const api = new ApiServer({ clock: new VirtualClock(), random: 1 });
  for (const s of SEEDS) applyManifest(api, s);
  return api;
}

/** The store's revision and the stored objects' resourceVersions: a refusal must leave them as they were. */
function fingerprint(api: ApiServer): string {
  const parts = [api.resourceVersion];
  for (const r of ['deployments', 'pods', 'services', 'cronjobs', 'statefulsets', 'configmaps'] as const)
    for (const o of api.list(r, { namespace: NS }).items)
      parts.push(`${o.metadata.name}@${o.metadata.resourceVersion}`);
  return parts.join(' ');
}

// ---- the targets ----

function validateTarget(): FuzzTarget {
  const junk = fc.array(
    fc.constantFrom(
      'apiVersion: v1\n',
      'kind: Pod\n',
      'metadata:\n',
      '  name: x\n',
      '- ',
      ': ',
      '[',
      '{',
      '&a ',
      '*a ',
      '"',
      '\t',
      '\n',
      '---\n',
      'x',
      '<<: *a\n',
    ),
    { maxLength: 30 },
  );
  const text = fc.oneof(
    mutatedObject.map((o) => stringify(o)),
    fc.array(mutatedObject, { minLength: 1, maxLength: 3 }).map((os) => os.map((o) => stringify(o)).join('---\n')),
    junk.map((parts) => parts.join('')),
    fc.string({ maxLength: 200 }),
  );
  return target(
    'validate',
    fc.property(text, (t) => {
      let ds;
      try {
        ds = validateManifestText(t);
      } catch (e) {
        throw new FuzzFinding(`validate threw ${String((e as Error)?.stack ?? e)}`);
      }
      if (!Array.isArray(ds)) throw new FuzzFinding('validate returned no diagnostics array');
    }),
  );
}

function applyTarget(): FuzzTarget {
  const api = seededServer();
  return target(
    'apply',
    fc.property(mutatedObject, (obj) => {
      const before = fingerprint(api);
      try {
        applyManifest(api, obj as unknown as KubeObject);
      } catch (e) {
        refusedCleanly(e, 'apply');
        const after = fingerprint(api);
        if (after !== before) throw new FuzzFinding(`apply refused (${(e as Error).message}) but changed the store`);
      }
    }),
  );
}

const protobufSeeds = (): Buffer[] => {
  const text = readFileSync(join(__dirname, '..', 'sandbox', 'http', 'protobuf.test.ts'), 'utf8');
  return [...text.matchAll(/body: '([A-Za-z0-9+/=]+)'/g)].map((m) => Buffer.from(m[1], 'base64'));
};

function decodersTarget(): FuzzTarget {
  const protos = protobufSeeds();
  const byteMutation = fc.record({
    at: fc.nat(),
    op: fc.constantFrom('flip', 'set', 'cut', 'insert'),
    byte: fc.nat(255),
  });
  const proto = fc
    .tuple(fc.constantFrom(...protos), fc.array(byteMutation, { minLength: 1, maxLength: 6 }))
    .map(([seed, ms]) => {
      let b = Buffer.from(seed);
      for (const m of ms) {
        const i = 4 + (m.at % Math.max(1, b.length - 4));
        if (m.op === 'flip') b[i] ^= 1 << m.byte % 8;
        else if (m.op === 'set') b[i] = m.byte;
        else if (m.op === 'cut') b = b.subarray(0, i);
        else b = Buffer.concat([b.subarray(0, i), Buffer.from([m.byte]), b.subarray(i)]);
      }
      return { ct: 'application/vnd.kubernetes.protobuf', body: b };
    });
  const json = fc.oneof(
    mutatedObject.map((o) => JSON.stringify(o)),
    fc.string({ maxLength: 100 }),
    fc.json({ maxDepth: 4 }),
  );
  const yaml = fc.oneof(
    mutatedObject.map((o) => stringify(o)),
    fc.string({ maxLength: 100 }),
  );
  const input = fc.oneof(
    json.map((t) => ({ ct: 'application/json', body: Buffer.from(t) })),
    yaml.map((t) => ({ ct: 'application/yaml', body: Buffer.from(t) })),
    proto,
    fc
      .uint8Array({ maxLength: 64 })
      .map((b) => ({ ct: 'application/vnd.kubernetes.protobuf', body: Buffer.from([0x6b, 0x38, 0x73, 0, ...b]) })),
    json.map((t) => ({ ct: 'application/merge-patch+json', body: Buffer.from(t) })),
    yaml.map((t) => ({ ct: 'application/apply-patch+yaml', body: Buffer.from(t) })),
  );
  return target(
    'HTTP body decoders',
    fc.property(input, ({ ct, body }) => {
      try {
        if (ct.includes('patch')) decodePatchBody(body, ct);
        else decodeObjectBody(body, ct, 'Deployment');
      } catch (e) {
        refusedCleanly(e, `decode ${ct}`);
      }
    }),
  );
}

function patchTarget(): FuzzTarget {
  const api = seededServer();
  const targets = [
    ['deployments', 'web'],
    ['pods', 'p'],
    ['services', 'web'],
    ['cronjobs', 'nightly'],
    ['statefulsets', 'db'],
    ['configmaps', 'cfg'],
  ] as const;
  const pointer = fc
    .array(
      fc.oneof(
        fc.constantFrom('spec', 'metadata', 'template', 'containers', '0', '-', 'labels', 'replicas', 'a~1b', '~2'),
        fc.string({ maxLength: 4 }),
      ),
      { maxLength: 5 },
    )
    .map((p) => (p.length === 0 ? '' : `/${p.join('/')}`));
  const jsonOp = fc.record({
    op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
    path: pointer,
    from: pointer,
    value: strangeValue,
  });
  const patch = fc.oneof(
    fc.tuple(
      fc.constant('json' as const),
      fc.oneof(fc.array(jsonOp, { maxLength: 4 }) as fc.Arbitrary<Json>, strangeValue),
    ),
    fc.tuple(fc.constant('merge' as const), fc.oneof(mutatedObject, strangeValue)),
    fc.tuple(fc.constant('strategic' as const), fc.oneof(mutatedObject, strangeValue)),
    fc.tuple(fc.constant('apply' as const), mutatedObject),
  );
  return target(
    'patches',
    fc.property(fc.constantFrom(...targets), patch, ([resource, name], [type, body]) => {
      const before = fingerprint(api);
      try {
        if (type === 'apply') {
          const obj = (body ?? {}) as { [k: string]: Json };
          const meta = typeof obj.metadata === 'object' && obj.metadata !== null ? obj.metadata : {};
          api.patch(
            resource,
            NS,
            name,
            'apply',
            { ...obj, metadata: { ...meta, name } },
            { fieldManager: 'fuzz', force: true },
          );
        } else api.patch(resource, NS, name, type, body);
      } catch (e) {
        refusedCleanly(e, `${type} patch of ${resource}/${name}`);
        if (fingerprint(api) !== before)
          throw new FuzzFinding(`${type} patch refused (${(e as Error).message}) but changed the store`);
      }
    }),
  );
}

const selectorText = fc.oneof(
  fc
    .array(
      fc.constantFrom(
        'a',
        'b.io/c',
        '=',
        '==',
        '!=',
        ' in ',
        ' notin ',
        '(',
        ')',
        ',',
        '!',
        ' ',
        'x',
        '1',
        '-',
        '_',
        '.',
        '/',
        '\\',
        '',
      ),
      { maxLength: 16 },
    )
    .map((p) => p.join('')),
  fc.string({ maxLength: 40 }),
);

function labelSelectorTarget(): FuzzTarget {
  const labels = fc.dictionary(fc.constantFrom('a', 'b.io/c', 'x'), fc.constantFrom('', '1', 'x', 'y'));
  return target(
    'label selectors',
    fc.property(selectorText, labels, (text, l) => {
      let sel;
      try {
        sel = parseLabelSelector(text);
      } catch (e) {
        refusedCleanly(e, `label selector ${JSON.stringify(text)}`);
        return;
      }
      sel.matches(l);
    }),
  );
}

function fieldSelectorTarget(): FuzzTarget {
  const pod = SEEDS[1];
  return target(
    'field selectors',
    fc.property(
      fc.oneof(
        selectorText,
        fc.constantFrom('metadata.name=p', 'spec.nodeName!=x', 'status.phase==Running,metadata.namespace=default'),
      ),
      fc.constantFrom('Pod', 'Node', 'Event', 'Secret', 'Deployment'),
      (text, kind) => {
        let sel;
        try {
          sel = parseFieldSelector(text, kind);
        } catch (e) {
          refusedCleanly(e, `field selector ${JSON.stringify(text)}`);
          return;
        }
        sel.matches(pod);
      },
    ),
  );
}

function quantityTarget(): FuzzTarget {
  const text = fc.oneof(
    fc
      .tuple(
        fc.constantFrom('', '+', '-'),
        fc.stringMatching(/^[0-9]{0,25}(\.[0-9]{0,12})?$/),
        fc.constantFrom(
          '',
          'm',
          'k',
          'M',
          'G',
          'T',
          'P',
          'E',
          'Ki',
          'Mi',
          'Gi',
          'Ti',
          'Pi',
          'Ei',
          'e3',
          'E-9',
          'e99',
          'n',
          'u',
          'i',
          'K',
        ),
      )
      .map((p) => p.join('')),
    fc.string({ maxLength: 16 }),
  );
  return target(
    'quantities',
    fc.property(text, (t) => {
      let q;
      try {
        q = parseQuantity(t);
      } catch (e) {
        throw new FuzzFinding(`parseQuantity(${JSON.stringify(t)}) threw ${String(e)}`);
      }
      if (!q) return;
      // A quantity prints in canonical form, and the canonical form parses back to the same amount.
      const shown = formatQuantity(q);
      const again = parseQuantity(shown);
      if (!again || compareQuantity(q, again) !== 0)
        throw new FuzzFinding(`quantity ${JSON.stringify(t)} printed as ${shown}, which parses to another amount`);
    }),
  );
}

function cronTarget(): FuzzTarget {
  const field = fc.oneof(
    fc.constantFrom('*', '?', '*/5', '1-5', '1-5/2', 'mon-fri', 'jan', 'L', '0', '59', '60', '-1', '5/0', '1,2,3', ''),
    fc.string({ maxLength: 5 }),
  );
  const spec = fc.oneof(
    fc.array(field, { minLength: 1, maxLength: 7 }).map((f) => f.join(' ')),
    fc.constantFrom(
      '@hourly',
      '@daily',
      '@every 5m',
      '@every 0s',
      '@every -1s',
      '@yearly',
      '@bogus',
      'TZ=UTC * * * * *',
      'CRON_TZ=Nowhere/X 0 0 * * *',
      'TZ=',
    ),
    fc.string({ maxLength: 30 }),
  );
  return target(
    'cron',
    fc.property(spec, fc.integer({ min: 0, max: 4_000_000_000_000 }), (s, after) => {
      let parsed;
      try {
        parsed = parseCron(s);
      } catch (e) {
        throw new FuzzFinding(`parseCron(${JSON.stringify(s)}) threw ${String(e)}`);
      }
      if ('error' in parsed) return;
      let schedule;
      try {
        schedule = scheduleOf(parsed.ok);
      } catch (e) {
        // The documented refusal: a zone other than UTC.
        if (!(e instanceof Error) || !e.message.includes('UTC only'))
          throw new FuzzFinding(`scheduleOf(${s}) threw ${String(e)}`);
        return;
      }
      const next = schedule.next(after);
      if (next !== undefined && !(next > after)) throw new FuzzFinding(`${s}: next after ${after} is ${next}`);
    }),
  );
}

/** Every target, built fresh (each API target gets its own seeded API server). */
export function fuzzTargets(): FuzzTarget[] {
  return [
    validateTarget(),
    applyTarget(),
    decodersTarget(),
    patchTarget(),
    labelSelectorTarget(),
    fieldSelectorTarget(),
    quantityTarget(),
    cronTarget(),
    fastYamlTarget(),
  ];
}

/**
 * The fast YAML reader (sandbox/manifests/fastYaml) against the `yaml` package on generated and mutated manifests:
 * either it declines the text or both give the same node trees, and `yaml` finds no error in it.
 */
function fastYamlTarget(): FuzzTarget {
  return target(
    'fast-yaml',
    fc.property(fuzzedYaml, (t) => {
      const c = compareWithYaml(t);
      if (c.outcome === 'different') throw new FuzzFinding(c.why);
    }),
  );
}
