/**
 * Show Logs, Show Previous Logs and Describe, on a pod or a workload:
 * `kubectl logs -f` of every container of every pod the object runs (with
 * kubectl's `--prefix` when there is more than one), streamed into a read-only
 * document until it is closed; `kubectl describe`'s sections and events, read
 * from the mirror cache as kubectl reads them from the API.
 */
import { asResource } from '../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../sandbox/api/types';
import { DESCRIBED_KINDS, describeObject } from '../../../sandbox/printers/describe/describe';
import type { DescribeInputs } from '../../../sandbox/printers/describe/describe';
import { eventsFor } from '../model/events';
import { refText } from '../model/objectRef';
import type { MirrorCache } from '../sandbox/mirror';
import type { ObjectRef } from '../sandbox/protocol';
import type { CommandContext, CommandFactory } from './context';
import { errorMessage } from './context';
import { targetOf } from './objectArg';

/** What Show Logs works on: a pod, or a workload whose pods it gathers. */
export const LOGGABLE = ['pods', 'deployments', 'replicasets', 'statefulsets', 'daemonsets', 'jobs'];

/** The pods `ref` runs: the pod itself, or those it controls, through ReplicaSets for a Deployment. */
export function podsOf(cache: MirrorCache, ref: ObjectRef): KubeObject[] {
  const obj = cache.get(ref.resource, ref.namespace, ref.name);
  if (!obj) return [];
  if (ref.resource === 'pods') return [obj];
  const owned = (uid: string | undefined, resource: string) =>
    uid === undefined ? [] : cache.ownedBy(resource, uid).filter((o) => o.metadata.namespace === ref.namespace);
  if (ref.resource === 'deployments')
    return owned(obj.metadata.uid, 'replicasets').flatMap((rs) => owned(rs.metadata.uid, 'pods'));
  return owned(obj.metadata.uid, 'pods');
}

/** The containers whose logs `kubectl logs --all-containers` prints: init containers, then the others. */
function containersOf(pod: KubeObject): string[] {
  const spec = asResource('pods', pod).spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].map((c) => c.name);
}

/** `kubectl logs --prefix`: each line led by `[pod/NAME/CONTAINER] `; text as it is with one source. */
export function prefixLines(text: string, prefix: string | undefined, carry: { partial: string }): string {
  if (prefix === undefined) return text;
  const all = carry.partial + text;
  const lines = all.split('\n');
  carry.partial = lines.pop() ?? '';
  return lines.map((l) => `${prefix}${l}\n`).join('');
}

function logsCommand(previous: boolean): CommandFactory {
  const title = previous ? 'Show Previous Logs' : 'Show Logs';
  return (ctx) => async (arg) => {
    const ref = targetOf(ctx, title, arg, LOGGABLE);
    if (!ref) return;
    const pods = podsOf(ctx.connection.cache, ref);
    if (pods.length === 0) {
      ctx.ui.info(`${title}: ${refText(ref)} has no pods.`);
      return;
    }
    const sources = pods.flatMap((p) => containersOf(p).map((c) => ({ pod: p.metadata.name!, container: c })));
    const prefixed = sources.length > 1;
    const flags = [previous ? '--previous' : '-f', ...(prefixed ? ['--all-containers', '--prefix'] : [])];
    const header = `# kubectl logs ${flags.join(' ')} ${refText(ref)} -n ${ref.namespace ?? 'default'}\n`;
    const streams: number[] = [];
    let closed = false;
    const doc = await ctx.ui.openStream(`Logs ${refText(ref)}`, header, () => {
      closed = true;
      for (const stream of streams) void ctx.connection.request('stopPodLogs', { stream }).catch(() => undefined);
      subscription.dispose();
    });
    const carries = new Map<number, { prefix: string | undefined; carry: { partial: string } }>();
    const subscription = ctx.connection.onDidPodLog((n) => {
      const source = carries.get(n.stream);
      if (!source) return;
      if (n.text !== undefined) doc.append(prefixLines(n.text, source.prefix, source.carry));
      if (n.end !== undefined) doc.append(`# ${source.prefix ?? ''}stream ended: ${n.end}\n`);
    });
    for (const s of sources) {
      if (closed) return;
      const prefix = prefixed ? `[pod/${s.pod}/${s.container}] ` : undefined;
      try {
        const reply = await ctx.connection.request('podLogs', {
          namespace: ref.namespace ?? 'default',
          name: s.pod,
          container: s.container,
          ...(previous ? { previous: true } : { follow: true }),
        });
        const carry = { partial: '' };
        doc.append(prefixLines(reply.text, prefix, carry));
        if (reply.stream !== undefined) {
          if (closed) void ctx.connection.request('stopPodLogs', { stream: reply.stream }).catch(() => undefined);
          else {
            streams.push(reply.stream);
            carries.set(reply.stream, { prefix, carry });
          }
        }
      } catch (e) {
        // kubectl's error for this container (not started yet, no previous instance…), in place of its lines.
        doc.append(`# ${prefix ?? ''}${errorMessage(e)}\n`);
      }
    }
  };
}

export const showLogs = logsCommand(false);
export const showPreviousLogs = logsCommand(true);

/** What `kubectl describe` would list for `obj`, read from the cache. */
export function describeInputs(cache: MirrorCache, obj: KubeObject): DescribeInputs {
  const ns = obj.metadata.namespace;
  return {
    events: eventsFor(cache, obj),
    pods: obj.kind === 'Node' ? cache.list('pods') : cache.list('pods', ns),
    replicaSets: cache.list('replicasets', ns),
    endpointSlices: cache.list('endpointslices', ns),
    ...(obj.kind === 'Node' ? { lease: cache.get('leases', 'kube-node-lease', obj.metadata.name!) } : {}),
  };
}

export const describe: CommandFactory = (ctx: CommandContext) => async (arg) => {
  const ref = targetOf(ctx, 'Describe', arg);
  if (!ref) return;
  const obj = ctx.connection.cache.get(ref.resource, ref.namespace, ref.name);
  if (!obj) {
    ctx.ui.error(`Describe: ${refText(ref)} no longer exists.`);
    return;
  }
  const text = describeObject(obj, describeInputs(ctx.connection.cache, obj), ctx.connection.status?.time ?? 0);
  if (text === undefined) {
    ctx.ui.info(
      `Describe shows ${DESCRIBED_KINDS.map((k) => k.toLowerCase() + 's').join(', ')}; for ${refText(ref)} use Show Desired vs Actual or Copy as YAML.`,
    );
    return;
  }
  const where = ref.namespace ? ` -n ${ref.namespace}` : '';
  await ctx.ui.showText(
    `Describe ${refText(ref)}`,
    `# kubectl describe ${obj.kind.toLowerCase()} ${ref.name}${where}\n${text}`,
  );
};
