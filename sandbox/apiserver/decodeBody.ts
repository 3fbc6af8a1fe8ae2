/**
 * A write body of a built-in kind decoded in one pass: the checked copy (`util/json.ts`: limits, non-JSON values),
 * the strict field walk (`schema/strictFields.ts`: unknown fields) and what Go's decoding makes of nulls
 * (`decodeNulls.ts`) done together, member by member, where the API server ran three walks over the same values —
 * the copy, then the walk of the input by the schema, then the walk of the copy's nulls. The outcome is the three
 * passes' exactly: the same copy (key order included), the same errors in the same order, and the same refusal when
 * the copy fails (a copy error wins over strict errors, which are only reported once the whole body is copied).
 *
 * upstream does all three in one decode too: apimachinery's strict JSON serializer (`sigs.k8s.io/json`
 * `UnmarshalStrict`) reads the bytes into the Go types once, collecting unknown fields as it goes.
 *
 * Not read by the schema here, but handed to the passes it fuses (so nothing is decided twice): frozen values (the
 * strict walk remembers a frozen value found clean, and a kubelet's or controller's body carries cached members), free-
 * form values, values of the wrong shape, and objects written with a repeated key (duplicate fields). A status
 * write's frozen top-level member (its `spec` and `metadata`, spread from the stored object) found clean is remembered
 * whatever its size, by the definition of the active release it was read as: a write carrying it again under that
 * release is not walked again, and under another release it is.
 */
import type { Definition, PropertySchema, SchemaType } from '../schema/types';
import { definition } from '../schema/schema';
import {
  pathText,
  rememberedClean,
  strictFieldErrorsAt,
  MAX_STRICT_ERRORS,
  strictErrorText,
} from '../schema/strictFields';
import type { StrictFieldError } from '../schema/strictFields';
import { repeatedKeyOrder } from '../util/keyOrder';
import { JsonCopyError, copyChecked, measureChecked, measureMember, setMember } from '../util/json';
import type { Budget, CopyLimits } from '../util/json';
import { blankMaker, type BlankMaker } from '../util/sizedCopy';
import { OBJECT_META, decodeNullsAs, zeroValue } from './decodeNulls';

/** The decoded body and its strict decoding errors (as `strictFieldErrors` of the input would list them). */
export interface DecodedBody {
  body: Record<string, unknown>;
  errors: StrictFieldError[];
}

/**
 * Decodes `input`, an object of the kind `root` describes: its copy with nulls decoded, and its strict errors (unknown
 * fields not yet removed from the copy). With `keep`, only those members are copied; the others are checked (limits,
 * unknown fields) as `copyMembersCounted` does. `clean`: a frozen value known to have no strict error as the member of
 * `input` it may be (the stored metadata a status write carries, cleanMetadata.ts): counted, not walked, and (without
 * a null) decoded as a new object holding its own members (`carried`).
 * Undefined when the body itself was written with a repeated key (the caller decodes it in separate passes). Throws
 * `JsonCopyError` as the copy does.
 */
export function decodeBuiltInBody(
  input: Record<string, unknown>,
  root: Definition,
  limits: CopyLimits,
  keep?: ReadonlySet<string>,
  clean?: object,
): DecodedBody | undefined {
  if (repeatedKeyOrder(input) !== undefined) return undefined;
  if (limits.maxDepth <= 0)
    throw new JsonCopyError(`object nesting exceeds the maximum depth of ${limits.maxDepth}`, 'depth');
  const proto = Object.getPrototypeOf(input);
  if (proto !== Object.prototype && proto !== null)
    throw new JsonCopyError('only plain JSON objects can be stored', 'type');
  const d = new Decoder(limits, clean, keep !== undefined, plansOf(root));
  const plan = d.plan(root);
  const kept = KEPT_FROZEN.get(root.name);
  const out = plan.blank();
  for (const key in input) {
    const v = input[key];
    const prop = plan.properties.get(key);
    if (prop === undefined) d.unknown(key, root);
    if (v === undefined) continue;
    d.budget.bytes += key.length + 4;
    if (keep !== undefined && !keep.has(key)) {
      measureMember(v, limits, d.budget);
      if (prop !== undefined && v !== clean) d.walked(strictFieldErrorsAt(v, prop.type, [key], true));
      continue;
    }
    if (prop === undefined) d.unknownMember(out, key, v, 1);
    else if (v === null) {
      d.budget.nulls++;
      if (keepsNull(prop.type, root)) out[key] = null;
    } else {
      d.at.push(key);
      out[key] =
        v === clean
          ? d.carried(clean, prop.type)
          : kept !== undefined && kept.has(key) && typeof v === 'object' && Object.isFrozen(v)
            ? d.kept(v, prop.type)
            : d.value(v, prop.type, 1);
      d.at.pop();
    }
  }
  return { body: out, errors: d.errors() };
}

/**
 * Top-level members a write body may keep uncopied, by the root kind's definition, when the client sent them deeply
 * frozen, known clean (no unknown field) and without a null: what the API server's write path never changes, so the
 * copy would only be thrown away. An Event's `source` (the recorder sends one frozen object per recorder, and
 * `EventSources` (sharedSubObjects.ts) stores one object per text anyway): decoding copied and walked it on every
 * Event (issue 16: 7,140 copies in the 1,000-Deployment run).
 */
const KEPT_FROZEN: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['io.k8s.api.core.v1.Event', new Set(['source'])],
]);

/** A struct field set to null stays null only as a timestamp outside ObjectMeta (decodeNulls.ts `member`). */
function keepsNull(type: SchemaType, def: Definition): boolean {
  return type.kind === 'string' && type.format === 'date-time' && def.name !== OBJECT_META;
}

class Decoder {
  readonly budget: Budget = { bytes: 0, nulls: 0 };
  /** The keys and indices that lead to the value being decoded. */
  readonly at: (string | number)[] = [];
  /** Every strict error met, in document order, before the cap and repeats are applied. */
  private readonly met: StrictFieldError[] = [];

  constructor(
    private readonly limits: CopyLimits,
    private readonly clean: object | undefined,
    /** A status write's: its frozen top-level members found clean are remembered (the next write carries them). */
    private readonly remember: boolean,
    /** How this kind's structs are decoded, by definition (see `StructPlan`). */
    private readonly plans: Map<Definition, StructPlan>,
  ) {}

  plan(def: Definition): StructPlan {
    let plan = this.plans.get(def);
    if (plan === undefined) this.plans.set(def, (plan = new StructPlan(def)));
    return plan;
  }

  unknown(key: string, parent: Definition): void {
    const segments = [...this.at, key];
    this.met.push({ kind: 'unknown', path: pathText(segments), segments, parent });
  }

  /**
   * The copy of a member its struct does not declare: pruned after (unless Strict, which refuses the body), and a null
   * one dropped at once, as the null pass drops any null member of a struct (even one past the 100 errors pruning
   * reads).
   */
  unknownMember(out: Record<string, unknown>, key: string, v: unknown, depth: number): void {
    const copied = copyChecked(v, depth, this.limits, this.budget);
    if (copied !== null) setMember(out, key, copied);
  }

  walked(errors: readonly StrictFieldError[]): void {
    for (const e of errors) this.met.push(e);
  }

  /** The errors as the strict walk saves them: each text once, at most `MAX_STRICT_ERRORS`. */
  errors(): StrictFieldError[] {
    if (this.met.length === 0) return [];
    const found: StrictFieldError[] = [];
    const seen = new Set<string>();
    for (const e of this.met) {
      if (found.length >= MAX_STRICT_ERRORS) break;
      const text = strictErrorText(e);
      if (seen.has(text)) continue;
      seen.add(text);
      found.push(e);
    }
    return found;
  }

  /**
   * The decoded copy of `value` (not null, not undefined) read as `type` at `depth`; `def` is the definition `type`
   * refers to (resolved once by the caller: a struct's plan, an array for all its items).
   */
  value(value: unknown, type: SchemaType, depth: number, def: Definition | undefined = refOf(type)): unknown {
    if (typeof value !== 'object') return copyChecked(value, depth, this.limits, this.budget);
    if (value === null || Object.isFrozen(value)) return this.separately(value, type, depth);
    if (Array.isArray(value)) {
      if (type.kind !== 'array') return this.separately(value, type, depth);
      if (depth >= this.limits.maxDepth) throw depthError(this.limits);
      return this.array(value, type.items, depth);
    }
    if (def === undefined && type.kind !== 'map') return this.separately(value, type, depth);
    const obj = value as Record<string, unknown>;
    if (repeatedKeyOrder(obj) !== undefined) return this.separately(value, type, depth);
    if (depth >= this.limits.maxDepth) throw depthError(this.limits);
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null)
      throw new JsonCopyError('only plain JSON objects can be stored', 'type');
    return def !== undefined
      ? this.struct(obj, def, depth)
      : this.map(obj, (type as { values: SchemaType }).values, depth);
  }

  /**
   * The top-level member `clean` (the stored metadata a status write carries, cleanMetadata.ts: frozen all the way
   * down and known to have no strict error), counted as its copy is (measured, not remembered: a new object each
   * write); when it holds no null (which would be decoded), decoded as a new object holding its members as they are —
   * frozen, the stored object's own, which the status write reads and never changes (it sets the body's metadata's
   * own `namespace` only) — rather than copies of them. With a null, copied as any frozen value (`separately`).
   */
  carried(clean: object, type: SchemaType): unknown {
    const { bytes, nulls } = this.budget;
    measureChecked(clean, 1, this.limits, this.budget);
    const def = type.kind === 'ref' ? definition(type.name) : undefined;
    if (this.budget.nulls !== nulls || def === undefined || Array.isArray(clean)) {
      this.budget.bytes = bytes;
      this.budget.nulls = nulls;
      return this.separately(clean, type, 1);
    }
    const out = this.plan(def).blank();
    const members = clean as Readonly<Record<string, unknown>>;
    for (const key in members) {
      const v = members[key];
      if (v !== undefined) setMember(out, key, v);
    }
    return out;
  }

  /**
   * A frozen top-level member that may be kept uncopied (`KEPT_FROZEN`): checked as `separately` checks it — the
   * copy's limits (measured, in the copy's order, throwing what it throws, remembered when frozen all the way down),
   * then the strict walk (remembered when clean) — and kept as it is when both found it frozen all the way down, clean
   * and without a null; otherwise copied (and its nulls decoded) as `separately` does, its walk not repeated.
   */
  kept(value: object, type: SchemaType): unknown {
    const { bytes, nulls } = this.budget;
    measureMember(value, this.limits, this.budget);
    const errors = strictFieldErrorsAt(value, type, this.at, true);
    const as = type.kind === 'ref' ? definition(type.name) : type;
    if (errors.length === 0 && this.budget.nulls === nulls && as !== undefined && rememberedClean(value, as))
      return value;
    this.budget.bytes = bytes;
    this.budget.nulls = nulls;
    const copied = copyChecked(value, 1, this.limits, this.budget);
    this.walked(errors);
    if (this.budget.nulls !== nulls) decodeNullsAs(copied, type);
    return copied;
  }

  /** The passes this one fuses, run one after the other on `value`: copy, strict walk, nulls. */
  private separately(value: unknown, type: SchemaType, depth: number): unknown {
    const nulls = this.budget.nulls;
    const copied = copyChecked(value, depth, this.limits, this.budget);
    if (typeof value === 'object' && value !== null && value !== this.clean)
      this.walked(strictFieldErrorsAt(value, type, this.at, this.remember && depth === 1));
    if (this.budget.nulls !== nulls) decodeNullsAs(copied, type);
    return copied;
  }

  private struct(obj: Record<string, unknown>, def: Definition, depth: number): Record<string, unknown> {
    const plan = this.plan(def);
    const out = plan.blank();
    let members = 0;
    // for…in: the own keys in Object.keys' order (the prototype is Object.prototype or null, checked by `value`).
    for (const key in obj) {
      const v = obj[key];
      const prop = plan.properties.get(key);
      if (prop === undefined) {
        this.unknown(key, def);
        if (v === undefined) continue;
        this.budget.bytes += key.length + 4;
        this.unknownMember(out, key, v, depth + 1);
        members++;
        continue;
      }
      if (v === undefined) continue;
      this.budget.bytes += key.length + 4;
      if (v === null) {
        this.budget.nulls++;
        if (keepsNull(prop.type, def)) {
          out[key] = null;
          members++;
        }
        continue;
      }
      this.at.push(key);
      out[key] = this.value(v, prop.type, depth + 1, prop.def);
      this.at.pop();
      members++;
    }
    plan.took(out, members);
    return out;
  }

  private map(obj: Record<string, unknown>, values: SchemaType, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (v === undefined) continue;
      this.budget.bytes += key.length + 4;
      if (v === null) {
        this.budget.nulls++;
        setMember(out, key, zeroValue(values));
        continue;
      }
      this.at.push(key);
      setMember(out, key, this.value(v, values, depth + 1));
      this.at.pop();
    }
    return out;
  }

  private array(value: readonly unknown[], items: SchemaType, depth: number): unknown[] {
    const out = new Array<unknown>(value.length);
    const def = refOf(items);
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (v === undefined || v === null) {
        this.budget.nulls++;
        out[i] = zeroValue(items);
        continue;
      }
      this.at.push(i);
      out[i] = this.value(v, items, depth + 1, def);
      this.at.pop();
    }
    this.budget.bytes += value.length + 2;
    return out;
  }
}

/**
 * How the structs of one definition are decoded in bodies of one root kind: its properties by name (one lookup a
 * member, where the definition's `properties` took an own-key check and a read), and the maker of its decoded objects.
 *
 * The maker makes empty plain objects (their prototype `Object.prototype`, as `{}`'s) that V8 sizes for the members
 * they get: a constructor's objects start with room for the `this.…` stores in its body (never run here, but counted)
 * and, after its first few, are trimmed to the most members any of them took (in-object slack tracking) — where `{}`
 * has room for 4 and keeps every member past them in a separate property array (issue 16: ~1.0 KiB a pod of such
 * arrays for a stored Event, its metadata and `involvedObject`). One plan a struct definition a root kind, so a Pod's
 * metadata and an Event's are sized apart. Nothing else differs: the same keys in the same order, the same JSON,
 * `constructor` is `Object` (inherited), frozen like any other.
 */
class StructPlan {
  readonly properties: ReadonlyMap<string, Member>;
  blank: () => Record<string, unknown>;

  /** Its first objects (until they have sized its maker), then undefined. */
  private early: Record<string, unknown>[] | undefined = [];
  /** The most members one of those took when decoded. */
  private earlyDecoded = 0;
  /** What writes add to an object after decoding it, as its first objects say (their members now, less decoded). */
  private added = 0;
  /** Decoded objects of up to this many members fit the maker's objects (with what is added after). */
  private fits = 0;
  /** The members its maker's objects have room for. */
  private room = 0;
  /** Objects since the last look that did not fit, and the fewest members one of them took when decoded. */
  private over = 0;
  private fewestOver = Infinity;
  private makers = 1;

  constructor(def: Definition) {
    const props = def.properties;
    this.properties = new Map(Object.keys(props).map((key) => [key, member(props[key])]));
    const Blank = blankMaker();
    this.blank = () => new Blank();
  }

  /**
   * Its object `obj` was decoded with `members`. V8 sizes a maker's objects by its first few (their members once the
   * write has added its own, e.g. defaults), which may be fewer than most later ones take (the first Events of a run
   * are about Nodes, whose `involvedObject` has no namespace; a pod's first statuses are a Pending pod's: a Running
   * one's members past the room go to a property array). So its first `EARLY` objects are kept until the next
   * decode, when they are complete (a plan never used again keeps its few): their members then give the room and what
   * writes add after decoding. Once `OVER_ROOM` later objects decoded with more than fits, later ones come from a new
   * maker with room for the fewest of those plus what is added (at most `MAX_MAKERS` makers a plan: one large object
   * alone never resizes the rest). Only where objects live changes, never what they hold.
   */
  took(obj: Record<string, unknown>, members: number): void {
    const early = this.early;
    if (early !== undefined) {
      if (early.length < EARLY) {
        early.push(obj);
        if (members > this.earlyDecoded) this.earlyDecoded = members;
        return;
      }
      let most = 0;
      for (const o of early) most = Math.max(most, Object.keys(o).length);
      this.early = undefined;
      this.room = most;
      this.added = Math.max(0, most - this.earlyDecoded);
      this.fits = most - this.added;
    }
    if (this.room === 0 || members <= this.fits || this.makers >= MAX_MAKERS) return;
    this.over++;
    if (members < this.fewestOver) this.fewestOver = members;
    if (this.over < OVER_ROOM) return;
    const room = this.fewestOver + this.added;
    this.over = 0;
    this.fewestOver = Infinity;
    if (room <= this.room || room > MAX_ROOM) return;
    this.room = room;
    this.fits = room - this.added;
    this.makers++;
    const Blank = sizedMaker(room);
    this.blank = () => new Blank();
  }
}

/**
 * A struct's property as its plan decodes it: its type, and the definition the type refers to, looked up once per plan
 * rather than per value decoded (issue 16: a lookup by the definition's long name for every object of every body).
 * A plan belongs to one root definition, so to one release's definitions: the one active when its bodies are decoded.
 */
interface Member {
  readonly type: SchemaType;
  readonly def: Definition | undefined;
}

function member(prop: PropertySchema): Member {
  return { type: prop.type, def: refOf(prop.type) };
}

/** The definition a `ref` type refers to under the active release; undefined for every other type. */
function refOf(type: SchemaType): Definition | undefined {
  return type.kind === 'ref' ? definition(type.name) : undefined;
}

/** A plan's first objects, read (once complete) for what they take. */
const EARLY = 8;
/** Later objects that take more than the room before a plan takes a larger maker. */
const OVER_ROOM = 8;
const MAX_MAKERS = 4;
/** The most room a maker's objects are given (the blank maker's own room: 24 members, then 8 of slack). */
const MAX_ROOM = 32;

/** Constructions that end a maker's slack tracking (V8 trims after its seventh). */
const WARM_UP = 10;

/** A maker whose objects have room for `room` members: its first objects, thrown away, take that many. */
function sizedMaker(room: number): BlankMaker {
  const Blank = blankMaker();
  for (let i = 0; i < WARM_UP; i++) {
    const warm = new Blank();
    for (let m = 0; m < room; m++) warm[`w${m}`] = 0;
  }
  return Blank;
}

/** The plans of one root kind's structs, by the root's definition (a release's definitions are its own objects). */
const plansByRoot = new WeakMap<Definition, Map<Definition, StructPlan>>();

function plansOf(root: Definition): Map<Definition, StructPlan> {
  let plans = plansByRoot.get(root);
  if (plans === undefined) plansByRoot.set(root, (plans = new Map()));
  return plans;
}

function depthError(limits: CopyLimits): JsonCopyError {
  return new JsonCopyError(`object nesting exceeds the maximum depth of ${limits.maxDepth}`, 'depth');
}
