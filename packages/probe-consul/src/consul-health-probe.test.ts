import {
  type ConsulFakeServer,
  startConsulFakeServer,
} from '@corekit/testing/fakes/consul/consul-fake-server';
import { probeRunner } from '@corekit/testing/probe-runner';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addConsulHealth } from './add-consul-health';
import type { ConsulHealthOptions } from './consul-health-options';

// These behaviour tests steer the fake (empty leader, ACL answers); the conformance suite in
// consul-health-conformance.test.ts runs against a real agent when CONSUL_URL is set.

const { probeOnce } = probeRunner<ConsulHealthOptions>(addConsulHealth);

describe('addConsulHealth', () => {
  let consul: ConsulFakeServer;
  beforeEach(async () => {
    consul = await startConsulFakeServer({
      aclToken: 'acl-token-secret-42',
      datacenters: ['dc1', 'eu-west'],
    });
  });
  afterEach(() => consul.close());

  it('resolves a bare base URL to GET /v1/status/leader with the token header and the dc parameter', async () => {
    const { entry } = await probeOnce({
      Dependencies: [
        { Id: 'consul', Endpoint: `${consul.url}/`, AclToken: 'acl-token-secret-42', Datacenter: 'eu-west' },
      ],
    });
    expect(entry).toMatchObject({
      status: 'Healthy',
      kind: 'Consul',
      data: { leader: '10.1.10.12:8300', datacenter: 'eu-west' },
    });
    expect(consul.requests).toHaveLength(1);
    expect(consul.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/status/leader',
      query: { dc: 'eu-west' },
    });
    expect(consul.requests[0].headers['x-consul-token']).toBe('acl-token-secret-42');
  });

  it('accepts host:port without a scheme (http) and requests a URL with a path as is', async () => {
    await probeOnce({
      Dependencies: [{ Id: 'a', Endpoint: `127.0.0.1:${consul.port}`, AclToken: 'acl-token-secret-42' }],
    });
    await probeOnce({
      Dependencies: [{ Id: 'b', Endpoint: `${consul.url}/v1/status/peers`, AclToken: 'acl-token-secret-42' }],
    });
    expect(consul.requests.map((request) => request.path)).toEqual(['/v1/status/leader', '/v1/status/peers']);
  });

  it('is Unhealthy with NO_LEADER when Consul answers an empty leader', async () => {
    consul.options.leader = '';
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'consul', Endpoint: consul.url, AclToken: 'acl-token-secret-42' }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('NO_LEADER');
    expect(entry.data).toMatchObject({ leader: '' });
  });

  it.each([
    ['a wrong token', 'not-the-token', 'ACL not found'],
    ['no token', undefined, 'Permission denied'],
  ])(
    'is Unhealthy with AUTHENTICATION_FAILED for %s, naming AclToken and never showing the token',
    async (_case, token, reason) => {
      const { entry, engine, logger } = await probeOnce({
        Dependencies: [{ Id: 'consul', Endpoint: consul.url, ...(token ? { AclToken: token } : {}) }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
      expect(entry.error?.message).toContain(reason);
      expect(entry.error?.message).toContain('AclToken');
      if (token) expect(JSON.stringify([engine.snapshot(), logger.records])).not.toContain(token);
    },
  );

  it('is Unhealthy with UNEXPECTED_STATUS for an unknown datacenter', async () => {
    const { entry } = await probeOnce({
      Dependencies: [
        { Id: 'consul', Endpoint: consul.url, AclToken: 'acl-token-secret-42', Datacenter: 'mars' },
      ],
    });
    expect(entry.error).toEqual({
      code: 'UNEXPECTED_STATUS',
      message: expect.stringContaining('500: No path to datacenter'),
    });
  });

  it('fails at registration with the key path when Endpoint is missing or the token is a placeholder', () => {
    const builder = () => createTestEngineBuilder().builder;
    expect(() => addConsulHealth(builder(), { Dependencies: [{ Id: 'consul' }] })).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringContaining(
          'Engine:Observability:DependencyHealth:Consul:Dependencies:0:Endpoint is required',
        ),
      }),
    );
    expect(() =>
      addConsulHealth(builder(), {
        Dependencies: [{ Id: 'consul', Endpoint: 'http://consul', AclToken: '<CONSUL_TOKEN>' }],
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringContaining(
          'Engine:Observability:DependencyHealth:Consul:Dependencies:0:AclToken still holds the placeholder',
        ),
      }),
    );
  });

  it('logs the service-discovery event ids (3142 healthy, 3143 unhealthy)', async () => {
    const { builder, logger } = createTestEngineBuilder();
    addConsulHealth(builder, {
      Dependencies: [{ Id: 'consul', Endpoint: consul.url, AclToken: 'acl-token-secret-42' }],
    });
    const engine = builder.build();
    await engine.refreshDependencies();
    consul.options.leader = '';
    await engine.refreshDependencies();
    expect(
      logger.records
        .filter((record) => record.eventId === 3142 || record.eventId === 3143)
        .map((record) => record.eventId),
    ).toEqual([3142, 3143]);
  });
});
