import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { notesTestModule, transportTestHosts } from '@corekit/testing/transport-test-host';
import { createWebHost } from '@corekit/web-host';
import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { addGraphQlTransport, measureOperation } from './index';

const { startHost, closeHosts } = transportTestHosts(createWebHost);
afterEach(closeHosts);

/** `fanOut` fragments, each spreading the next twice: 2^(fanOut-1) behavior calls once expanded. */
function fanOutQuery(fanOut: number): string {
  const fragments = Array.from({ length: fanOut }, (_, index) =>
    index === fanOut - 1
      ? `fragment F${index} on Query { notesGet(id: "n1") { id } }`
      : `fragment F${index} on Query { ...F${index + 1} ...F${index + 1} }`,
  );
  return `query { ...F0 } ${fragments.join(' ')}`;
}

async function post(base: string, body: string, contentType = 'application/json') {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/json' },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const limits = { maxDepth: 8, maxCost: 200, rootFieldCost: 10 };

function measure(query: string) {
  const document = parse(query);
  const fragments = new Map(
    document.definitions
      .filter(
        (definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION,
      )
      .map((definition) => [definition.name.value, definition]),
  );
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  )!;
  return measureOperation(operation, fragments, limits);
}

describe('GraphQL limits in linear time', () => {
  it('measures each fragment once: the visits grow with the fragment count, not with the fan-out', () => {
    for (const fanOut of [24, 30, 60]) {
      const measured = measure(fanOutQuery(fanOut));
      expect(measured.exceeded).toBe('cost');
      expect(measured.cost).toBeGreaterThan(limits.maxCost);
      // Each fragment body (two selections) is walked at most once per nesting class (root or nested).
      expect(measured.selectionVisits).toBeLessThanOrEqual(4 * fanOut + 2);
    }
    const deep = measure(
      'query { ...T } fragment T on Query { __schema { types { ...F } } } fragment F on __Type { fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } } }',
    );
    expect(deep).toMatchObject({ exceeded: 'depth', depth: 9 });
  });

  it('refuses fan-out 24, 30 and 60 with COST_LIMIT_EXCEEDED while /health/live keeps answering', async () => {
    const { base } = await startHost(['GraphQL'], (builder) => void addGraphQlTransport(builder));
    const health = () => fetch(`${base}/health/live`).then((response) => response.status);
    const answers = await Promise.all([
      ...[24, 30, 60].map((fanOut) => post(base, JSON.stringify({ query: fanOutQuery(fanOut) }))),
      health(),
      health(),
    ]);
    for (const answer of answers.slice(0, 3) as { text: string }[]) {
      const body = JSON.parse(answer.text);
      expect(body.data).toBeUndefined();
      expect(body.errors[0].extensions.code).toBe('COST_LIMIT_EXCEEDED');
    }
    expect(answers.slice(3)).toEqual([200, 200]);
  });

  it('never echoes more than a bounded part of the input in an error message', async () => {
    const { base } = await startHost(['GraphQL'], (builder) => void addGraphQlTransport(builder));
    const huge = 'x'.repeat(1_000_000);
    const queries = [
      `{ notesGet(id: ${'9'.repeat(1_000_000)}) { id } }`,
      `{ notesGet(${huge}: "n1") { id } }`,
      `{ ${huge} }`,
      `{ notesGet(id: "n1") { id } ${huge.slice(0, 500_000)}: notesGet(id: 5) { id } }`,
    ];
    for (const query of queries) {
      const answer = await post(base, JSON.stringify({ query }));
      expect(JSON.parse(answer.text).errors.length).toBeGreaterThan(0);
      expect(answer.text.length).toBeLessThan(16_384);
    }
    const variable = await post(
      base,
      JSON.stringify({
        query: 'query Q($id: String!) { notesGet(id: $id) { id } }',
        variables: { id: [huge] },
      }),
    );
    expect(variable.text.length).toBeLessThan(16_384);
  });
});

describe('GraphQL requests a browser could forge, and introspection in production', () => {
  it('refuses mutations sent as text/plain, as a form or in another charset than UTF-8, and never runs them', async () => {
    const { base } = await startHost(['GraphQL'], (builder) => void addGraphQlTransport(builder));
    const mutation = JSON.stringify({ query: 'mutation { notesCreate(text: "forged") { id } }' });
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-7',
      'application/json; charset=utf-16',
    ]) {
      expect((await post(base, mutation, contentType)).status).toBe(415);
    }
    const get = await fetch(
      `${base}/graphql?query=${encodeURIComponent('mutation { notesCreate(text: "forged") { id } }')}`,
    );
    expect(get.status).toBe(405);
    const created = JSON.parse(
      (await post(base, JSON.stringify({ query: 'mutation { notesCreate(text: "real") { id } }' }))).text,
    );
    expect(created.data.notesCreate.id).toBe('n2');
  });

  it('refuses introspection by default under NODE_ENV=production; Engine:GraphQL:Introspection true answers it', async () => {
    const hosts: Array<{ close(): Promise<void> }> = [];
    const start = async (graphQl: Record<string, unknown>) => {
      const { builder } = createTestEngineBuilder({
        configuration: { Engine: { Transports: ['GraphQL'], GraphQL: graphQl } },
      });
      builder.addModule(notesTestModule());
      addGraphQlTransport(builder);
      const host = createWebHost(builder, {
        port: 0,
        handleSignals: false,
        environment: { NODE_ENV: 'production' },
        authorize: () => false,
      });
      hosts.push(host);
      return (await host.listen()).url.replace('localhost', '127.0.0.1');
    };
    try {
      const introspection = JSON.stringify({ query: '{ __schema { queryType { name } } }' });
      const guarded = JSON.parse((await post(await start({}), introspection)).text);
      expect(guarded.data).toBeUndefined();
      expect(guarded.errors[0].message).toMatch(/introspection/i);
      const opened = JSON.parse((await post(await start({ Introspection: true }), introspection)).text);
      expect(opened.data.__schema.queryType.name).toBe('Query');
    } finally {
      await Promise.all(hosts.map((host) => host.close()));
    }
  });
});
