import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  basicCredentialsOf,
  startHttpFakeServer,
  type FakeHttpServer,
} from '@corekit/testing/http-fake-server';
import { createTestEngineBuilder, type TestEngineBuilderOptions } from '@corekit/testing/test-engine-builder';
import { addHttpHealth } from './add-http-health';
import type { HttpHealthOptions } from './http-health-options';

async function probeOnce(options: HttpHealthOptions, builderOptions: TestEngineBuilderOptions = {}) {
  const { builder, logger } = createTestEngineBuilder(builderOptions);
  addHttpHealth(builder, options);
  const engine = builder.build();
  await engine.refreshDependencies();
  return { engine, logger, dependencies: engine.dependencies() };
}

describe('addHttpHealth', () => {
  let server: FakeHttpServer;
  let answer = { status: 200 };
  beforeEach(async () => {
    answer = { status: 200 };
    server = await startHttpFakeServer(() => answer);
  });
  afterEach(() => server.close());

  it.each([200, 204, 299])(
    'is Healthy when ExpectedStatusCodes is omitted and the endpoint answers %i',
    async (status) => {
      answer = { status };
      const { dependencies } = await probeOnce({
        Dependencies: [{ Id: 'orders', Endpoint: `${server.url}/health` }],
      });
      expect(dependencies[0]).toMatchObject({
        id: 'orders',
        kind: 'Http',
        status: 'Healthy',
        data: { statusCode: status },
      });
    },
  );

  it.each([301, 404, 500, 503])(
    'is Unhealthy with UNEXPECTED_STATUS when the endpoint answers %i and no codes are listed',
    async (status) => {
      answer = { status };
      const { dependencies } = await probeOnce({
        Dependencies: [{ Id: 'orders', Endpoint: `${server.url}/health` }],
      });
      expect(dependencies[0].status).toBe('Unhealthy');
      expect(dependencies[0].error).toEqual({
        code: 'UNEXPECTED_STATUS',
        message: expect.stringContaining(`answered ${status}, expected any 2xx`),
      });
    },
  );

  it('uses ExpectedStatusCodes instead of 2xx when listed', async () => {
    answer = { status: 503 };
    const listed = await probeOnce({
      Dependencies: [{ Id: 'maintenance', Endpoint: server.url, ExpectedStatusCodes: [503] }],
    });
    expect(listed.dependencies[0].status).toBe('Healthy');
    answer = { status: 200 };
    const unlisted = await probeOnce({
      Dependencies: [{ Id: 'maintenance', Endpoint: server.url, ExpectedStatusCodes: [503] }],
    });
    expect(unlisted.dependencies[0].status).toBe('Unhealthy');
    expect(unlisted.dependencies[0].error?.message).toContain('expected 503');
  });

  it('sends the configured method, path and query on the wire, with no body', async () => {
    await probeOnce({
      Dependencies: [{ Id: 'orders', Endpoint: `${server.url}/status/ready?verbose=1`, Method: 'HEAD' }],
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'HEAD',
      path: '/status/ready',
      query: { verbose: '1' },
      body: '',
    });
    expect(server.requests[0].headers.connection).toBe('close');
  });

  it('sends credentials from the Endpoint URL as basic authentication and never publishes them', async () => {
    const endpoint = `http://monitor:p%40ss-word-1@127.0.0.1:${server.port}/health`;
    const { engine, logger } = await probeOnce({ Dependencies: [{ Id: 'orders', Endpoint: endpoint }] });
    expect(basicCredentialsOf(server.requests[0])).toEqual({ username: 'monitor', password: 'p@ss-word-1' });
    const published = JSON.stringify([engine.dependencies(), engine.snapshot(), logger.records]);
    expect(published).not.toContain('p@ss-word-1');
    expect(published).not.toContain('p%40ss-word-1');
    expect(engine.dependencies()[0].data).toMatchObject({ target: `http://127.0.0.1:${server.port}/health` });
  });

  it('reads the section from configuration, with string values from environment variables', async () => {
    answer = { status: 202 };
    const prefix = 'Engine__Observability__DependencyHealth__Http__';
    const { dependencies } = await probeOnce(
      {},
      {
        environment: {
          [`${prefix}RefreshIntervalSeconds`]: '12',
          [`${prefix}Dependencies__0__Id`]: 'billing',
          [`${prefix}Dependencies__0__Endpoint`]: `${server.url}/health`,
          [`${prefix}Dependencies__0__Method`]: 'get',
          [`${prefix}Dependencies__0__ExpectedStatusCodes`]: '200,202',
          [`${prefix}Dependencies__0__Required`]: 'false',
          [`${prefix}Dependencies__0__TimeoutSeconds`]: '3',
        },
      },
    );
    expect(dependencies[0]).toMatchObject({
      id: 'billing',
      displayName: 'billing',
      required: false,
      refreshIntervalSeconds: 12,
      timeoutSeconds: 3,
      status: 'Healthy',
    });
  });

  it('merges code options over engine.json: code wins per field, dependencies matched by Id, new ones appended', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'probe-http-json-'));
    writeFileSync(
      path.join(root, 'engine.json'),
      JSON.stringify({
        Engine: {
          Observability: {
            DependencyHealth: {
              Http: {
                RefreshIntervalSeconds: 40,
                Dependencies: [{ Id: 'a', Endpoint: `${server.url}/a`, DisplayName: 'A from file' }],
              },
            },
          },
        },
      }),
    );
    const { dependencies } = await probeOnce(
      {
        Dependencies: [
          { Id: 'a', TimeoutSeconds: 2 },
          { Id: 'b', Endpoint: `${server.url}/b`, Required: false },
        ],
      },
      { contentRoot: root },
    );
    expect(
      dependencies.map((entry) => [
        entry.id,
        entry.displayName,
        entry.timeoutSeconds,
        entry.required,
        entry.refreshIntervalSeconds,
      ]),
    ).toEqual([
      ['a', 'A from file', 2, true, 40],
      ['b', 'b', 5, false, 40],
    ]);
    expect(server.requests.map((request) => request.path).sort()).toEqual(['/a', '/b']);
  });

  it.each([
    [{ Id: 'x' }, 'Engine:Observability:DependencyHealth:Http:Dependencies:0:Endpoint is required'],
    [
      { Id: 'x', Endpoint: 'orders:8080/health' },
      'Engine:Observability:DependencyHealth:Http:Dependencies:0:Endpoint must be an absolute http or https URL',
    ],
    [
      { Id: 'x', Endpoint: 'http://orders/health', TimeoutSeconds: -1 },
      'Engine:Observability:DependencyHealth:Http:Dependencies:0:TimeoutSeconds must be a positive integer, got -1',
    ],
    [
      { Id: 'x', Endpoint: 'http://orders/health', ExpectedStatusCodes: [200, 999] },
      'Engine:Observability:DependencyHealth:Http:Dependencies:0:ExpectedStatusCodes:1 must be an HTTP status code',
    ],
    [
      { Id: 'x', Endpoint: 'http://orders/health', Method: 'DELETE' },
      'Engine:Observability:DependencyHealth:Http:Dependencies:0:Method',
    ],
  ])('fails at registration with CONFIGURATION_INVALID and the key path for %j', (entry, expected) => {
    const builder = createTestEngineBuilder().builder;
    expect(() => addHttpHealth(builder, { Dependencies: [entry as never] })).toThrow(
      expect.objectContaining({ code: 'CONFIGURATION_INVALID', message: expect.stringContaining(expected) }),
    );
  });

  it('fails at registration when two dependencies share an Id', () => {
    const builder = createTestEngineBuilder().builder;
    expect(() =>
      addHttpHealth(builder, {
        Dependencies: [
          { Id: 'same', Endpoint: 'http://a/' },
          { Id: 'same', Endpoint: 'http://b/' },
        ],
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringContaining(
          'Engine:Observability:DependencyHealth:Http:Dependencies:1:Id duplicates the Id "same"',
        ),
      }),
    );
  });

  it('logs the generic HTTP event ids (3100 healthy, 3101 unhealthy) on status changes', async () => {
    const { builder, logger } = createTestEngineBuilder();
    addHttpHealth(builder, { Dependencies: [{ Id: 'orders', Endpoint: server.url }] });
    const engine = builder.build();
    await engine.refreshDependencies();
    answer = { status: 500 };
    await engine.refreshDependencies();
    await engine.refreshDependencies();
    answer = { status: 200 };
    await engine.refreshDependencies();
    expect(
      logger.records
        .filter((record) => record.eventId === 3100 || record.eventId === 3101)
        .map((record) => record.eventId),
    ).toEqual([3100, 3101, 3100]);
  });
});
