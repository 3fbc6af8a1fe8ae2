/**
 * The causal timeline: a bounded, structured log of what happened to objects and why — the API writes (verb, object,
 * resourceVersion, field manager), `kubectl apply` with the manifest's `file:line`, the components' decisions (each
 * Event they record, with the object the decision acted on), and pods' phase and readiness transitions.
 *
 * Memory is bounded by one global cap (`capacity` entries, default 10,000): a ring, the oldest entry dropped first;
 * the per-object index forgets objects whose last entry was dropped. A chain that reaches a dropped entry says so.
 *
 * The causal link is kept as entries are recorded, by one rule:
 * - an apply is a root (no cause);
 * - a decision that acts on another object (the Deployment controller scaling a ReplicaSet, the ReplicaSet
 *   controller creating a pod: its `target`) is caused by the last step about its subject, and becomes the last step
 *   about its target;
 * - any other decision or transition about an object is caused by the last step about that object, and becomes it;
 * - a plain API write is caused by the last step about its object but is not a step itself (it is the effect).
 * So a pod's chain reads back: kubelet transitions ← scheduler ← "Created pod" ← "Scaled up replica set" ← the apply.
 *
 * Time comes from the caller (the injected clock); nothing here reads the wall clock.
 */

/** The object an entry is about: kind (`Deployment`), namespace ('' when cluster-scoped), name. */
export interface TimelineRef {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

export type TimelineEntryType = 'apply' | 'write' | 'decision' | 'transition';

export interface TimelineEntry {
  /** Increasing from 1; an entry's cause has a smaller id. */
  readonly id: number;
  /** Clock time, ms since epoch. */
  readonly time: number;
  readonly type: TimelineEntryType;
  /** `apply`, `api-server` (writes), a component's name (`deployment-controller`, `scheduler`, `kubelet`). */
  readonly component: string;
  readonly subject: TimelineRef;
  /** The object a decision acted on, when not its subject (the ReplicaSet scaled, the pod created). */
  readonly target?: TimelineRef;
  /** A decision's reason (the Event's), a write's verb (`create`, `update`, `delete`), or `created`/`configured`. */
  readonly what: string;
  readonly message: string;
  /** Why, when the component says more than its message (`new template`, `replicas changed`). */
  readonly why?: string;
  readonly level?: 'Normal' | 'Warning';
  readonly resourceVersion?: string;
  /** Writes: the field manager of the write, when the writer named one. */
  readonly manager?: string;
  /** Applies: `file:line` of the manifest (the line of the first changed field when one changed). */
  readonly source?: string;
  /** The id of the entry that caused this one. */
  readonly cause?: number;
}

export type NewTimelineEntry = Omit<TimelineEntry, 'id' | 'cause'>;

export const DEFAULT_TIMELINE_CAPACITY = 10_000;

export function refKey(r: TimelineRef): string {
  return `${r.kind}/${r.namespace}/${r.name}`;
}

export class Timeline {
  private readonly ring: (TimelineEntry | undefined)[];
  private nextId = 1;
  /** Per object key, the id of the last step about it (see the causal rule above). */
  private readonly last = new Map<string, number>();

  constructor(readonly capacity = DEFAULT_TIMELINE_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`timeline capacity must be ≥ 1, got ${capacity}`);
    this.ring = new Array<TimelineEntry | undefined>(capacity);
  }

  /** How many entries are kept now (at most the capacity). */
  get size(): number {
    return Math.min(this.nextId - 1, this.capacity);
  }

  /** Entries ever recorded, dropped ones included. */
  get recorded(): number {
    return this.nextId - 1;
  }

  /** The smallest id still kept. */
  get oldestId(): number {
    return Math.max(1, this.nextId - this.capacity);
  }

  /**
   * Records an entry, linking it to its cause by the rule in the module comment; returns its id. The object passed
   * becomes the entry (it gets `id` and `cause`): pass a fresh one.
   */
  record(e: NewTimelineEntry): number {
    const id = this.nextId++;
    const subjectKey = refKey(e.subject);
    const cause = e.type === 'apply' ? undefined : this.last.get(subjectKey);
    // The caller's fresh object becomes the entry (no copy: writes are recorded on every store change).
    const entry = e as { -readonly [K in keyof TimelineEntry]: TimelineEntry[K] };
    entry.id = id;
    if (cause !== undefined) entry.cause = cause;
    this.ring[(id - 1) % this.capacity] = entry;
    if (e.type !== 'write') {
      if (e.target) this.last.set(refKey(e.target), id);
      else this.last.set(subjectKey, id);
    }
    // The index forgets objects whose last step is no longer kept (checked once it outgrows the ring).
    if (this.last.size > 2 * this.capacity) {
      const oldest = this.oldestId;
      for (const [k, v] of this.last) if (v < oldest) this.last.delete(k);
    }
    return id;
  }

  get(id: number): TimelineEntry | undefined {
    if (id < this.oldestId || id >= this.nextId) return undefined;
    return this.ring[(id - 1) % this.capacity];
  }

  /**
   * The apply at the root of an entry's causes (the `kubectl apply` that started its chain), when the chain reaches one
   * still kept; undefined when it starts elsewhere (a hand-made write, a component acting on its own) or was dropped.
   */
  origin(id: number): TimelineEntry | undefined {
    for (let e = this.get(id); e; e = e.cause === undefined ? undefined : this.get(e.cause))
      if (e.type === 'apply') return e;
    return undefined;
  }

  /** The kept entries, oldest first. */
  entries(): TimelineEntry[] {
    const out: TimelineEntry[] = [];
    for (let id = this.oldestId; id < this.nextId; id++) out.push(this.ring[(id - 1) % this.capacity]!);
    return out;
  }

  /**
   * The chain that explains an object: the steps that led to its first kept entry (its causes, back to the apply
   * that started them), then every kept entry about it (its subject or its target) in order. Plain writes of the
   * object are left out except its deletion. `truncated` when a cause was dropped by the cap.
   */
  explain(ref: TimelineRef): { entries: TimelineEntry[]; truncated: boolean } {
    const key = refKey(ref);
    const own = this.entries().filter(
      (e) =>
        (refKey(e.subject) === key && (e.type !== 'write' || e.what === 'delete')) ||
        (e.target !== undefined && refKey(e.target) === key),
    );
    if (own.length === 0) return { entries: [], truncated: false };
    const ancestors: TimelineEntry[] = [];
    let truncated = false;
    for (let c = own[0].cause; c !== undefined; ) {
      const e = this.get(c);
      if (!e) {
        truncated = true;
        break;
      }
      ancestors.push(e);
      c = e.cause;
    }
    return { entries: [...ancestors.reverse(), ...own], truncated };
  }
}
