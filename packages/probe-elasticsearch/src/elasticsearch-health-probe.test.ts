import {
  type ElasticsearchFakeServer,
  startElasticsearchFakeServer,
} from '@corekit/testing/fakes/elasticsearch/elasticsearch-fake-server';
import { basicCredentialsOf } from '@corekit/testing/http-fake-server';
import { probeRunner } from '@corekit/testing/probe-runner';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addElasticsearchHealth } from './add-elasticsearch-health';
import type { ElasticsearchHealthOptions } from './elasticsearch-health-options';

// These tests steer the fake (colours, timed_out, credentials). The conformance suite runs against a real
// cluster when ELASTICSEARCH_URL is set.

const { probeOnce } = probeRunner<ElasticsearchHealthOptions>(addElasticsearchHealth);

describe('addElasticsearchHealth', () => {
  let cluster: ElasticsearchFakeServer;
  beforeEach(async () => {
    cluster = await startElasticsearchFakeServer();
  });
  afterEach(() => cluster.close());

  it.each([
    ['green', 'Healthy', null],
    ['yellow', 'Degraded', null],
    ['red', 'Unhealthy', 'CLUSTER_RED'],
  ] as const)('maps a %s cluster to %s', async (colour, expected, code) => {
    cluster.options.status = colour;
    const { entry, engine } = await probeOnce({ Dependencies: [{ Id: 'search', Endpoint: cluster.url }] });
    expect(entry.status).toBe(expected);
    expect(entry.error?.code ?? null).toBe(code);
    expect(entry.data).toMatchObject({
      clusterName: 'fake-elasticsearch',
      clusterStatus: colour,
      numberOfNodes: 3,
    });
    await engine.start();
    expect(engine.readiness().status).toBe(
      expected === 'Degraded' ? 'Degraded' : expected === 'Healthy' ? 'Healthy' : 'Unhealthy',
    );
    await engine.stop();
  });

  it('maps timed_out: true (HTTP 408) to Unhealthy even when the colour is green', async () => {
    cluster.options.timedOut = true;
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'search', Endpoint: cluster.url }] });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('CLUSTER_HEALTH_TIMED_OUT');
  });

  it('resolves a bare base URL to GET /_cluster/health; keeps an index path and query parameters', async () => {
    await probeOnce({ Dependencies: [{ Id: 'a', Endpoint: `${cluster.url}/` }] });
    await probeOnce({
      Dependencies: [
        {
          Id: 'b',
          Endpoint: `127.0.0.1:${cluster.port}/_cluster/health/orders?wait_for_status=yellow&timeout=2s`,
        },
      ],
    });
    expect(cluster.requests.map((request) => [request.method, request.path, request.query])).toEqual([
      ['GET', '/_cluster/health', {}],
      ['GET', '/_cluster/health/orders', { wait_for_status: 'yellow', timeout: '2s' }],
    ]);
  });

  it.each([
    [
      'ApiKey',
      { ApiKey: 'a2V5LWlkOmtleS1zZWNyZXQtdmFsdWU=' },
      { apiKey: 'a2V5LWlkOmtleS1zZWNyZXQtdmFsdWU=' },
      'ApiKey a2V5LWlkOmtleS1zZWNyZXQtdmFsdWU=',
    ],
    [
      'BearerToken',
      { BearerToken: 'bearer-secret-token-77' },
      { bearerToken: 'bearer-secret-token-77' },
      'Bearer bearer-secret-token-77',
    ],
  ] as const)('sends %s in the Authorization header', async (_field, credentials, fake, header) => {
    Object.assign(cluster.options, fake);
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'search', Endpoint: cluster.url, ...credentials }],
    });
    expect(entry.status).toBe('Healthy');
    expect(cluster.requests[0].headers.authorization).toBe(header);
  });

  it('sends Username/Password (or credentials in the Endpoint URL) as basic authentication', async () => {
    Object.assign(cluster.options, { username: 'elastic', password: 'changeme-secret-1' });
    await probeOnce({
      Dependencies: [{ Id: 'a', Endpoint: cluster.url, Username: 'elastic', Password: 'changeme-secret-1' }],
    });
    await probeOnce({
      Dependencies: [{ Id: 'b', Endpoint: `http://elastic:changeme-secret-1@127.0.0.1:${cluster.port}` }],
    });
    expect(cluster.requests.map((request) => basicCredentialsOf(request))).toEqual([
      { username: 'elastic', password: 'changeme-secret-1' },
      { username: 'elastic', password: 'changeme-secret-1' },
    ]);
  });

  it.each([
    ['wrong credentials', { ApiKey: 'd3Jvbmc6a2V5LXZhbHVl' }, 'unable to authenticate'],
    ['no credentials', {}, 'missing authentication credentials'],
  ])(
    'is Unhealthy with AUTHENTICATION_FAILED for %s (401), without showing the key',
    async (_case, credentials, reason) => {
      cluster.options.apiKey = 'the-right-key';
      const { entry, engine, logger } = await probeOnce({
        Dependencies: [{ Id: 'search', Endpoint: cluster.url, ...credentials }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
      expect(entry.error?.message).toContain('401');
      expect(entry.error?.message).toContain(reason);
      expect(entry.error?.message).toContain('ApiKey, BearerToken or Username/Password');
      expect(JSON.stringify([engine.dependencies(), engine.snapshot(), logger.records])).not.toContain(
        'd3Jvbmc6a2V5LXZhbHVl',
      );
    },
  );

  it('fails at registration with the key path for a missing endpoint or two kinds of credentials', () => {
    const builder = () => createTestEngineBuilder().builder;
    const prefix = 'Engine:Observability:DependencyHealth:Elasticsearch:Dependencies:0';
    expect(() => addElasticsearchHealth(builder(), { Dependencies: [{ Id: 'search' }] })).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringContaining(`${prefix}:Endpoint is required`),
      }),
    );
    expect(() =>
      addElasticsearchHealth(builder(), {
        Dependencies: [
          { Id: 'search', Endpoint: 'http://es:9200', ApiKey: 'k-value', BearerToken: 't-value' },
        ],
      }),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(`${prefix}:BearerToken set only one kind of credentials`),
      }),
    );
    expect(() =>
      addElasticsearchHealth(builder(), {
        Dependencies: [{ Id: 'search', Endpoint: 'http://es:9200', Username: 'elastic' }],
      }),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(`${prefix}:Password is required when Username is set`),
      }),
    );
  });

  it('logs the search cluster A event ids (3138 healthy, 3139 unhealthy)', async () => {
    const { builder, logger } = createTestEngineBuilder();
    addElasticsearchHealth(builder, { Dependencies: [{ Id: 'search', Endpoint: cluster.url }] });
    const engine = builder.build();
    await engine.refreshDependencies();
    cluster.options.status = 'red';
    await engine.refreshDependencies();
    expect(
      logger.records
        .filter((record) => record.eventId === 3138 || record.eventId === 3139)
        .map((record) => record.eventId),
    ).toEqual([3138, 3139]);
  });
});
