import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import type { RegisteredBehavior, RegisteredCallable } from '@corekit/abstractions';
import {
  asRegisteredCallable,
  camelCase,
  defOf,
  isInteger,
  pascalCase,
  unwrapSchema,
} from '@corekit/transport-kit';

/** Any JSON value: what a zod schema without a GraphQL shape (record, union, unknown) becomes. */
export const jsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value (a zod record, union or unknown has no closer GraphQL type)',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: () => {
    throw new TypeError('JSON values are passed as variables, not inline literals');
  },
});

const namePattern = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** How one behavior became one root field. */
export interface GeneratedField {
  readonly behaviorId: string;
  readonly fieldName: string;
  readonly root: 'Query' | 'Mutation';
  /** True when the input is an object whose fields are the arguments; false for a single `input` argument. */
  readonly spreadArguments: boolean;
}

/** Generates types from zod schemas, naming each after its path (`OrdersGetResult`, `OrdersGetResultItems`). */
class TypeFactory {
  private readonly names = new Set<string>();

  private unique(name: string): string {
    let candidate = name;
    for (let index = 2; this.names.has(candidate); index++) candidate = `${name}${index}`;
    this.names.add(candidate);
    return candidate;
  }

  output(schema: unknown, name: string): GraphQLOutputType {
    const { schema: inner, optional } = unwrapSchema(schema);
    const type = this.outputInner(inner, name);
    return optional ? type : new GraphQLNonNull(type);
  }

  private outputInner(schema: unknown, name: string): GraphQLOutputType & { name?: string } {
    const def = defOf(schema);
    if (!def) return jsonScalar;
    switch (def.type) {
      case 'array':
        return new GraphQLList(this.output(def.element, `${name}Item`));
      case 'object': {
        const entries = Object.entries(def.shape ?? {}).filter(([key]) => namePattern.test(key));
        if (entries.length === 0 || entries.length !== Object.keys(def.shape ?? {}).length) return jsonScalar;
        const typeName = this.unique(name);
        return new GraphQLObjectType({
          name: typeName,
          fields: () =>
            Object.fromEntries(
              entries.map(([key, field]) => [
                key,
                { type: this.output(field, `${typeName}${pascalCase(key)}`) },
              ]),
            ),
        });
      }
      default:
        return this.scalar(def, name) ?? jsonScalar;
    }
  }

  input(schema: unknown, name: string): GraphQLInputType {
    const { schema: inner, optional } = unwrapSchema(schema);
    const type = this.inputInner(inner, name);
    return optional ? type : new GraphQLNonNull(type);
  }

  private inputInner(schema: unknown, name: string): GraphQLInputType {
    const def = defOf(schema);
    if (!def) return jsonScalar;
    switch (def.type) {
      case 'array':
        return new GraphQLList(this.input(def.element, `${name}Item`));
      case 'object': {
        const entries = Object.entries(def.shape ?? {});
        if (entries.length === 0 || !entries.every(([key]) => namePattern.test(key))) return jsonScalar;
        const typeName = this.unique(`${name}Input`);
        return new GraphQLInputObjectType({
          name: typeName,
          fields: () =>
            Object.fromEntries(
              entries.map(([key, field]) => [key, { type: this.input(field, `${name}${pascalCase(key)}`) }]),
            ),
        });
      }
      default:
        return this.scalar(def, name) ?? jsonScalar;
    }
  }

  private scalar(def: NonNullable<ReturnType<typeof defOf>>, name: string) {
    switch (def.type) {
      case 'string':
        return GraphQLString;
      case 'boolean':
        return GraphQLBoolean;
      case 'number':
        return isInteger(def) ? GraphQLInt : GraphQLFloat;
      case 'enum': {
        const values = Object.values(def.entries ?? {});
        if (
          values.length === 0 ||
          !values.every((value) => typeof value === 'string' && namePattern.test(value))
        )
          return GraphQLString;
        return new GraphQLEnumType({
          name: this.unique(name),
          values: Object.fromEntries(values.map((value) => [value, { value }])),
        });
      }
      case 'literal': {
        const [value] = def.values ?? [];
        return typeof value === 'string'
          ? GraphQLString
          : typeof value === 'boolean'
            ? GraphQLBoolean
            : undefined;
      }
      default:
        return undefined;
    }
  }
}

/** Builds the root field arguments of one behavior's input. */
function argumentsOf(
  factory: TypeFactory,
  entry: RegisteredCallable,
): { args: GraphQLFieldConfigArgumentMap; spread: boolean } {
  const base = pascalCase(entry.callable.id);
  const { schema } = unwrapSchema(entry.callable.input);
  const def = defOf(schema);
  if (def?.type === 'object' && Object.keys(def.shape ?? {}).every((key) => namePattern.test(key))) {
    const args = Object.fromEntries(
      Object.entries(def.shape ?? {}).map(([key, field]) => [
        key,
        { type: factory.input(field, `${base}${pascalCase(key)}`) },
      ]),
    );
    return { args, spread: true };
  }
  return { args: { input: { type: factory.input(entry.callable.input, base) } }, spread: false };
}

/**
 * Builds the schema: one root field per callable, a behavior or an operation the adapter serves
 * (`orders.get` → `ordersGet`; behavior entries `{ moduleId, behavior }` are accepted too), a Query field when `isQuery`
 * says it reads, a Mutation field otherwise. Object inputs become field arguments, other inputs one `input`
 * argument; outputs become object types named after the behavior (`OrdersGetResult`). What GraphQL cannot
 * type (records, unions, unknown, keys that are not GraphQL names) is the `JSON` scalar.
 */
export function buildGraphQlSchema(
  behaviors: readonly (RegisteredCallable | RegisteredBehavior)[],
  isQuery: (behaviorId: string) => boolean,
  resolve: (field: GeneratedField, args: Record<string, unknown>, context: unknown) => unknown,
): { schema: GraphQLSchema; fields: GeneratedField[] } {
  const factory = new TypeFactory();
  const roots: Record<'Query' | 'Mutation', Record<string, GraphQLFieldConfig<unknown, unknown>>> = {
    Query: {},
    Mutation: {},
  };
  const fields: GeneratedField[] = [];
  for (const entry of behaviors.map(asRegisteredCallable)) {
    const { id, description } = entry.callable;
    const root = isQuery(id) ? 'Query' : 'Mutation';
    const { args, spread } = argumentsOf(factory, entry);
    const field: GeneratedField = { behaviorId: id, fieldName: camelCase(id), root, spreadArguments: spread };
    fields.push(field);
    roots[root][field.fieldName] = {
      type: factory.output(entry.callable.output, `${pascalCase(id)}Result`),
      description: description ? `${description} (${entry.kind} ${id})` : `${entry.kind} ${id}`,
      args,
      resolve: (_source, fieldArgs, context) => resolve(field, fieldArgs, context),
    };
  }
  if (Object.keys(roots.Query).length === 0) {
    roots.Query._behaviors = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))),
      description: 'The behavior ids served (present only when no behavior is a query)',
      resolve: () => fields.map((field) => field.behaviorId),
    };
  }
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: roots.Query }),
    mutation:
      Object.keys(roots.Mutation).length > 0
        ? new GraphQLObjectType({ name: 'Mutation', fields: roots.Mutation })
        : undefined,
  });
  return { schema, fields };
}
