import {
  type OpenSearchFakeServer,
  startOpenSearchFakeServer,
} from '@corekit/testing/fakes/opensearch/opensearch-fake-server';
import { basicCredentialsOf } from '@corekit/testing/http-fake-server';
import { probeRunner } from '@corekit/testing/probe-runner';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addOpenSearchHealth } from './add-opensearch-health';
import type { OpenSearchHealthOptions } from './opensearch-health-options';

// These tests steer the fake (colours, timed_out, missing cluster manager, credentials). The conformance
// suite runs against a real cluster when OPENSEARCH_URL is set.

const { probeOnce } = probeRunner<OpenSearchHealthOptions>(addOpenSearchHealth);

describe('addOpenSearchHealth', () => {
  let cluster: OpenSearchFakeServer;
  beforeEach(async () => {
    cluster = await startOpenSearchFakeServer({ indices: ['orders'] });
  });
  afterEach(() => cluster.close());

  it.each([
    ['green', 'Healthy', null],
    ['yellow', 'Degraded', null],
    ['red', 'Unhealthy', 'CLUSTER_RED'],
  ] as const)('maps a %s cluster to %s', async (colour, expected, code) => {
    cluster.options.status = colour;
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'search', Endpoint: cluster.url }] });
    expect(entry.status).toBe(expected);
    expect(entry.error?.code ?? null).toBe(code);
    expect(entry.data).toMatchObject({ clusterName: 'fake-opensearch', clusterStatus: colour });
  });

  it('maps timed_out: true (HTTP 408) to Unhealthy', async () => {
    cluster.options.timedOut = true;
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'search', Endpoint: cluster.url }] });
    expect(entry.error?.code).toBe('CLUSTER_HEALTH_TIMED_OUT');
  });

  it('maps a missing cluster manager (503 cluster_manager_not_discovered_exception) to Unhealthy', async () => {
    cluster.options.clusterManagerMissing = true;
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'search', Endpoint: cluster.url }] });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('CLUSTER_MANAGER_NOT_DISCOVERED');
  });

  it('appends Index to the health path, and reports a missing index (timed out, red) as Unhealthy', async () => {
    const known = await probeOnce({
      Dependencies: [{ Id: 'a', Endpoint: `${cluster.url}/`, Index: 'orders' }],
    });
    const missing = await probeOnce({
      Dependencies: [{ Id: 'b', Endpoint: cluster.url, Index: 'no-such-index' }],
    });
    await probeOnce({ Dependencies: [{ Id: 'c', Endpoint: `${cluster.url}/_cluster/health?local=true` }] });
    expect(cluster.requests.map((request) => [request.path, request.query])).toEqual([
      ['/_cluster/health/orders', {}],
      ['/_cluster/health/no-such-index', {}],
      ['/_cluster/health', { local: 'true' }],
    ]);
    expect(known.entry.status).toBe('Healthy');
    expect(missing.entry.error?.code).toBe('CLUSTER_HEALTH_TIMED_OUT');
  });

  it('sends BearerToken as a bearer header and Username/Password as basic credentials', async () => {
    cluster.options.bearerToken = 'jwt-secret-value-1';
    const bearer = await probeOnce({
      Dependencies: [{ Id: 'a', Endpoint: cluster.url, BearerToken: 'jwt-secret-value-1' }],
    });
    expect(bearer.entry.status).toBe('Healthy');
    expect(cluster.requests[0].headers.authorization).toBe('Bearer jwt-secret-value-1');
    cluster.options.bearerToken = undefined;
    cluster.options.username = 'admin';
    cluster.options.password = 'Admin-Secret-2';
    const basic = await probeOnce({
      Dependencies: [{ Id: 'b', Endpoint: cluster.url, Username: 'admin', Password: 'Admin-Secret-2' }],
    });
    expect(basic.entry.status).toBe('Healthy');
    expect(basicCredentialsOf(cluster.requests[1])).toEqual({
      username: 'admin',
      password: 'Admin-Secret-2',
    });
  });

  it('is Unhealthy with AUTHENTICATION_FAILED for a wrong password (401), without showing it', async () => {
    cluster.options.username = 'admin';
    cluster.options.password = 'the-right-one';
    const { entry, engine, logger } = await probeOnce({
      Dependencies: [{ Id: 'search', Endpoint: cluster.url, Username: 'admin', Password: 'Wrong-Secret-3' }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toContain('401');
    expect(entry.error?.message).toContain('BearerToken or Username/Password');
    expect(JSON.stringify([engine.dependencies(), engine.snapshot(), logger.records])).not.toContain(
      'Wrong-Secret-3',
    );
  });

  it('fails at registration with the key path for a missing endpoint or a password without a user', () => {
    const builder = () => createTestEngineBuilder().builder;
    const prefix = 'Engine:Observability:DependencyHealth:OpenSearch:Dependencies:0';
    expect(() =>
      addOpenSearchHealth(builder(), { Dependencies: [{ Id: 'search', Index: 'orders' }] }),
    ).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringContaining(`${prefix}:Endpoint is required`),
      }),
    );
    expect(() =>
      addOpenSearchHealth(builder(), {
        Dependencies: [{ Id: 'search', Endpoint: 'https://os:9200', Password: 'p-value' }],
      }),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(`${prefix}:Username is required when Password is set`),
      }),
    );
  });

  it('logs the search cluster B event ids (3150 healthy, 3151 unhealthy)', async () => {
    const { builder, logger } = createTestEngineBuilder();
    addOpenSearchHealth(builder, { Dependencies: [{ Id: 'search', Endpoint: cluster.url }] });
    const engine = builder.build();
    await engine.refreshDependencies();
    cluster.options.clusterManagerMissing = true;
    await engine.refreshDependencies();
    expect(
      logger.records
        .filter((record) => record.eventId === 3150 || record.eventId === 3151)
        .map((record) => record.eventId),
    ).toEqual([3150, 3151]);
  });
});
