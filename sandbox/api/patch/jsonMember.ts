/**
 * Own-member access for JSON objects built from untrusted input. Plain
 * assignment of a `__proto__` key would change the object's prototype instead
 * of adding a member, and reads must not see inherited members like
 * `constructor`.
 */

export function hasMember(obj: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(obj, key);
}

export function getMember(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

export function setMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export function deleteMember(obj: Record<string, unknown>, key: string): void {
  Reflect.deleteProperty(obj, key);
}

/** Deep copy of a JSON value that keeps a `__proto__` member as a member (unlike plain assignment). */
export function cloneValue<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneValue) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) setMember(out, key, cloneValue(v));
  }
  return out as T;
}
