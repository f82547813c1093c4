/** Reads a property of a plain object without touching its prototype chain. */
export function ownProperty(source: unknown, name: string): unknown {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return undefined;
  return Object.hasOwn(source, name) ? (source as Record<string, unknown>)[name] : undefined;
}
