/**
 * What `simulate` prints at the end: kubectl tables of the workloads and
 * nodes (`get deploy,rs,pods,nodes`), other kinds the user applied, and the
 * events, oldest first — or everything as a Kubernetes `List` in JSON.
 */
import type { ApiServer } from '../../sandbox/apiserver/apiServer';
import type { KubeObject } from '../../sandbox/api/types';
import type { ResourceType } from '../../sandbox/api/resources';
import { formatGet } from '../../sandbox/printers/format';
import type { GetGroup } from '../../sandbox/printers/format';
import { formatTable } from '../../sandbox/printers/format';
import { tableFor } from '../../sandbox/printers/tableFor';
import { describeNotReconciled } from '../../sandbox/cluster/describe';
import { systemPriorityClass } from '../../sandbox/apiserver/priority';
import { yamlText } from '../../sandbox/util/yamlText';

const MAIN_KINDS = ['deployments', 'replicasets', 'pods', 'nodes'];
const HIDDEN = new Set(['events', 'leases', 'namespaces', 'endpointslices', 'endpoints', 'controllerrevisions']);

function userObjects(api: ApiServer, r: ResourceType): KubeObject[] {
  const items = api.list(r).items;
  // The bootstrap `kubernetes` Service and system PriorityClasses are part of every cluster: showing them would
  // only add noise.
  if (r.plural === 'services' && r.group === '')
    return items.filter((s) => !(s.metadata.namespace === 'default' && s.metadata.name === 'kubernetes'));
  if (r.plural === 'priorityclasses') return items.filter((p) => !systemPriorityClass(p.metadata.name ?? ''));
  // Likewise the `default` ServiceAccount and the `kube-root-ca.crt` ConfigMap the controllers put in every namespace
  // (`kubectl get sa,cm -A` lists them; the JSON and YAML Lists carry them).
  if (r.plural === 'serviceaccounts' && r.group === '') return items.filter((o) => !controllerMade(o, 'default'));
  if (r.plural === 'configmaps' && r.group === '') return items.filter((o) => !controllerMade(o, 'kube-root-ca.crt'));
  return items;
}

/** The object a controller created by itself: its name, and never applied from the user's manifests. */
function controllerMade(o: KubeObject, name: string): boolean {
  return (
    o.metadata.name === name &&
    o.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] === undefined
  );
}

/**
 * The tables, as `kubectl get deploy,rs,pods,nodes` (plus other kinds that have objects) and `kubectl get events` print
 * them.
 */
export function formatReport(api: ApiServer, now: number): string {
  const groups: GetGroup[] = [];
  const kinds = api.resources.storedKinds();
  const main = MAIN_KINDS.map(
    (p) => kinds.find((r) => (r.group === '' || r.group === 'apps' ? r.plural === p : false))!,
  );
  const resources = [
    ...main,
    ...kinds.filter((r) => !main.includes(r) && !(r.custom === undefined && HIDDEN.has(r.plural))),
  ];
  for (const r of resources) {
    const objects = userObjects(api, r);
    if (objects.length > 0) groups.push({ kind: r, objects });
  }
  const namespaces = new Set(
    groups.flatMap((g) => g.objects.map((o) => o.metadata.namespace).filter((n) => n !== undefined)),
  );
  const showNamespace = namespaces.size > 1;
  let out = formatGet(groups, now, { showNamespace });
  const events = [...api.list('events').items].sort(byLastSeen);
  if (events.length > 0) out += `\n${formatTable(tableFor('events', events, now, { showNamespace }))}`;
  const stored = describeNotReconciled(api);
  if (stored.length > 0) out += `\nNot acted on in this sandbox:\n${stored.map((l) => `  ${l}\n`).join('')}`;
  return out;
}

function byLastSeen(a: KubeObject, b: KubeObject): number {
  const ta = String(a.lastTimestamp ?? a.firstTimestamp ?? '');
  const tb = String(b.lastTimestamp ?? b.firstTimestamp ?? '');
  if (ta !== tb) return ta < tb ? -1 : 1;
  return Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion);
}

/** Every stored object, kind by kind, without gathering them into one array. */
function* everything(api: ApiServer): Generator<KubeObject> {
  for (const r of api.resources.storedKinds()) yield* api.list(r).items;
}

/** Where a document goes: a stream (process.stdout) or anything with `write`. */
export interface DocumentSink {
  write(text: string): unknown;
  once?(event: 'drain', listener: () => void): unknown;
}

/** Pieces are gathered into writes of about this many characters. */
const CHUNK_CHARS = 1 << 20;

/**
 * Gathers small pieces into ~1 MiB writes, and waits for `drain` when the stream asks it to (a write returned
 * false), so a document of any size is written with bounded memory and no string beyond V8's maximum length.
 */
class ChunkWriter {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly sink: DocumentSink) {}

  async add(text: string): Promise<void> {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    this.size = 0;
    const once = this.sink.once?.bind(this.sink);
    if (this.sink.write(text) === false && once) await new Promise<void>((done) => once('drain', done));
  }
}

/**
 * Writes `{apiVersion: v1, kind: List, metadata, items}` exactly as `JSON.stringify(list, null, 2)` would, one item
 * at a time: 60,000 pods made that single string longer than V8 allows.
 */
export async function writeJsonList(
  items: Iterable<KubeObject>,
  resourceVersion: string,
  sink: DocumentSink,
): Promise<void> {
  const w = new ChunkWriter(sink);
  const head = JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion } }, null, 2);
  await w.add(`${head.slice(0, -2)},\n  "items": [`);
  let first = true;
  for (const item of items) {
    // An item sits two levels deep: every line after its first is indented by four more spaces (strings never hold
    // a raw newline in JSON, so each newline is the stringifier's own).
    await w.add(`${first ? '' : ','}\n    ${JSON.stringify(item, null, 2).replace(/\n/g, '\n    ')}`);
    first = false;
  }
  await w.add(first ? ']\n}\n' : '\n  ]\n}\n');
  await w.flush();
}

const YAML_OPTIONS = { sortMapEntries: true, indentSeq: false, lineWidth: 0 } as const;

/**
 * The same List as YAML in kubectl's style (`-o yaml`: keys sorted, list items not indented), one item at a time:
 * keys sorted put `items` between `apiVersion` and `kind`.
 */
export async function writeYamlList(
  items: Iterable<KubeObject>,
  resourceVersion: string,
  sink: DocumentSink,
): Promise<void> {
  const w = new ChunkWriter(sink);
  await w.add(yamlText({ apiVersion: 'v1' }, YAML_OPTIONS));
  let first = true;
  for (const item of items) {
    if (first) await w.add('items:\n');
    first = false;
    // A sequence entry: `- ` before its first line, two spaces before the others (blank lines, inside block
    // scalars, stay empty as the whole-document stringifier leaves them).
    await w.add(`- ${yamlText(item, YAML_OPTIONS).replace(/\n(?=.)/g, '\n  ')}`);
  }
  if (first) await w.add('items: []\n');
  await w.add(yamlText({ kind: 'List', metadata: { resourceVersion } }, YAML_OPTIONS));
  await w.flush();
}

/** Every object in the cluster as one `v1 List` in JSON, streamed to `sink`. */
export function writeJsonListOf(api: ApiServer, sink: DocumentSink): Promise<void> {
  return writeJsonList(everything(api), api.resourceVersion, sink);
}

/** Every object in the cluster as one `v1 List` in YAML, streamed to `sink`. */
export function writeYamlListOf(api: ApiServer, sink: DocumentSink): Promise<void> {
  return writeYamlList(everything(api), api.resourceVersion, sink);
}
