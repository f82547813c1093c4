import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { printSchema } from 'graphql';
import { defineBehavior } from '@corekit/abstractions';
import { transportTestHosts } from '@corekit/testing/transport-test-host';
import { createWebHost } from '@corekit/web-host';
import { z } from 'zod';
import {
  addGraphQlTransport,
  buildGraphQlSchema,
  graphQlErrorCodes,
  graphQlOptionsSchema,
  queryRule,
} from './index';

const { startHost, closeHosts } = transportTestHosts(createWebHost);
afterEach(closeHosts);

async function gql(base: string, query: string, variables?: Record<string, unknown>, path = '/graphql') {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const graphQl = (builder: Parameters<typeof addGraphQlTransport>[0]) => void addGraphQlTransport(builder);

describe('GraphQL transport', () => {
  it('generates queries for reads and mutations for the rest from the zod schemas', async () => {
    const { host, base } = await startHost(['RestApi', 'GraphQL'], graphQl);
    const created = await gql(base, 'mutation { notesCreate(text: "second") { id text } }');
    expect(created.body).toEqual({ data: { notesCreate: { id: 'n2', text: 'second' } } });
    const read = await gql(base, 'query Get($id: String!) { notesGet(id: $id) { text } }', { id: 'n2' });
    expect(read.body).toEqual({ data: { notesGet: { text: 'second' } } });
    const get = await fetch(`${base}/graphql?query=${encodeURIComponent('{ notesGet(id: "n1") { id } }')}`);
    expect(await get.json()).toEqual({ data: { notesGet: { id: 'n1' } } });
    const sdl = await gql(
      base,
      '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }',
    );
    expect(sdl.body.data.__schema.queryType.fields.map((field: { name: string }) => field.name)).toEqual([
      'notesGet',
    ]);
    expect(sdl.body.data.__schema.mutationType.fields.map((field: { name: string }) => field.name)).toEqual([
      'notesCreate',
      'notesExplode',
    ]);
    const surface = host.engine.technologySurfaces().find((entry) => entry.id === 'transport-graphql')!;
    expect(surface.metadata).toMatchObject({
      mounted: true,
      operations: ['notes.create', 'notes.explode', 'notes.get'],
      queries: ['notesGet'],
    });
  });

  it('refuses invalid input (GraphQL validation and the behavior schema) with extension codes', async () => {
    const { base } = await startHost(['GraphQL'], graphQl);
    const wrongType = await gql(base, '{ notesGet(id: 5) { id } }');
    expect(wrongType.body.errors[0].message).toMatch(/String/);
    const empty = await gql(base, 'mutation { notesCreate(text: "") { id } }');
    expect(empty.body.errors[0]).toMatchObject({
      path: ['notesCreate'],
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'BEHAVIOR_INPUT_INVALID', status: 400 },
    });
    expect(empty.body.errors[0].extensions.errors[0].path).toBe('text');
  });

  it('answers an unknown field with a validation error and never runs anything', async () => {
    const { base } = await startHost(['GraphQL'], graphQl);
    const unknown = await gql(base, '{ notesDelete(id: "n1") { id } }');
    expect(unknown.body.data).toBeUndefined();
    expect(unknown.body.errors[0].message).toMatch(/Cannot query field "notesDelete"/);
  });

  it('maps behavior errors through the error-kind table and hides unexpected ones', async () => {
    const { base, logger } = await startHost(['GraphQL'], graphQl);
    const missing = await gql(base, '{ notesGet(id: "zz") { id } }');
    expect(missing.body.errors[0]).toMatchObject({
      message: 'No note "zz"',
      extensions: {
        code: graphQlErrorCodes['not-found'],
        errorCode: 'NOTE_NOT_FOUND',
        kind: 'not-found',
        status: 404,
      },
    });
    const crash = await gql(base, 'mutation { notesExplode }');
    expect(crash.body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(JSON.stringify(crash.body)).not.toContain('secret internal detail');
    expect(logger.records.some((record) => record.eventId === 3287)).toBe(true);
  });

  it('refuses operations over the depth and cost limits before running them', async () => {
    const { base } = await startHost(['GraphQL'], graphQl, { GraphQL: { MaxDepth: 1, MaxCost: 25 } });
    const deep = await gql(base, '{ notesGet(id: "n1") { id } }');
    expect(deep.body.errors[0].extensions).toMatchObject({ code: 'DEPTH_LIMIT_EXCEEDED', depth: 2 });
  });

  it('counts every behavior call (fragments included) against MaxCost', async () => {
    const { base } = await startHost(['GraphQL'], graphQl, { GraphQL: { MaxCost: 25 } });
    const cheap = await gql(base, '{ a: notesGet(id: "n1") { id } b: notesGet(id: "n1") { id } }');
    expect(cheap.body.data.a.id).toBe('n1');
    const costly = await gql(
      base,
      'query { ...F ...F2 } fragment F on Query { a: notesGet(id: "n1") { id text } } fragment F2 on Query { b: notesGet(id: "n1") { id } c: notesGet(id: "n1") { id } }',
    );
    expect(costly.body.errors[0].extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', cost: 34 });
  });

  it('honours Queries/Mutations overrides and types nested objects, lists, enums, optionals and records', () => {
    const rule = queryRule(
      graphQlOptionsSchema.parse({ Mutations: ['notes.get'], Queries: ['notes.recount'] }),
    );
    const behavior = (id: string, input: z.ZodType, output: z.ZodType) => ({
      moduleId: 'notes',
      behavior: defineBehavior({ id, input, output, handler: () => ({}) as never }),
    });
    const { schema } = buildGraphQlSchema(
      [
        behavior('notes.get', z.object({ id: z.string() }), z.object({ id: z.string() })),
        behavior(
          'notes.recount',
          z.object({ tags: z.array(z.string()).optional(), mode: z.enum(['fast', 'exact']) }),
          z.object({
            total: z.number().int(),
            ratio: z.number().nullable(),
            bySku: z.record(z.string(), z.number()),
            items: z.array(z.object({ sku: z.string() })),
          }),
        ),
      ],
      rule,
      () => null,
    );
    const sdl = printSchema(schema);
    expect(sdl).toContain('notesRecount(tags: [String!], mode: NotesRecountMode!): NotesRecountResult!');
    expect(sdl).toMatch(/type Mutation \{[^}]*notesGet\(id: String!\): NotesGetResult!/);
    expect(sdl).toContain('total: Int!');
    expect(sdl).toContain('ratio: Float\n');
    expect(sdl).toContain('bySku: JSON!');
    expect(sdl).toContain('items: [NotesRecountResultItemsItem!]!');
    const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
    addGraphQlTransport(builder);
    expect(() => addGraphQlTransport(builder)).toThrow(
      expect.objectContaining({ code: 'ALREADY_REGISTERED' }),
    );
  });
});
