/**
 * The resources one API server serves: the built-in kinds of its Kubernetes release (the stable API versions
 * a kube-apiserver of that release serves by default, from sandbox/api/resources.ts and the release's schema),
 * followed by the resources of its established CustomResourceDefinitions, registered and removed while it runs.
 * Discovery, OpenAPI, the HTTP routes and the API server's verbs all look resources up here, so a CRD's kinds are
 * served everywhere the moment it is established.
 */
import { DEFAULT_KUBERNETES_VERSION, kindEntry, kubernetesVersion } from '../schema/schema';
import type { ResourceType } from './resources';
import { ALL_RESOURCES, apiVersionOf, findByName } from './resources';
import { GvkIndex } from './gvkIndex';

/** Whether a release's kube-apiserver serves this built-in group version by default (stable versions only). */
function servedByDefault(r: ResourceType, version: string): boolean {
  // upstream: kube-apiserver's DefaultAPIResourceConfigSource enables GA versions; beta APIs introduced since 1.24
  // are off by default (KEP-3136) and alpha ones always are. The release's schema says which kinds it has.
  if (!/^v\d+$/.test(r.version)) return false;
  if (r.serving === 'create-only' || r.serving === 'read-only') return true;
  return kindEntry(apiVersionOf(r), r.kind, version) !== undefined;
}

/**
 * Every stored kind of the default release, once (its preferred version), in discovery order. A server's own list
 * (its release, its CRDs) is `ApiServer.resources.storedKinds()`.
 */
export const RESOURCES: readonly ResourceType[] = Object.freeze(
  ALL_RESOURCES.filter(
    (r, i) =>
      (r.serving ?? 'stored') === 'stored' &&
      kindEntry(apiVersionOf(r), r.kind, DEFAULT_KUBERNETES_VERSION) !== undefined &&
      ALL_RESOURCES.findIndex((o) => o.group === r.group && o.kind === r.kind) === i,
  ),
);

/** The most names `ResourceRegistry.byName` remembers. */
const MAX_NAMES = 1024;

export class ResourceRegistry {
  private readonly builtIn: readonly ResourceType[];
  private readonly custom = new Map<string, readonly ResourceType[]>();
  private cache: readonly ResourceType[] | undefined;
  private readonly byGvk = new GvkIndex<ResourceType>();
  private readonly byPlural = new Map<string, ResourceType>();
  /**
   * `byName`'s answers (null: none) since the list last changed: the kubelets' and the scheduler's reads name their
   * resource (`'pods'`, `'services'`) on every call, and the look-up walks the list (issue 16: ~0.8% of the quick
   * envelope). Bounded (names can be anything a user types): past `MAX_NAMES` a new name is looked up every time.
   */
  private readonly named = new Map<string, ResourceType | null>();
  private readonly listeners: (() => void)[] = [];
  /** Bumped on every change: memos of documents built from the registry compare it. */
  generation = 0;

  constructor(readonly kubernetesVersion: string) {
    this.builtIn = ALL_RESOURCES.filter((r) => servedByDefault(r, kubernetesVersion));
    this.index();
  }

  /** Every served resource: built-in kinds in table order, then custom resources by CRD name. */
  list(): readonly ResourceType[] {
    this.cache ??= Object.freeze([
      ...this.builtIn,
      ...[...this.custom.keys()].sort().flatMap((k) => this.custom.get(k)!),
    ]);
    return this.cache;
  }

  /**
   * One resource per stored kind (group and kind), its preferred version: what lists, watches and reports of
   * "everything" go through (create-only and computed resources left out, each kind once).
   */
  storedKinds(): readonly ResourceType[] {
    const seen = new Set<string>();
    return this.list().filter((r) => {
      if ((r.serving ?? 'stored') !== 'stored') return false;
      const key = `${r.group}/${r.kind}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** The resource of an object's `apiVersion` + `kind`, or undefined when not served. */
  forGvk(apiVersion: string, kind: string): ResourceType | undefined {
    return this.byGvk.get(apiVersion, kind);
  }

  /** The resource of a URL: `(apps, v1, deployments)`. */
  forPlural(group: string, version: string, plural: string): ResourceType | undefined {
    return this.byPlural.get(`${group}|${version}|${plural}`);
  }

  /** Any name kubectl accepts (plural, singular, kind, short name, `plural.group`); built-in kinds first. */
  byName(name: string): ResourceType | undefined {
    const known = this.named.get(name);
    if (known !== undefined) return known ?? undefined;
    const found = findByName(this.list(), name);
    if (this.named.size < MAX_NAMES) this.named.set(name, found ?? null);
    return found;
  }

  /** The resources of a CRD (one per served version, preferred first), or undefined to remove them. */
  setCustom(crdName: string, resources: readonly ResourceType[] | undefined): void {
    const before = this.custom.get(crdName);
    if (resources === undefined || resources.length === 0) {
      if (before === undefined) return;
      this.custom.delete(crdName);
    } else this.custom.set(crdName, Object.freeze([...resources]));
    this.index();
    this.generation++;
    for (const l of [...this.listeners]) l();
  }

  /** The resources registered for a CRD, empty when none are. */
  customOf(crdName: string): readonly ResourceType[] {
    return this.custom.get(crdName) ?? [];
  }

  /** Called after every change of the served custom resources. */
  onChange(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private index(): void {
    this.cache = undefined;
    this.named.clear();
    this.byGvk.clear();
    this.byPlural.clear();
    // Built-in kinds win over a CRD that names the same group, version and plural (upstream: kube-apiserver's own
    // handlers serve the path before the apiextensions server is asked).
    for (const r of [...this.list()].reverse()) {
      this.byGvk.set(apiVersionOf(r), r.kind, r);
      this.byPlural.set(`${r.group}|${r.version}|${r.plural}`, r);
    }
    for (const r of this.builtIn) {
      this.byGvk.set(apiVersionOf(r), r.kind, r);
      this.byPlural.set(`${r.group}|${r.version}|${r.plural}`, r);
    }
  }
}

const defaults = new Map<string, ResourceRegistry>();

/**
 * A registry of the built-in kinds of the active release alone (no CRDs): what documents answer when asked
 * without a server (tests, the language server).
 */
export function defaultRegistry(): ResourceRegistry {
  const version = kubernetesVersion();
  let r = defaults.get(version);
  if (r === undefined) defaults.set(version, (r = new ResourceRegistry(version)));
  return r;
}
