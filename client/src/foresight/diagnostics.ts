/**
 * Scheduler-backed diagnostics: what the plan of a document finds wrong, placed on the field that causes it — pods
 * that would stay Pending at the workload's `replicas` (or at the container's `resources.requests` when the scheduler
 * says Insufficient cpu/memory) with the scheduler's message verbatim, a rollout that would get stuck, a Job that
 * would fail, a Service left without ready endpoints, a document the API server would refuse. Pure: the plan and the
 * document's text in, diagnostics out (positions from the same parser as the language server's).
 */
import { Quantity, formatQuantity, parseQuantity, quantityToMilli, quantityValue } from '../../../sandbox/api/quantity';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import type { ManifestToApply } from '../../../sandbox/manifests/parseManifests';
import type { PlanCapacity, PlanContainerProblem, PlanObject, PlanReport } from '../../../sandbox/plan/types';
import { lineOfSource } from './lenses';

export const FORESIGHT_SOURCE = 'kube-reconcile plan';

/** A single-line range: 0-based line and characters. */
export interface Span {
  line: number;
  character: number;
  endCharacter: number;
}

/** A quick fix: replace `span` with `text`. */
export interface ForesightFix {
  title: string;
  span: Span;
  text: string;
}

export interface ForesightDiagnostic extends Span {
  code: 'pending' | 'crashloop' | 'probe' | 'stuck' | 'failed' | 'endpoints' | 'refused';
  message: string;
  /** Shown under the message in the hover: each Pending pod with its scheduler message. */
  related: string[];
  /** Quick fixes, the preferred one first. */
  fixes?: ForesightFix[];
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The key of `field` in the document (or the nearest enclosing key), on one line. */
function keySpan(doc: ManifestToApply, field: (string | number)[]): Span {
  const s = doc.fieldSpan(field);
  return { line: s.line, character: s.character, endCharacter: s.line === s.endLine ? s.endCharacter : s.character };
}

/** The value of a `replicas: N` line, to replace. */
function replicasValue(lines: readonly string[], line: number): Span | undefined {
  const m = /^(\s*replicas:\s*)(\d+)\s*(#.*)?$/.exec(lines[line] ?? '');
  return m ? { line, character: m[1].length, endCharacter: m[1].length + m[2].length } : undefined;
}

/** The first container (regular, then init) whose requests name `resource`, as a path to its `resources.requests`. */
function requestsPath(object: unknown, podSpec: string[], resource: string): (string | number)[] | undefined {
  let spec: unknown = object;
  for (const k of podSpec) spec = (spec as Record<string, unknown> | undefined)?.[k];
  for (const list of ['containers', 'initContainers']) {
    const containers = (spec as Record<string, unknown> | undefined)?.[list];
    if (!Array.isArray(containers)) continue;
    const i = containers.findIndex(
      (c) =>
        (c as { resources?: { requests?: Record<string, unknown> } })?.resources?.requests?.[resource] !== undefined,
    );
    if (i >= 0) return [...podSpec, list, i, 'resources', 'requests'];
  }
  return undefined;
}

/** Most Pending pods the hover names one by one. */
export const MAX_RELATED_PODS = 5;

/** The hover's lines: each node's reasons for the first pod (when the scheduler said), then the pods. */
function relatedOf(pods: PlanReport['pending'], nodeReasons: Readonly<Record<string, readonly string[]>>): string[] {
  const nodes = nodeReasons[pods[0].pod] ?? [];
  const named = pods.slice(0, MAX_RELATED_PODS).map((p) => `${p.pod}: ${p.message}`);
  const more = pods.length > MAX_RELATED_PODS ? [`… and ${pods.length - MAX_RELATED_PODS} more Pending pods`] : [];
  return [...nodes, ...named, ...more];
}

/** Where the pod spec is in a workload, by kind. */
function podSpecPath(kind: string): string[] {
  if (kind === 'Pod') return ['spec'];
  if (kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  return ['spec', 'template', 'spec'];
}

/** The plan object for `Kind ns/name` (a Pending pod's owner), among the document's objects. */
function objectOf(objects: readonly PlanObject[], kind: string, name: string): PlanObject | undefined {
  const [ns, n] = name.includes('/') ? name.split('/', 2) : [undefined, name];
  return objects.find((o) => {
    const slash = o.ref.indexOf('/');
    const refKind = o.ref.slice(0, slash).split('.')[0];
    return refKind === kind.toLowerCase() && o.ref.slice(slash + 1) === n && (ns === undefined || o.namespace === ns);
  });
}

type Resource = 'cpu' | 'memory';

/** A request in millicores (cpu) or bytes (memory); undefined when it is not a quantity. */
function amountOf(raw: unknown, resource: Resource): number | undefined {
  const q = typeof raw === 'string' || typeof raw === 'number' ? parseQuantity(raw) : undefined;
  if (!q) return undefined;
  return resource === 'cpu' ? quantityToMilli(q) : quantityValue(q);
}

/** Millicores or bytes as upstream prints the quantity (`500m`, `2`, `1300Mi`, `1Gi`). */
export function formatAmount(amount: number, resource: Resource): string {
  return resource === 'cpu'
    ? formatQuantity(new Quantity(BigInt(amount) * 1_000_000n, 'DecimalSI'))
    : formatQuantity(new Quantity(BigInt(amount) * 1_000_000_000n, 'BinarySI'));
}

const MI = 1024 * 1024;

/**
 * Rounded down to a round figure: millicores to two significant digits (`1333m` → `1300m`); memory to a quarter GiB
 * from 1Gi up (`7.3Gi` → `7Gi`, `1.4Gi` → `1280Mi`), else to two significant digits of MiB (`683Mi` → `680Mi`).
 */
function roundDown(amount: number, resource: Resource): number {
  if (resource === 'memory' && amount >= 1024 * MI) return Math.floor(amount / (256 * MI)) * 256 * MI;
  const unit = resource === 'cpu' ? 1 : MI;
  const n = Math.floor(amount / unit);
  if (n < 100) return n * unit;
  const step = 10 ** (String(n).length - 2);
  return Math.floor(n / step) * step * unit;
}

/** How many pods of `request` (millicores, bytes) a node's free capacity holds. */
function podsThatFit(free: { cpu: number; memory: number; pods: number }, request: { cpu: number; memory: number }) {
  const by = (room: number, need: number) => (need <= 0 ? Infinity : Math.floor(room / need));
  return Math.max(0, Math.min(free.pods, by(free.cpu, request.cpu), by(free.memory, request.memory)));
}

/**
 * The largest request for one container's `resource` (now `current`) with which `replicas` pods of the owner fit on
 * the nodes a smaller request can help (not `blocked`), from the plan's free capacity, rounded down to two significant
 * digits; with the nodes the pods would take, most room first. Undefined when even the smallest request would not do,
 * or when nothing smaller than `current` is needed.
 */
export function requestThatFits(
  capacity: PlanCapacity,
  resource: Resource,
  current: number,
  replicas: number,
): { amount: number; nodes: string[] } | undefined {
  const cpu = amountOf(capacity.request.cpu, 'cpu');
  const memory = amountOf(capacity.request.memory, 'memory');
  if (cpu === undefined || memory === undefined) return undefined;
  const pod = { cpu, memory };
  const others = pod[resource] - current;
  const nodes = capacity.nodes
    .filter((n) => !n.blocked)
    .map((n) => ({
      node: n.node,
      free: {
        cpu: amountOf(n.free.cpu, 'cpu') ?? 0,
        memory: amountOf(n.free.memory, 'memory') ?? 0,
        pods: n.free.pods,
      },
    }));
  const fitting = (amount: number) =>
    nodes.reduce((sum, n) => sum + podsThatFit(n.free, { ...pod, [resource]: others + amount }), 0);
  if (current <= 1 || fitting(current) >= replicas) return undefined;
  const floor = resource === 'cpu' ? 1 : MI;
  if (fitting(floor) < replicas) return undefined;
  // The most that fits: fitting() only grows as the request shrinks.
  let lo = floor;
  let hi = current - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fitting(mid) >= replicas) lo = mid;
    else hi = mid - 1;
  }
  const amount = Math.max(floor, roundDown(lo, resource));
  const request = { ...pod, [resource]: others + amount };
  const placed: string[] = [];
  let left = replicas;
  for (const n of [...nodes].sort((a, b) => podsThatFit(b.free, request) - podsThatFit(a.free, request))) {
    if (left <= 0) break;
    const k = podsThatFit(n.free, request);
    if (k === 0) continue;
    placed.push(n.node);
    left -= k;
  }
  return { amount, nodes: placed.sort() };
}

/** The quick fix lowering a container's request (a `cpu: 2` line under its `resources.requests`) to what fits. */
function lowerRequestFix(
  doc: ManifestToApply,
  lines: readonly string[],
  path: (string | number)[],
  resource: Resource,
  capacity: PlanCapacity | undefined,
  replicas: number,
): ForesightFix | undefined {
  // Only a regular container's request adds up into the pod's as the sum does (an init container's is a maximum).
  if (!capacity || !path.includes('containers')) return undefined;
  let requests: unknown = doc.object;
  for (const k of path) requests = (requests as Record<string | number, unknown> | undefined)?.[k];
  const current = amountOf((requests as Record<string, unknown> | undefined)?.[resource], resource);
  if (current === undefined) return undefined;
  const fits = requestThatFits(capacity, resource, current, replicas);
  if (!fits) return undefined;
  const line = keySpan(doc, [...path, resource]).line;
  const m = new RegExp(`^(\\s*(?:-\\s+)?${resource}:\\s*)(["']?)([^"'#\\s]+)\\2\\s*(#.*)?$`).exec(lines[line] ?? '');
  if (!m) return undefined;
  const value = formatAmount(fits.amount, resource);
  return {
    title: `Lower requests.${resource} to ${value} (fits on ${fits.nodes.join(', ')})`,
    span: { line, character: m[1].length, endCharacter: m[1].length + m[2].length * 2 + m[3].length },
    text: `${m[2]}${value}${m[2]}`,
  };
}

/** Where a container is in its workload: `[...pod spec, 'containers' | 'initContainers', index]`. */
function containerPath(object: unknown, kind: string, name: string, init: boolean): (string | number)[] | undefined {
  let spec: unknown = object;
  const podSpec = podSpecPath(kind);
  for (const k of podSpec) spec = (spec as Record<string, unknown> | undefined)?.[k];
  const list = init ? 'initContainers' : 'containers';
  const containers = (spec as Record<string, unknown> | undefined)?.[list];
  if (!Array.isArray(containers)) return undefined;
  const i = containers.findIndex((c) => (c as { name?: unknown } | null)?.name === name);
  return i < 0 ? undefined : [...podSpec, list, i];
}

/** A container problem's diagnostic: a crash loop at its `command` (or `image`), a failing probe at the probe. */
function containerDiagnostic(doc: ManifestToApply, kind: string, c: PlanContainerProblem): ForesightDiagnostic {
  const path = containerPath(doc.object, kind, c.container, c.init === true);
  const spec = (() => {
    let v: unknown = doc.object;
    for (const k of path ?? []) v = (v as Record<string | number, unknown> | undefined)?.[k];
    return (v ?? {}) as Record<string, unknown>;
  })();
  const pods = kind === 'Pod' ? '' : ` in ${plural(c.pods, 'pod')}`;
  const exit =
    c.exitCode !== undefined ? `; last termination: ${c.reason ? `${c.reason}, ` : ''}exit code ${c.exitCode}` : '';
  const related = [
    ...(c.lastLogLine !== undefined ? [`last log line: ${c.lastLogLine}`] : []),
    ...(c.restarts ? [`${c.pod}: ${plural(c.restarts, 'restart')}`] : []),
  ];
  const what = c.init ? 'Init container' : 'Container';
  if (c.problem === 'crashloop') {
    const field = spec.command !== undefined ? 'command' : 'image';
    return {
      ...keySpan(doc, path ? [...path, field] : ['spec']),
      code: 'crashloop',
      message: `${what} ${c.container} would crash-loop${pods} (CrashLoopBackOff): ${c.message}${exit}`,
      related,
    };
  }
  const probe = `${c.problem}Probe`;
  const head =
    c.problem === 'readiness'
      ? `The readiness probe of ${c.container} would never pass${pods}`
      : `The ${c.problem} probe of ${c.container} would keep failing${pods}: the kubelet restarts the container`;
  return {
    ...keySpan(doc, path ? [...path, probe] : ['spec']),
    code: 'probe',
    message: `${head}: ${c.message}${exit}`,
    related,
  };
}

/**
 * The diagnostics of a document's plan. `text` is the text that was planned: documents are found by the line each
 * plan object's `source` names, so a finding about an object of another file (or none) is left out.
 */
export function foresightDiagnostics(
  report: PlanReport,
  text: string,
  nodeReasons: Readonly<Record<string, readonly string[]>> = {},
  parsed?: readonly ManifestToApply[],
): ForesightDiagnostic[] {
  // The text's documents are parsed only when a finding needs a position (the worker passes its own parse).
  let documents = parsed;
  const manifestsOf = () => (documents ??= manifestObjects(text).manifests);
  const lines = text.split(/\r?\n/);
  const docAt = (o: PlanObject | undefined): ManifestToApply | undefined => {
    const line = o && o.action !== 'pruned' ? lineOfSource(o.source) : undefined;
    return line === undefined ? undefined : manifestsOf().find((m) => m.line === line);
  };
  const out: ForesightDiagnostic[] = [];

  // Pending pods, by the workload (or bare pod) that declared them.
  const byOwner = new Map<string, typeof report.pending>();
  for (const p of report.pending) {
    const owner = p.owner ?? `Pod ${p.pod}`;
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), p]);
  }
  for (const [owner, pods] of byOwner) {
    const space = owner.indexOf(' ');
    const kind = owner.slice(0, space);
    const name = owner.slice(space + 1);
    const object = objectOf(report.objects, kind, name);
    const doc = docAt(object);
    if (!object || !doc) continue;
    const message = pods[0].message;
    const spec = (doc.object as { spec?: { replicas?: unknown } }).spec;
    const replicas =
      report.rollouts.find((r) => r.deployment === name)?.replicas ??
      (typeof spec?.replicas === 'number' ? spec.replicas : undefined);
    const head =
      kind === 'Pod'
        ? 'The pod would stay Pending'
        : replicas !== undefined
          ? `${pods.length} of ${plural(replicas, 'replica')} would stay Pending`
          : `${plural(pods.length, 'pod')} would stay Pending`;
    const insufficient = /Insufficient (cpu|memory)/.exec(message)?.[1];
    const requests = insufficient ? requestsPath(doc.object, podSpecPath(kind), insufficient) : undefined;
    const at = keySpan(doc, requests ?? (kind === 'Pod' ? ['spec'] : ['spec', 'replicas']));
    const diagnostic: ForesightDiagnostic = {
      ...at,
      code: 'pending',
      message: `${head}: ${message}`,
      related: relatedOf(pods, nodeReasons),
    };
    const fixes: ForesightFix[] = [];
    // Every pod of the owner gets the lowered request: all of them must fit (a DaemonSet's or a Job's count is not
    // replicas, so they get no such fix).
    const wanted =
      kind === 'Pod' ? 1 : ['Deployment', 'StatefulSet', 'ReplicaSet'].includes(kind) ? replicas : undefined;
    const capacity = report.capacity?.find((c) => c.owner === owner);
    const lower =
      requests && insufficient && wanted !== undefined
        ? lowerRequestFix(doc, lines, requests, insufficient as Resource, capacity, wanted)
        : undefined;
    if (lower) fixes.push(lower);
    if (replicas !== undefined && kind !== 'Pod' && kind !== 'DaemonSet') {
      const value = replicasValue(lines, keySpan(doc, ['spec', 'replicas']).line);
      const fits = replicas - pods.length;
      if (value && fits >= 0)
        fixes.push({ title: `Lower replicas to ${fits} (what fits)`, span: value, text: String(fits) });
    }
    if (fixes.length > 0) diagnostic.fixes = fixes;
    out.push(diagnostic);
  }

  for (const c of report.containers ?? []) {
    const space = c.owner.indexOf(' ');
    const kind = c.owner.slice(0, space);
    const doc = docAt(objectOf(report.objects, kind, c.owner.slice(space + 1)));
    if (doc) out.push(containerDiagnostic(doc, kind, c));
  }
  for (const r of report.rollouts) {
    if (r.outcome !== 'stuck' || byOwner.has(`Deployment ${r.deployment}`)) continue;
    const doc = docAt(objectOf(report.objects, 'Deployment', r.deployment));
    if (!doc) continue;
    out.push({
      ...keySpan(doc, ['spec', 'template']),
      code: 'stuck',
      message: `The rollout would get stuck: ${r.message ?? 'ProgressDeadlineExceeded'}`,
      related: [],
    });
  }
  for (const w of report.workloads) {
    if (w.outcome !== 'failed') continue;
    const doc = docAt(objectOf(report.objects, w.kind, w.workload));
    if (!doc) continue;
    out.push({
      ...keySpan(doc, ['spec', 'template']),
      code: 'failed',
      message: `The Job would fail${w.message ? `: ${w.message}` : ''}`,
      related: [],
    });
  }
  for (const s of report.services) {
    const lost = s.after === 0 || ((s.before ?? 0) > 0 && s.min === 0);
    if (!lost) continue;
    const doc = docAt(objectOf(report.objects, 'Service', s.service));
    if (!doc) continue;
    const now = s.before === undefined ? '' : ` (${s.before} now)`;
    out.push({
      ...keySpan(doc, ['spec', 'selector']),
      code: 'endpoints',
      message:
        s.after === 0
          ? `Service ${s.service} would have no ready endpoints${now}`
          : `Service ${s.service} drops to 0 ready endpoints during the rollout${now}, ${s.after} after`,
      related: [],
    });
  }
  for (const o of report.objects) {
    if (o.action !== 'refused') continue;
    const line = lineOfSource(o.source);
    if (line === undefined) continue;
    out.push({
      line,
      character: 0,
      endCharacter: (lines[line] ?? '').length,
      code: 'refused',
      message: `The API server would refuse this: ${o.message ?? ''}`.trim(),
      related: [],
    });
  }
  return out.sort((a, b) => a.line - b.line || a.character - b.character);
}
