/**
 * Show Events, Describe, Show Logs / Show Previous Logs and Copy as YAML on an object of a real context, read-only
 * (GET requests only, so a read-only connection serves them). The object itself comes from the Cluster view's cache
 * (the informers' copy); what the informers do not watch is asked of the API server as kubectl asks it:
 * - events: `kubectl describe`'s search — a list of events with field selectors on the involved object's kind,
 *   name, namespace and uid — then a watch with the same selectors (`kubectl get events --watch`) while the document
 *   is open;
 * - describe: the sandbox's `kubectl describe` printer fed with the live object, its events, the namespace's pods
 *   and ReplicaSets from the cache, a Service's EndpointSlices and a Node's pods (`spec.nodeName`) and Lease;
 * - logs: the pod log API (`pods/NAME/log?container=…&follow=true`), streamed into the document until it is closed.
 * No `vscode` import (a `Ui`): tested against `kube-reconcile serve`.
 */
import type { LiveConnection, LiveWatch } from '../../../live/connection';
import { asResource } from '../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../sandbox/api/types';
import { formatTable, tableFor } from '../../../sandbox/printers';
import { DESCRIBED_KINDS, describeObject } from '../../../sandbox/printers/describe/describe';
import { errorMessage } from '../commands/context';
import { LOGGABLE, podsOf, prefixLines } from '../commands/inspectCommands';
import type { Ui } from '../commands/ui';
import { eventsText } from '../model/events';
import { liveYaml } from '../model/liveYaml';
import { refText } from '../model/objectRef';
import type { ObjectRef } from '../sandbox/protocol';
import type { ViewedCluster } from './viewedCluster';

export interface InspectDeps {
  ui: Ui;
  viewed: ViewedCluster;
  /** The read-only connection of the context shown (undefined while the sandbox is shown). */
  connection(): LiveConnection | undefined;
  /** Wall-clock milliseconds: ages of events and pods on a real cluster. */
  now(): number;
}

const typed = (kind: string, apiVersion: string) => (o: KubeObject) => ({ ...o, kind, apiVersion });

/**
 * The field selector of client-go's `EventInterface.Search` (`GetFieldSelector`): the involved object's name,
 * namespace (when it has one), kind and uid (when it has one).
 * upstream: staging/src/k8s.io/client-go/kubernetes/typed/core/v1/event_expansion.go (Search, GetFieldSelector)
 */
export function eventFieldSelector(obj: KubeObject): string {
  const terms = [`involvedObject.name=${obj.metadata.name ?? ''}`];
  if (obj.metadata.namespace) terms.push(`involvedObject.namespace=${obj.metadata.namespace}`);
  terms.push(`involvedObject.kind=${obj.kind}`);
  if (obj.metadata.uid) terms.push(`involvedObject.uid=${obj.metadata.uid}`);
  return terms.join(',');
}

/** Where the events about `obj` are listed: its namespace, or every namespace for a cluster-scoped object. */
function eventsPath(obj: KubeObject): string {
  return obj.metadata.namespace
    ? `/api/v1/namespaces/${encodeURIComponent(obj.metadata.namespace)}/events`
    : '/api/v1/events';
}

function lastSeen(e: KubeObject): string {
  const ev = e as unknown as {
    series?: { lastObservedTime?: string };
    lastTimestamp?: string;
    eventTime?: string;
    firstTimestamp?: string;
  };
  return ev.series?.lastObservedTime ?? ev.lastTimestamp ?? ev.eventTime ?? ev.firstTimestamp ?? '';
}

/** The events about `obj`, oldest first, with the list's resourceVersion (to watch from). */
export async function listEventsOf(
  conn: LiveConnection,
  obj: KubeObject,
): Promise<{ events: KubeObject[]; resourceVersion: string }> {
  const list = await conn.list(eventsPath(obj), { fieldSelector: eventFieldSelector(obj) });
  const events = list.items.map(typed('Event', 'v1')).sort((a, b) => lastSeen(a).localeCompare(lastSeen(b)));
  return { events, resourceVersion: list.resourceVersion };
}

/** Watches the events about `obj` from `resourceVersion`; `onEvent` gets each added or changed one. */
export function watchEventsOf(
  conn: LiveConnection,
  obj: KubeObject,
  resourceVersion: string,
  onEvent: (type: 'ADDED' | 'MODIFIED' | 'DELETED', event: KubeObject) => void,
  onEnd: (message?: string) => void,
): LiveWatch {
  return conn.watch(
    eventsPath(obj),
    resourceVersion,
    (e) => {
      if (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED')
        onEvent(e.type, typed('Event', 'v1')(e.object));
    },
    (error) => onEnd(error?.message),
    { fieldSelector: eventFieldSelector(obj) },
  );
}

function needConnection(deps: InspectDeps, title: string): LiveConnection | undefined {
  const conn = deps.connection();
  if (!conn) deps.ui.error(`${title}: no real cluster is shown (run "Kube Reconcile: Connect to Cluster…").`);
  return conn;
}

function liveObject(deps: InspectDeps, title: string, ref: ObjectRef): KubeObject | undefined {
  const obj = deps.viewed.cache.get(ref.resource, ref.namespace, ref.name);
  if (!obj) deps.ui.error(`${title}: ${refText(ref)} no longer exists in context "${deps.viewed.context ?? ''}".`);
  return obj;
}

const contextFlag = (deps: InspectDeps) => ` --context ${deps.viewed.context ?? ''}`;
const nsFlag = (ref: ObjectRef) => (ref.namespace ? ` -n ${ref.namespace}` : '');

/**
 * Show Events on a real context: the table of `kubectl get events --field-selector involvedObject.name=…`, then —
 * as `--watch` prints them — one row per event recorded or updated while the document is open.
 */
export async function showLiveEvents(deps: InspectDeps, ref: ObjectRef): Promise<void> {
  const conn = needConnection(deps, 'Show Events');
  const obj = conn && liveObject(deps, 'Show Events', ref);
  if (!conn || !obj) return;
  let listed: Awaited<ReturnType<typeof listEventsOf>>;
  try {
    listed = await listEventsOf(conn, obj);
  } catch (e) {
    deps.ui.error(`Show Events: ${errorMessage(e)}`);
    return;
  }
  const header =
    `# kubectl get events --field-selector involvedObject.name=${ref.name}${nsFlag(ref)}${contextFlag(deps)}` +
    ' --watch\n';
  const watches: LiveWatch[] = [];
  let closed = false;
  const doc = await deps.ui.openStream(
    `Events ${refText(ref)} (${deps.viewed.context ?? ''})`,
    header + eventsText(listed.events, deps.now(), ref.namespace),
    () => {
      closed = true;
      for (const w of watches) w.stop();
    },
  );
  if (closed) return;
  const watch = watchEventsOf(
    conn,
    obj,
    listed.resourceVersion,
    (type, event) => {
      if (type === 'DELETED') return;
      // kubectl get events --watch: each row as it comes, without the header again
      doc.append(formatTable(tableFor('Event', [event], deps.now()), { noHeaders: true }));
    },
    (message) => {
      if (!closed) doc.append(`# the watch ended${message ? `: ${message}` : ''}\n`);
    },
  );
  watches.push(watch);
}

/** The inputs of the describe printer for a live object: the cache's, plus what the informers do not watch. */
async function describeInputsLive(deps: InspectDeps, conn: LiveConnection, obj: KubeObject) {
  const ns = obj.metadata.namespace;
  const cache = deps.viewed.cache;
  const { events } = await listEventsOf(conn, obj);
  const inputs: Parameters<typeof describeObject>[1] = {
    events,
    pods: cache.list('pods', ns),
    replicaSets: cache.list('replicasets', ns),
  };
  if (obj.kind === 'Node') {
    // upstream (kubectl describe node): the node's non-terminated pods, by field selector, in every namespace
    const pods = await conn.list('/api/v1/pods', {
      fieldSelector: `spec.nodeName=${obj.metadata.name ?? ''},status.phase!=Succeeded,status.phase!=Failed`,
    });
    inputs.pods = pods.items.map(typed('Pod', 'v1'));
    try {
      const lease = await conn.request<KubeObject>(
        'GET',
        `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${encodeURIComponent(obj.metadata.name ?? '')}`,
      );
      inputs.lease = typed('Lease', 'coordination.k8s.io/v1')(lease);
    } catch {
      // kubectl describe prints the node without its lease when it cannot read it
    }
  }
  if (obj.kind === 'Service' && ns) {
    const slices = await conn.list(`/apis/discovery.k8s.io/v1/namespaces/${encodeURIComponent(ns)}/endpointslices`, {
      labelSelector: `kubernetes.io/service-name=${obj.metadata.name ?? ''}`,
    });
    inputs.endpointSlices = slices.items.map(typed('EndpointSlice', 'discovery.k8s.io/v1'));
  }
  return inputs;
}

/** Describe on a real context: the sandbox's `kubectl describe` printer on the live object. */
export async function describeLive(deps: InspectDeps, ref: ObjectRef): Promise<void> {
  const conn = needConnection(deps, 'Describe');
  const obj = conn && liveObject(deps, 'Describe', ref);
  if (!conn || !obj) return;
  if (!DESCRIBED_KINDS.includes(obj.kind)) {
    deps.ui.info(
      `Describe shows ${DESCRIBED_KINDS.map((k) => k.toLowerCase() + 's').join(', ')}; for ${refText(ref)} use Show Desired vs Actual or Copy as YAML.`,
    );
    return;
  }
  let text: string | undefined;
  try {
    text = describeObject(obj, await describeInputsLive(deps, conn, obj), deps.now());
  } catch (e) {
    deps.ui.error(`Describe: ${errorMessage(e)}`);
    return;
  }
  await deps.ui.showText(
    `Describe ${refText(ref)} (${deps.viewed.context ?? ''})`,
    `# kubectl describe ${obj.kind.toLowerCase()} ${ref.name}${nsFlag(ref)}${contextFlag(deps)}\n${text ?? ''}`,
  );
}

/** The containers `kubectl logs --all-containers` reads: init containers, then the others. */
function containersOf(pod: KubeObject): string[] {
  const spec = asResource('pods', pod).spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].map((c) => c.name);
}

/**
 * Show Logs (`previous`: Show Previous Logs) on a real context: every container of every pod the object runs, read
 * from the pod log API — followed (`kubectl logs -f`) until the document is closed, which ends every stream.
 */
export async function showLiveLogs(deps: InspectDeps, ref: ObjectRef, previous: boolean): Promise<void> {
  const title = previous ? 'Show Previous Logs' : 'Show Logs';
  const conn = needConnection(deps, title);
  if (!conn) return;
  if (!LOGGABLE.includes(ref.resource)) {
    deps.ui.error(`${title}: right-click a pod or a workload in the Cluster view.`);
    return;
  }
  const pods = podsOf(deps.viewed.cache, ref);
  if (pods.length === 0) {
    deps.ui.info(`${title}: ${refText(ref)} has no pods.`);
    return;
  }
  const sources = pods.flatMap((p) => containersOf(p).map((c) => ({ pod: p.metadata.name!, container: c })));
  const prefixed = sources.length > 1;
  const flags = [previous ? '--previous' : '-f', ...(prefixed ? ['--all-containers', '--prefix'] : [])];
  const header = `# kubectl logs ${flags.join(' ')} ${refText(ref)} -n ${ref.namespace ?? 'default'}${contextFlag(deps)}\n`;
  const streams: LiveWatch[] = [];
  let closed = false;
  const doc = await deps.ui.openStream(`Logs ${refText(ref)} (${deps.viewed.context ?? ''})`, header, () => {
    closed = true;
    for (const s of streams) s.stop();
  });
  const ns = encodeURIComponent(ref.namespace ?? 'default');
  for (const s of sources) {
    if (closed) return;
    const prefix = prefixed ? `[pod/${s.pod}/${s.container}] ` : undefined;
    const carry = { partial: '' };
    streams.push(
      conn.stream(
        `/api/v1/namespaces/${ns}/pods/${encodeURIComponent(s.pod)}/log`,
        { container: s.container, ...(previous ? { previous: true } : { follow: true }) },
        (text) => doc.append(prefixLines(text, prefix, carry)),
        (error) => {
          if (closed) return;
          // kubectl's error for this container (not started yet, no previous instance…), in place of its lines
          if (error) doc.append(`# ${prefix ?? ''}${error.message}\n`);
          else if (carry.partial) doc.append(`${prefix ?? ''}${carry.partial}\n`);
        },
      ),
    );
  }
}

/** Copy as YAML on a real context: the live object as the informers last saw it. */
export async function copyLiveYaml(deps: InspectDeps, ref: ObjectRef): Promise<void> {
  const obj = liveObject(deps, 'Copy as YAML', ref);
  if (!obj) return;
  await deps.ui.copy(liveYaml(obj));
  deps.ui.notify(`Copied ${refText(ref)} of context "${deps.viewed.context ?? ''}" as YAML`);
}
