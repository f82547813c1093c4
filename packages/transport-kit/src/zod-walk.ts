/** The parts of a zod v4 definition the schema generators read (zod keeps them on `schema._zod.def`). */
export interface ZodDef {
  readonly type: string;
  readonly innerType?: unknown;
  readonly in?: unknown;
  readonly out?: unknown;
  readonly element?: unknown;
  readonly shape?: Record<string, unknown>;
  readonly valueType?: unknown;
  readonly keyType?: unknown;
  readonly entries?: Record<string, string | number>;
  readonly values?: readonly unknown[];
  readonly format?: string;
  readonly checks?: ReadonlyArray<{ _zod?: { def?: { format?: string; check?: string } } }>;
  readonly getter?: () => unknown;
}

/** The zod v4 definition of `schema`, or undefined for anything that is not a zod v4 schema. */
export function defOf(schema: unknown): ZodDef | undefined {
  return (schema as { _zod?: { def?: ZodDef } })?._zod?.def;
}

const optionalWrappers = new Set(['optional', 'default', 'prefault', 'nullable', 'catch']);
const transparentWrappers = new Set(['readonly', 'nonoptional']);

/**
 * A schema without its wrappers (optional, default, nullable, readonly, lazy, pipe...), and whether a wrapper
 * lets the value be absent or null. A pipe gives its input schema, except a preprocess (a pipe from a
 * transform), which gives its target: a transform's own output type is unknown. It stops after 16 levels, so
 * a self-referencing lazy schema cannot loop.
 */
export function unwrapSchema(schema: unknown): { schema: unknown; optional: boolean } {
  let current = schema;
  let optional = false;
  for (let depth = 0; depth < 16; depth++) {
    const def = defOf(current);
    if (!def) break;
    if (optionalWrappers.has(def.type)) {
      optional = true;
      current = def.innerType;
    } else if (transparentWrappers.has(def.type)) current = def.innerType;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else if (def.type === 'pipe') current = defOf(def.in)?.type === 'transform' ? def.out : def.in;
    else break;
  }
  return { schema: current, optional };
}

/** True for `z.number().int()` (and the int formats zod 4 offers). */
export function isInteger(def: ZodDef): boolean {
  if (def.format && /int/.test(def.format)) return true;
  return (def.checks ?? []).some((check) => /int/.test(check._zod?.def?.format ?? ''));
}

/** `orders.get` → `OrdersGet`; any character outside [A-Za-z0-9] separates words. */
export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

/** `orders.get` → `ordersGet`. */
export function camelCase(id: string): string {
  const pascal = pascalCase(id);
  return pascal[0].toLowerCase() + pascal.slice(1);
}
