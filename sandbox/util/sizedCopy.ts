/**
 * Shallow copies of plain objects that keep their members in the object itself (issue 16: heap per pod).
 *
 * `{ ...stored }` of a stored object — frozen — cannot reuse its hidden class, so V8 builds the copy as it builds `{}`
 * with keys added one by one: room for four members in the object, the rest in a separate property array (a status
 * write's pod and its metadata: ~0.3 KiB a pod of such arrays at the envelope's shape). Here the copy is made by a
 * constructor chosen by the member count: a constructor's objects start with room for the `this.…` stores in its body
 * (never run, but counted) and, after its first few, are trimmed to the most members any of them took (in-object slack
 * tracking), so the objects of one count keep that many members in the object. Nothing else differs from the spread:
 * the same own members in the same order (`__proto__` included, as an own member), the same values (`undefined` ones
 * too), the prototype `Object.prototype`, a new object that is not frozen.
 */

/** A constructor of empty plain objects (prototype `Object.prototype`, as `{}`'s) that V8 sizes for their members. */
export type BlankMaker = new () => Record<string, unknown>;

/** Beyond this many members the copy is the spread's (the constructor's room holds 24 members, then 8 of slack). */
const MAX_SIZED = 24;

const makers: BlankMaker[] = [];

function makerFor(count: number): BlankMaker {
  let maker = makers[count];
  if (maker === undefined) makers[count] = maker = blankMaker();
  return maker;
}

/**
 * A new maker of empty plain objects with room for 24 members (the `this.…` stores of its body, never run, are
 * counted), trimmed by V8 after its first few objects to the most members any of them took. Also the write body's
 * decoder's (apiserver/decodeBody.ts), which sizes one per struct definition.
 */
export function blankMaker(): BlankMaker {
  const room = { never: false };
  function Blank(this: Record<string, unknown>): void {
    if (room.never) {
      this.m0 = this.m1 = this.m2 = this.m3 = this.m4 = this.m5 = this.m6 = this.m7 = undefined;
      this.m8 = this.m9 = this.m10 = this.m11 = this.m12 = this.m13 = this.m14 = this.m15 = undefined;
      this.m16 = this.m17 = this.m18 = this.m19 = this.m20 = this.m21 = this.m22 = this.m23 = undefined;
    }
  }
  Blank.prototype = Object.prototype;
  return Blank as unknown as BlankMaker;
}

/**
 * `{ ...obj }` for a plain object (prototype `Object.prototype` or null, string keys only, as every stored object is),
 * its members held in the object.
 */
export function copyObject<T extends object>(obj: T): T {
  const source = obj as Record<string, unknown>;
  let count = 0;
  for (const key in source) if (Object.prototype.hasOwnProperty.call(source, key)) count++;
  if (count > MAX_SIZED) return { ...obj };
  const out = new (makerFor(count))();
  for (const key in source) {
    if (!Object.prototype.hasOwnProperty.call(source, key)) continue;
    const value = source[key];
    if (key === '__proto__')
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out as T;
}
