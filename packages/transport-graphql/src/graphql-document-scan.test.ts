import { transportTestHosts } from '@corekit/testing/transport-test-host';
import { createWebHost } from '@corekit/web-host';
import { parse } from 'graphql';
import { addGraphQlTransport, maxDocumentNesting, scanDocument } from './index';

const { startHost, closeHosts } = transportTestHosts(createWebHost);
afterEach(closeHosts);

/** The query of the issue: `count` aliases of one behavior call, about 33 bytes and 11 tokens each. */
function aliasQuery(count: number): string {
  const fields = Array.from({ length: count }, (_, index) => `a${index}: notesGet(id: "n1") { id }`);
  return `{ ${fields.join(' ')} }`;
}

async function post(base: string, query: string) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const bounds = { maxTokens: 5000, maxDepth: 8 };

describe('GraphQL documents bounded before parsing', () => {
  it('stops reading a 10,000-alias query one token past MaxTokens, a few percent into it', () => {
    const query = aliasQuery(10_000);
    expect(query.length).toBeGreaterThan(300_000);
    const scan = scanDocument(query, bounds);
    expect(scan).toMatchObject({ exceeded: 'tokens', tokens: 5001 });
    expect(scan.stoppedAt).toBeLessThan(query.length / 10);
    // The scan counts what the parser counts.
    const within = aliasQuery(10);
    expect(scanDocument(within, bounds)).toMatchObject({ exceeded: null, tokens: 112, depth: 2 });
    expect(parse(within).tokenCount).toBe(112);
  });

  it('counts selection depth outside parentheses only, and bounds every nesting', () => {
    const deep = `{ ${'a { '.repeat(8)}b${' }'.repeat(8)} }`;
    expect(scanDocument(deep, bounds)).toMatchObject({ exceeded: 'depth', depth: 9 });
    const inputObject = '{ a(x: {b: {c: {d: {e: {f: {g: {h: {i: 1}}}}}}}}) { id } }';
    expect(scanDocument(inputObject, bounds)).toMatchObject({ exceeded: null, depth: 2 });
    const list = `{ a(x: ${'['.repeat(3000)}${']'.repeat(3000)}) { id } }`;
    expect(scanDocument(list, bounds)).toMatchObject({ exceeded: 'nesting' });
    expect(scanDocument(list, bounds).tokens).toBeLessThanOrEqual(maxDocumentNesting + 4);
  });

  it('refuses the 300 KB alias query with TOKEN_LIMIT_EXCEEDED where reading stopped; validation is never reached', async () => {
    const { base } = await startHost(['GraphQL'], (builder) => void addGraphQlTransport(builder));
    const answer = await post(base, aliasQuery(10_000));
    expect(answer.body.data).toBeUndefined();
    // Validation would have answered COST_LIMIT_EXCEEDED (10,000 behavior calls): only the token bound answers.
    expect(answer.body.errors).toHaveLength(1);
    const [error] = answer.body.errors;
    expect(error.extensions).toEqual({ code: 'TOKEN_LIMIT_EXCEEDED', maxTokens: 5000 });
    expect(error.locations).toEqual([{ line: 1, column: expect.any(Number) }]);
    expect(error.locations[0].column).toBeLessThan(20_000);
  });

  it('honours MaxTokens from configuration, refuses a stack-deep literal, and still answers queries within bounds', async () => {
    const { base } = await startHost(['GraphQL'], (builder) => void addGraphQlTransport(builder), {
      GraphQL: { MaxTokens: 100 },
    });
    expect((await post(base, aliasQuery(10))).body.errors[0].extensions.code).toBe('TOKEN_LIMIT_EXCEEDED');
    const nested = await post(base, `{ notesGet(id: ${'['.repeat(3000)}${']'.repeat(3000)}) { id } }`);
    expect(nested.body.errors[0].extensions.code).toBe('NESTING_LIMIT_EXCEEDED');
    const answered = await post(base, aliasQuery(2));
    expect(answered.body.data).toEqual({ a0: { id: 'n1' }, a1: { id: 'n1' } });
  });
});
