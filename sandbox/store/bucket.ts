/**
 * The objects of one kind, by namespace then name, with the names kept in
 * sorted order lazily (sorted on the first list after an add or remove), so
 * that lists come back in key order as they do from etcd.
 */
import type { KubeObject } from '../api/types';

class NamespaceBucket {
  readonly items = new Map<string, KubeObject>();
  private sorted: string[] | null = null;

  /** Stores `obj` under `name`; returns the object it replaces. */
  put(name: string, obj: KubeObject): KubeObject | undefined {
    const previous = this.items.get(name);
    if (!previous) this.sorted = null;
    this.items.set(name, obj);
    return previous;
  }

  /** Stores `obj` under `name`, `before(obj)` first, unless the name is taken; whether it did. */
  add(name: string, obj: KubeObject, before: (obj: KubeObject) => void): boolean {
    const items = this.items;
    if (items.has(name)) return false;
    before(obj);
    items.set(name, obj);
    this.sorted = null;
    return true;
  }

  delete(name: string): void {
    if (this.items.delete(name)) this.sorted = null;
  }

  sortedNames(): string[] {
    if (this.sorted === null) this.sorted = [...this.items.keys()].sort();
    return this.sorted;
  }
}

export class KindBucket {
  private readonly namespaces = new Map<string, NamespaceBucket>();
  private sortedNamespaces: string[] | null = null;
  private total = 0;

  get size(): number {
    return this.total;
  }

  get(namespace: string, name: string): KubeObject | undefined {
    return this.namespaces.get(namespace)?.items.get(name);
  }

  set(namespace: string, name: string, obj: KubeObject): void {
    this.put(namespace, name, obj);
  }

  /** Stores `obj` under its key and returns the object it replaces: one lookup of the namespace and of the name. */
  put(namespace: string, name: string, obj: KubeObject): KubeObject | undefined {
    const previous = this.namespace(namespace).put(name, obj);
    if (!previous) this.total++;
    return previous;
  }

  /**
   * Stores `obj` under the key, calling `before(obj)` first, unless an object is stored there (then `before` is not
   * called); whether it did. One look-up of the namespace and of the name for both.
   */
  add(namespace: string, name: string, obj: KubeObject, before: (obj: KubeObject) => void): boolean {
    if (!this.namespace(namespace).add(name, obj, before)) return false;
    this.total++;
    return true;
  }

  /** The namespace's bucket, made when it is the first object of the namespace. */
  private namespace(namespace: string): NamespaceBucket {
    let ns = this.namespaces.get(namespace);
    if (ns === undefined) {
      ns = new NamespaceBucket();
      this.namespaces.set(namespace, ns);
      this.sortedNamespaces = null;
    }
    return ns;
  }

  delete(namespace: string, name: string): void {
    const ns = this.namespaces.get(namespace);
    if (!ns || !ns.items.has(name)) return;
    ns.delete(name);
    this.total--;
    if (ns.items.size === 0) {
      this.namespaces.delete(namespace);
      this.sortedNamespaces = null;
    }
  }

  /** Objects in key order; of one namespace when `namespace` is given. */
  list(namespace?: string): KubeObject[] {
    const out: KubeObject[] = [];
    const names = namespace === undefined ? this.namespaceNames() : [namespace];
    for (const nsName of names) {
      const ns = this.namespaces.get(nsName);
      if (!ns) continue;
      for (const name of ns.sortedNames()) out.push(ns.items.get(name)!);
    }
    return out;
  }

  /** Calls `fn` for each object in insertion order (no sorting); for scans that don't care about order. */
  forEach(fn: (obj: KubeObject) => void): void {
    for (const ns of this.namespaces.values()) for (const obj of ns.items.values()) fn(obj);
  }

  private namespaceNames(): string[] {
    if (this.sortedNamespaces === null) this.sortedNamespaces = [...this.namespaces.keys()].sort();
    return this.sortedNamespaces;
  }
}
