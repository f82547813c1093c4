/** How deep the plain-data fast path goes before handing the whole value to structuredClone. */
const maxPlainDepth = 32;

const notPlain = Symbol('not plain');

/**
 * A deep copy equal to `structuredClone(value)`. Plain data (primitives, plain objects, dense arrays) is copied
 * directly, which allocates far less than structuredClone's serialize-then-deserialize; anything else (a Date,
 * Map, Set, typed array, class instance, sparse array, a cycle or very deep nesting) goes to structuredClone,
 * which also throws for what it cannot copy (functions, symbols).
 */
export function copyValue<T>(value: T): T {
  const copied = copyPlain(value, 0);
  return copied === notPlain ? structuredClone(value) : (copied as T);
}

function copyPlain(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' ? notPlain : value;
  }
  if (depth >= maxPlainDepth) return notPlain;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return notPlain;
    const length = value.length;
    const copy = new Array<unknown>(length);
    let keys = 0;
    for (const key in value) {
      if (Object.prototype.hasOwnProperty.call(value, key)) keys += 1;
    }
    if (keys !== length) return notPlain; // holes or extra properties
    for (let index = 0; index < length; index += 1) {
      const item = copyPlain(value[index], depth + 1);
      if (item === notPlain) return notPlain;
      copy[index] = item;
    }
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return notPlain;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyPlain((value as Record<string, unknown>)[key], depth + 1);
    if (item === notPlain) return notPlain;
    copy[key] = item;
  }
  return copy;
}
