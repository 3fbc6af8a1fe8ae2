/**
 * The files of simulated containers, as a timeline: every write, append,
 * removal and `mkdir` is an event at a clock time, so the same tree answers
 * "what does `cat /tmp/healthy` print at 12:00:31?" for an exec probe, for
 * `kubectl exec` and for a script that reads what another container wrote.
 *
 * A `FileTree` is one filesystem: a container instance's root (fresh at each
 * start, as a container's writable layer is), or a pod volume (an emptyDir
 * shared by the pod's containers and kept across their restarts; a ConfigMap
 * or Secret volume, read-only). Its events come from writers: a container
 * instance's script (cut when the instance ends), an exec session, or a
 * periodic writer — an endless loop whose iterations are rendered on demand.
 * A `ContainerFs` is what one container sees: its root with the pod's volumes
 * mounted over it.
 */
import type { LineSource, LogLine } from '../logs/lineSource';
import type { FsError, ShellFs } from '../shell/types';

export interface FileEvent {
  at: number;
  op: 'write' | 'append' | 'remove' | 'mkdir';
  /** Absolute path inside the tree. */
  path: string;
  text?: string;
  /** `remove`: the whole subtree (`rm -r`). */
  recursive?: boolean;
}

/** Iterations of an endless loop that writes files: iteration `k` starts at `first + k·period`. */
export interface PeriodicWrites {
  first: number;
  period: number;
  /** The paths its iterations write (so reads of other paths skip it). */
  paths: ReadonlySet<string>;
  render(k: number, start: number): FileEvent[];
}

/** Iterations rendered at most when a read needs a periodic writer's whole history. */
const MAX_RENDERED = 20_000;

/** Periodic writers being rendered: a loop reading its own files sees its own iteration's writes, not its history. */
const rendering = new Set<PeriodicWrites>();

function renderGuarded(p: PeriodicWrites, k: number): FileEvent[] {
  rendering.add(p);
  try {
    return p.render(k, p.first + k * p.period);
  } finally {
    rendering.delete(p);
  }
}

interface Sequenced extends FileEvent {
  seq: number;
}

/** The periodic writers of a writer that has none (most): one shared empty list, a writer's own made on the first. */
const NO_PERIODIC: readonly PeriodicWrites[] = Object.freeze([]);

export class FileWriter {
  /** Events at or after this time never happen (the instance ended). */
  until = Infinity;
  private ownPeriodic: PeriodicWrites[] | undefined;
  private made: Sequenced[] | undefined;

  constructor(
    private readonly tree: FileTree,
    events: Sequenced[] = [],
    /** Files present from the start (at -Infinity), made on the first read of the writer's events. */
    private pending?: () => Sequenced[],
  ) {
    if (!pending) this.made = events;
  }

  /** Its events in the order written (a pending writer's files are made now). */
  get events(): Sequenced[] {
    if (this.made === undefined) {
      this.made = this.pending!();
      this.pending = undefined;
    }
    return this.made;
  }

  /** Holds only files present from the start that nothing has read yet (they change nothing after any time). */
  get untouched(): boolean {
    return this.made === undefined;
  }

  add(e: FileEvent): void {
    this.events.push({ ...e, seq: this.tree.nextSeq() });
    this.tree.changed();
  }

  /** Its endless loops' writes, in the order added. */
  get periodic(): readonly PeriodicWrites[] {
    return this.ownPeriodic ?? NO_PERIODIC;
  }

  addPeriodic(p: PeriodicWrites): void {
    (this.ownPeriodic ??= []).push(p);
    this.tree.changed();
  }

  /** The writer stops at `at` (its process ended). */
  cut(at: number): void {
    if (at >= this.until) return;
    this.until = at;
    this.tree.changed();
  }
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const p of path.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

function under(path: string, dir: string): boolean {
  return dir === '/' ? path !== '/' : path.startsWith(`${dir}/`);
}

export type Entry = { kind: 'file'; text: string } | { kind: 'dir' };

/**
 * What every tree made from it holds from the start (an image's directories and files): built once and shared by
 * every container of the image (thousands of pods), never changed — a tree's own writes and directories go on top.
 */
export class FileLayer {
  readonly dirs: ReadonlySet<string>;
  readonly events: readonly Sequenced[];

  constructor(dirs: readonly string[], files: Readonly<Record<string, string>>) {
    const all = new Set<string>(['/']);
    for (const d of dirs) for (let p = normalize(d); p !== '/'; p = parentOf(p)) all.add(p);
    this.dirs = all;
    this.events = Object.freeze(
      Object.entries(files).map(([path, text], seq) =>
        Object.freeze({ at: -Infinity, op: 'write' as const, path, text, seq }),
      ),
    );
  }
}

const EMPTY_DIRS: ReadonlySet<string> = new Set<string>();

export class FileTree {
  private readonly writers: FileWriter[] = [];
  private seq = 0;
  /**
   * The directories this tree added (`baseDir`), made on the first: `/` is always there and most trees add nothing
   * (a pod's volumes; a root tree whose container mounts nothing), so thousands of pods do not each keep an empty set.
   */
  private dirs: Set<string> | undefined;
  /** The shared layer's directories (`dirs` holds only what this tree added). */
  private readonly layerDirs: ReadonlySet<string>;
  /** Bumped on every change, so views can cache. */
  version = 0;

  constructor(
    readonly name: string,
    readonly readOnly = false,
    layer?: FileLayer,
  ) {
    this.layerDirs = layer?.dirs ?? EMPTY_DIRS;
    if (layer && layer.events.length > 0) {
      // The layer's files as a first writer that is never cut; this tree's own events are sequenced after them.
      this.writers.push(new FileWriter(this, layer.events as Sequenced[]));
      this.seq = layer.events.length;
    }
  }

  private hasBaseDir(path: string): boolean {
    return path === '/' || this.dirs?.has(path) === true || this.layerDirs.has(path);
  }

  nextSeq(): number {
    return this.seq++;
  }

  /** Counts a change (views compare `version` to know their cache is stale). */
  changed(): void {
    this.version++;
  }

  writer(): FileWriter {
    const w = new FileWriter(this);
    this.writers.push(w);
    return w;
  }

  /**
   * Files present from the start (at -Infinity), made only when something first reads the tree: exactly `count` of
   * them, sequenced now (after what is already there, before anything written later) as a writer's `add` of each would
   * have, so every read answers as if they had been written here. For files per pod that most pods never read (the
   * kubelet-managed `/etc/hosts`…): a pod that is never exec'd into or probed by a command keeps only `make`.
   */
  lazyFiles(count: number, make: () => Readonly<Record<string, string>>): void {
    const first = this.seq;
    this.seq += count;
    this.version += count;
    this.writers.push(
      new FileWriter(this, undefined, () => {
        const files = Object.entries(make());
        if (files.length !== count) throw new Error(`lazyFiles: ${files.length} files made, ${count} announced`);
        return files.map(([path, text], i) => ({ at: -Infinity, op: 'write' as const, path, text, seq: first + i }));
      }),
    );
  }

  /** A directory present from the start (an image's `/tmp`, a mount point). */
  baseDir(path: string): void {
    for (let p = normalize(path); ; p = parentOf(p)) {
      // The layer holds every parent of its directories too.
      if (p === '/' || this.layerDirs.has(p)) break;
      (this.dirs ??= new Set()).add(p);
    }
  }

  /** Every event touching `path` (itself, or a recursive removal above it) up to `t`, in order. */
  private eventsFor(path: string, t: number, prefix = false, from = -Infinity): Sequenced[] {
    const out: Sequenced[] = [];
    const touches = (e: FileEvent) =>
      e.path === path ||
      (prefix && under(e.path, path)) ||
      (e.op === 'remove' && e.recursive === true && under(path, e.path));
    for (const w of this.writers) {
      const end = Math.min(t, w.until - 1e-9);
      for (const e of w.events) if (e.at <= end && touches(e)) out.push(e);
      for (const p of w.periodic) {
        if (rendering.has(p)) continue;
        if (!prefix && !p.paths.has(path) && ![...p.paths].some((q) => under(path, q))) continue;
        if (p.first > end) continue;
        const last = Math.floor((end - p.first) / p.period);
        const firstK = from === -Infinity ? last - MAX_RENDERED + 1 : Math.floor((from - p.first) / p.period) - 1;
        for (let k = Math.max(0, firstK); k <= last; k++) {
          for (const e of renderGuarded(p, k))
            if (e.at <= end && touches(e)) out.push({ ...e, seq: k * 1e6 + out.length });
        }
      }
    }
    out.sort((a, b) => a.at - b.at || a.seq - b.seq);
    return out;
  }

  /** The file or directory at `path` at time `t`. */
  entry(path: string, t: number): Entry | undefined {
    const p = normalize(path);
    let text: string | undefined;
    let dir = this.hasBaseDir(p);
    let removedDir = false;
    for (const e of this.eventsFor(p, t)) {
      if (e.op === 'write') text = e.text ?? '';
      else if (e.op === 'append') text = (text ?? '') + (e.text ?? '');
      else if (e.op === 'mkdir') {
        dir = true;
        removedDir = false;
      } else {
        text = undefined;
        if (e.path === p || e.recursive) removedDir = true;
      }
    }
    if (text !== undefined) return { kind: 'file', text };
    if (dir && !removedDir) return { kind: 'dir' };
    // A directory that holds a file exists.
    if (!removedDir && this.hasChildren(p, t)) return { kind: 'dir' };
    return undefined;
  }

  private hasChildren(dir: string, t: number): boolean {
    return this.children(dir, t).length > 0;
  }

  /** Names directly under `dir` at `t`. */
  children(dir: string, t: number): string[] {
    const d = normalize(dir);
    const names = new Set<string>();
    for (const dirs of [this.layerDirs, this.dirs ?? EMPTY_DIRS])
      for (const base of dirs)
        if (under(base, d) && parentOf(base) === d) names.add(base.slice(d.length + (d === '/' ? 0 : 1)));
    const candidates = new Set<string>();
    for (const e of this.eventsFor(d, t, true)) {
      if (!under(e.path, d)) continue;
      const rest = e.path.slice(d.length + (d === '/' ? 0 : 1));
      candidates.add(rest.split('/')[0]);
    }
    for (const name of candidates) {
      const child = d === '/' ? `/${name}` : `${d}/${name}`;
      if (this.hasBaseDir(child) || this.entryExists(child, t)) names.add(name);
    }
    return [...names].sort();
  }

  private entryExists(path: string, t: number): boolean {
    let text: string | undefined;
    let dir = false;
    for (const e of this.eventsFor(path, t, true)) {
      if (e.path === path) {
        if (e.op === 'write') text = e.text ?? '';
        else if (e.op === 'append') text = (text ?? '') + (e.text ?? '');
        else if (e.op === 'mkdir') dir = true;
        else {
          text = undefined;
          dir = false;
        }
      } else if (e.op === 'remove' && e.recursive && under(path, e.path)) {
        text = undefined;
        dir = false;
      } else if (e.op !== 'remove' && under(e.path, path)) dir = true;
    }
    return text !== undefined || dir;
  }

  /** When the tree next changes after `t` (for probes whose answer depends on files), or undefined. */
  nextChangeAfter(t: number): number | undefined {
    let next: number | undefined;
    const consider = (at: number) => {
      if (at > t && (next === undefined || at < next)) next = at;
    };
    for (const w of this.writers) {
      if (!w.untouched) for (const e of w.events) if (e.at < w.until) consider(e.at);
      if (w.until !== Infinity) consider(w.until);
      for (const p of w.periodic) {
        const k = p.first > t ? 0 : Math.floor((t - p.first) / p.period) + 1;
        const start = p.first + k * p.period;
        if (start < w.until) consider(start);
      }
    }
    return next;
  }

  /**
   * What `tail -f` sees of `path` from `from` on: the text appended (or written anew) after `from`, line by line,
   * at the times it was written.
   */
  follow(path: string, from: number, prefix: (at: number, text: string) => LogLine[] = defaultLines): LineSource {
    const p = normalize(path);
    // When the file is missing as `tail` starts, what creates it at that same instant is followed too.
    const inclusive = this.entry(p, from)?.kind !== 'file';
    const linesBetween = (lo: number, hi: number): LogLine[] => {
      const out: LogLine[] = [];
      for (const e of this.eventsFor(p, hi, false, Math.max(lo, from))) {
        if (e.at <= lo || (inclusive ? e.at < from : e.at <= from)) continue;
        if ((e.op === 'write' || e.op === 'append') && e.text) out.push(...prefix(e.at, e.text));
      }
      return out;
    };
    return {
      between: (lo, hi, max) => linesBetween(lo, hi).slice(-max),
      nextAfter: (after) => {
        let t = after;
        for (let i = 0; i < 64; i++) {
          const next = this.nextChangeAfter(t);
          if (next === undefined) return undefined;
          if (linesBetween(after, next).length > 0) return next;
          t = next;
        }
        return undefined;
      },
    };
  }
}

function defaultLines(at: number, text: string): LogLine[] {
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((line) => ({ at, text: line }));
}

export interface Mount {
  /** Where it is mounted in the container. */
  path: string;
  tree: FileTree;
  /** The directory of the tree mounted there (`subPath`), '/' for the whole tree. */
  source: string;
  readOnly: boolean;
}

/**
 * What a container's view is made of, made on its first use: the root tree and the mounts, from what the container's
 * start decided (the content of its ConfigMap, Secret and projected volumes read then). `live` are the trees that
 * exist before (the pod's shared volumes: another container may write them), so an unmade view can say when what it
 * reads next changes without being made.
 */
export interface FsMaker {
  readonly live: readonly FileTree[];
  make(): { root: FileTree; mounts: readonly Mount[] };
}

/**
 * One container's view: its root tree with the mounts over it; writes are recorded by this view's writers (one per
 * tree, created on first write). Implements the shell's filesystem.
 *
 * A view made with an `FsMaker` makes its root tree and mounts on the first read, write or listing (issue 16: most
 * containers are never exec'd into nor probed by a command, and their files were ~1.9 KiB a pod). Until then nothing
 * has written to the root tree nor to a projected volume's tree (only this view could), so every answer is the one
 * the view made at the start would give: the trees are made from the same parts, in the same order.
 */
export class ContainerFs implements ShellFs {
  /** Its writer in each tree it wrote to, made on the first write (most containers never write a file). */
  private writers: Map<FileTree, FileWriter> | undefined;
  private madeRoot: FileTree | undefined;
  private madeMounts: Mount[] | undefined;
  private maker: FsMaker | undefined;

  /**
   * Writes before this time are not recorded (a process run again from its start keeps what it wrote before);
   * undefined for -Infinity (a number field holds a boxed number per object: issue 16).
   */
  private readonly writesFrom: number | undefined;

  constructor(root: FileTree | FsMaker, mounts: readonly Mount[] = [], writesFrom = -Infinity) {
    this.writesFrom = writesFrom === -Infinity ? undefined : writesFrom;
    if (root instanceof FileTree) this.setParts(root, mounts);
    else this.maker = root;
  }

  private setParts(root: FileTree, mounts: readonly Mount[]): void {
    // Longest mount path first, so nested mounts win.
    this.madeMounts = [...mounts].sort((a, b) => b.path.length - a.path.length);
    for (const m of mounts) root.baseDir(m.path);
    this.madeRoot = root;
  }

  /** Made: its root tree and mounts exist (a view made with an `FsMaker` is made on its first use). */
  get made(): boolean {
    return this.madeRoot !== undefined;
  }

  get root(): FileTree {
    return this.madeRoot ?? this.makeParts().root;
  }

  private get mounts(): Mount[] {
    return this.madeMounts ?? this.makeParts().mounts;
  }

  private makeParts(): { root: FileTree; mounts: Mount[] } {
    const parts = this.maker!.make();
    this.maker = undefined;
    this.setParts(parts.root, parts.mounts);
    return { root: this.madeRoot!, mounts: this.madeMounts! };
  }

  /**
   * The same files for the process run again from its start with what it does from `at` on: this view's writes stop at
   * `at`, the new view records only from `at`.
   */
  rerunFrom(at: number): ContainerFs {
    this.cutWriters(at);
    return new ContainerFs(this.root, this.mounts, at);
  }

  /** Every tree this view reads (root and volumes). */
  trees(): FileTree[] {
    return [this.root, ...new Set(this.mounts.map((m) => m.tree))];
  }

  /** The writers this view created, e.g. to cut them when the instance ends. */
  cutWriters(at: number): void {
    if (this.writers) for (const w of this.writers.values()) w.cut(at);
  }

  /** Which tree and path inside it a container path resolves to. */
  resolve(path: string): { tree: FileTree; inner: string; readOnly: boolean; mountPoint: boolean } {
    const p = normalize(path);
    for (const m of this.mounts) {
      if (p === m.path || under(p, m.path)) {
        const rest = p.slice(m.path.length);
        const inner = normalize(`${m.source}/${rest}`);
        return { tree: m.tree, inner, readOnly: m.readOnly || m.tree.readOnly, mountPoint: p === m.path };
      }
    }
    return { tree: this.root, inner: p, readOnly: false, mountPoint: false };
  }

  private record(tree: FileTree, e: FileEvent): void {
    if (this.writesFrom !== undefined && e.at < this.writesFrom) return;
    this.writer(tree).add(e);
  }

  private writer(tree: FileTree): FileWriter {
    const writers = (this.writers ??= new Map());
    let w = writers.get(tree);
    if (!w) {
      w = tree.writer();
      writers.set(tree, w);
    }
    return w;
  }

  stat(path: string, t: number): 'file' | 'dir' | undefined {
    const r = this.resolve(path);
    if (r.mountPoint) return r.tree.entry(r.inner, t)?.kind ?? 'dir';
    return r.tree.entry(r.inner, t)?.kind;
  }

  read(path: string, t: number): string | undefined {
    const r = this.resolve(path);
    const e = r.tree.entry(r.inner, t);
    return e?.kind === 'file' ? e.text : undefined;
  }

  list(dir: string, t: number): string[] | undefined {
    const p = normalize(dir);
    if (this.stat(p, t) !== 'dir') return undefined;
    const r = this.resolve(p);
    const names = new Set(r.tree.children(r.inner, t));
    for (const m of this.mounts)
      if (parentOf(m.path) === p && m.path !== p) names.add(m.path.slice(p.length + (p === '/' ? 0 : 1)));
    return [...names].sort();
  }

  write(path: string, text: string, t: number, append: boolean): FsError | undefined {
    const r = this.resolve(path);
    const kind = this.stat(path, t);
    if (kind === 'dir') return 'EISDIR';
    if (this.stat(parentOf(normalize(path)), t) !== 'dir') return 'ENOENT';
    if (r.readOnly) return 'EROFS';
    // Appending to a file that does not exist creates it.
    if (append && text === '' && kind === 'file') return undefined;
    this.record(r.tree, { at: t, op: append ? 'append' : 'write', path: r.inner, text });
    return undefined;
  }

  remove(path: string, t: number, recursive: boolean): FsError | undefined {
    const r = this.resolve(path);
    const kind = this.stat(path, t);
    if (kind === undefined) return 'ENOENT';
    if (r.readOnly || r.mountPoint) return r.mountPoint ? 'EBUSY' : 'EROFS';
    if (kind === 'dir' && !recursive) return 'EISDIR';
    this.record(r.tree, { at: t, op: 'remove', path: r.inner, recursive: kind === 'dir' });
    return undefined;
  }

  mkdir(path: string, t: number, parents: boolean): FsError | undefined {
    const p = normalize(path);
    const kind = this.stat(p, t);
    if (kind !== undefined) return parents && kind === 'dir' ? undefined : 'EEXIST';
    const parent = parentOf(p);
    if (this.stat(parent, t) !== 'dir') {
      if (!parents) return 'ENOENT';
      const err = this.mkdir(parent, t, true);
      if (err) return err;
    }
    const r = this.resolve(p);
    if (r.readOnly) return 'EROFS';
    this.record(r.tree, { at: t, op: 'mkdir', path: r.inner });
    return undefined;
  }

  follow(path: string, from: number): LineSource {
    const r = this.resolve(path);
    return r.tree.follow(r.inner, from);
  }

  /** The periodic writes of an endless loop, to the trees its paths resolve to. */
  addPeriodic(first: number, period: number, render: (k: number, start: number) => FileEvent[]): void {
    const sample = [...render(0, first), ...render(1, first + period)];
    const byTree = new Map<FileTree, Set<string>>();
    for (const e of sample) {
      const r = this.resolve(e.path);
      if (r.readOnly) continue;
      let set = byTree.get(r.tree);
      if (!set) byTree.set(r.tree, (set = new Set()));
      set.add(r.inner);
    }
    for (const [tree, paths] of byTree) {
      this.writer(tree).addPeriodic({
        first,
        period,
        paths,
        render: (k, start) =>
          render(k, start).flatMap((e) => {
            const r = this.resolve(e.path);
            return r.tree === tree && !r.readOnly && e.at >= (this.writesFrom ?? -Infinity)
              ? [{ ...e, path: r.inner }]
              : [];
          }),
      });
    }
  }

  /** When anything this view reads next changes after `t`. */
  nextChangeAfter(t: number): number | undefined {
    // Unmade, its root and projected trees hold only files present from the start: only the shared volumes change.
    const times = (this.maker ? this.maker.live : this.trees())
      .map((tree) => tree.nextChangeAfter(t))
      .filter((x): x is number => x !== undefined);
    return times.length > 0 ? Math.min(...times) : undefined;
  }
}

/**
 * A view that records writes without keeping them (a shell rendering one iteration of an endless loop, or an exec
 * probe): reads see the base view plus its own writes.
 */
export class ScratchFs implements ShellFs {
  readonly writes: FileEvent[] = [];
  private readonly local = new FileTree('scratch');
  private readonly localWriter = this.local.writer();
  private readonly touched = new Set<string>();

  constructor(private readonly base: ShellFs) {}

  private own(path: string): boolean {
    const p = normalize(path);
    for (const t of this.touched) if (t === p || under(p, t)) return true;
    return false;
  }

  stat(path: string, t: number): 'file' | 'dir' | undefined {
    if (this.own(path))
      return this.local.entry(path, t)?.kind ?? (this.base.stat(path, t) === 'dir' ? 'dir' : undefined);
    return this.base.stat(path, t);
  }

  read(path: string, t: number): string | undefined {
    if (this.own(path)) {
      const e = this.local.entry(path, t);
      return e?.kind === 'file' ? e.text : undefined;
    }
    return this.base.read(path, t);
  }

  list(dir: string, t: number): string[] | undefined {
    const base = this.base.list(dir, t);
    const mine = this.local.children(dir, t);
    if (!base && mine.length === 0) return undefined;
    return [...new Set([...(base ?? []), ...mine])].sort();
  }

  private record(e: FileEvent): void {
    const p = normalize(e.path);
    if (!this.touched.has(p)) {
      // Start from what the base has, so appends and reads continue it.
      const before = this.base.read(p, e.at);
      if (before !== undefined) this.localWriter.add({ at: -Infinity, op: 'write', path: p, text: before });
      this.touched.add(p);
    }
    this.localWriter.add({ ...e, path: p });
    this.writes.push({ ...e, path: p });
  }

  write(path: string, text: string, t: number, append: boolean): FsError | undefined {
    if (this.stat(path, t) === 'dir') return 'EISDIR';
    if (this.stat(parentOf(normalize(path)), t) !== 'dir') return 'ENOENT';
    if (append && text === '' && this.stat(path, t) === 'file') return undefined;
    this.record({ at: t, op: append ? 'append' : 'write', path, text });
    return undefined;
  }

  remove(path: string, t: number, recursive: boolean): FsError | undefined {
    const kind = this.stat(path, t);
    if (kind === undefined) return 'ENOENT';
    if (kind === 'dir' && !recursive) return 'EISDIR';
    this.record({ at: t, op: 'remove', path, recursive: kind === 'dir' });
    return undefined;
  }

  mkdir(path: string, t: number, parents: boolean): FsError | undefined {
    const kind = this.stat(path, t);
    if (kind !== undefined) return parents && kind === 'dir' ? undefined : 'EEXIST';
    if (this.stat(parentOf(normalize(path)), t) !== 'dir' && !parents) return 'ENOENT';
    this.record({ at: t, op: 'mkdir', path });
    return undefined;
  }

  follow(path: string, from: number): LineSource | undefined {
    return this.base.follow?.(path, from);
  }
}
