import { defOf, isInteger, pascalCase, unwrapSchema } from '@corekit/transport-kit';

/** How a zod schema travels in protobuf. */
export type ProtoShape =
  | { readonly kind: 'scalar'; readonly type: 'string' | 'bool' | 'int64' | 'double' }
  | { readonly kind: 'message'; readonly fields: ReadonlyArray<{ name: string; schema: unknown }> }
  | { readonly kind: 'repeated'; readonly element: unknown }
  | { readonly kind: 'map'; readonly value: unknown }
  /** No protobuf shape (union, unknown, nested list...): carried as JSON text in a string field. */
  | { readonly kind: 'json' };

const fieldName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The protobuf shape of `schema` (wrappers removed) and whether the value may be absent. */
export function protoShape(schema: unknown): { shape: ProtoShape; optional: boolean } {
  const { schema: inner, optional } = unwrapSchema(schema);
  return { shape: innerShape(inner), optional };
}

function isElement(schema: unknown): boolean {
  const { shape } = protoShape(schema);
  return shape.kind === 'scalar' || shape.kind === 'message';
}

function innerShape(schema: unknown): ProtoShape {
  const def = defOf(schema);
  if (!def) return { kind: 'json' };
  switch (def.type) {
    case 'string':
    case 'enum':
      return def.type === 'enum' &&
        !Object.values(def.entries ?? {}).every((value) => typeof value === 'string')
        ? { kind: 'json' }
        : { kind: 'scalar', type: 'string' };
    case 'boolean':
      return { kind: 'scalar', type: 'bool' };
    case 'number':
      return { kind: 'scalar', type: isInteger(def) ? 'int64' : 'double' };
    case 'literal': {
      const values = def.values ?? [];
      if (values.every((value) => typeof value === 'string')) return { kind: 'scalar', type: 'string' };
      if (values.every((value) => typeof value === 'boolean')) return { kind: 'scalar', type: 'bool' };
      return { kind: 'json' };
    }
    case 'object': {
      const entries = Object.entries(def.shape ?? {});
      if (!entries.every(([key]) => fieldName.test(key))) return { kind: 'json' };
      return { kind: 'message', fields: entries.map(([name, field]) => ({ name, schema: field })) };
    }
    case 'array':
      return isElement(def.element) ? { kind: 'repeated', element: def.element } : { kind: 'json' };
    case 'record': {
      const key = defOf(unwrapSchema(def.keyType).schema);
      return key?.type === 'string' && isElement(def.valueType)
        ? { kind: 'map', value: def.valueType }
        : { kind: 'json' };
    }
    default:
      return { kind: 'json' };
  }
}

/** Top-level schemas that are not messages travel in a wrapper message with one field, `value`. */
export function isWrapped(schema: unknown): boolean {
  return protoShape(schema).shape.kind !== 'message';
}

/** `orders.get` → `OrdersGet` (the rpc name); `OrdersGetRequest`/`OrdersGetResponse` are its messages. */
export function rpcName(behaviorId: string): string {
  return pascalCase(behaviorId);
}

/**
 * Walks a value along its proto shape: scalars as they are, repeated and map items and message fields
 * through the same walk (absent and null fields dropped); only the `json` fields differ by direction.
 */
function convert(schema: unknown, value: unknown, json: (value: unknown) => unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const { shape } = protoShape(schema);
  switch (shape.kind) {
    case 'scalar':
      return value;
    case 'json':
      return json(value);
    case 'repeated':
      return (value as unknown[]).map((item) => convert(shape.element, item, json));
    case 'map':
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, item]) => [
          key,
          convert(shape.value, item, json),
        ]),
      );
    case 'message': {
      const out: Record<string, unknown> = {};
      for (const field of shape.fields) {
        const converted = convert(field.schema, (value as Record<string, unknown>)[field.name], json);
        if (converted !== undefined) out[field.name] = converted;
      }
      return out;
    }
  }
}

/** A JSON field as it arrives: its parsed value, the text itself when it is not JSON, nothing when empty. */
function parseJsonField(value: unknown): unknown {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Value as the protobuf object the generated message expects (JSON fields stringified, nulls dropped). */
export function toWire(schema: unknown, value: unknown): unknown {
  return convert(schema, value, (json) => JSON.stringify(json));
}

/** A decoded protobuf object back to the value the zod schema validates (absent and null fields dropped). */
export function fromWire(schema: unknown, value: unknown): unknown {
  return convert(schema, value, parseJsonField);
}
