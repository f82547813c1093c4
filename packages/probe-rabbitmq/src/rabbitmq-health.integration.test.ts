import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { probeRunner } from '@corekit/testing/probe-runner';
import { requireService } from '@corekit/testing/require-service';
import { isRabbitMqCtlAvailable, rabbitMqCtl } from '@corekit/testing/servers/rabbitmqctl';
import { startTcpProxy } from '@corekit/testing/servers/tcp-proxy';
import { startTlsTestServer } from '@corekit/testing/servers/tls-test-server';
import { runJestTrustingCertificate } from '@corekit/testing/servers/trusted-certificate-jest';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addRabbitMqHealth } from './add-rabbitmq-health';
import type { RabbitMqHealthOptions } from './rabbitmq-health-options';

// Real broker: RabbitMQ at RABBITMQ_URL (default amqp://guest:guest@127.0.0.1:5672). Users and a virtual
// host are created for the test with rabbitmqctl. A TCP proxy in front of the broker stands in for a broker
// that stops and comes back; a local TLS server records the SNI of the TLS ClientHello.
const rabbitUrl = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const broker = new URL(rabbitUrl);
const brokerHost = broker.hostname.replace(/^\[(.*)\]$/, '$1');
const brokerPort = Number(broker.port || (broker.protocol === 'amqps:' ? 5671 : 5672));
/** The address requireService probes (it reads host and port from an http URL). */
const brokerAddress = `http://${broker.host.replace(/:\d+$/, '')}:${brokerPort}`;

const { probeOnce } = probeRunner<RabbitMqHealthOptions>(addRabbitMqHealth);

describeProbeConformance({
  kind: 'RabbitMq',
  add: addRabbitMqHealth,
  healthyUpstream: async () => {
    if (!(await requireService('RabbitMQ', brokerAddress, 'RABBITMQ_URL'))) {
      throw new Error(
        'RabbitMQ is not reachable; the conformance suite needs a real broker (set RABBITMQ_URL)',
      );
    }
    return {
      entry: { ConnectionString: rabbitUrl },
      secrets: broker.password ? [decodeURIComponent(broker.password)] : [],
      close: async () => undefined,
    };
  },
  refusedEntry: (port) => ({ Host: '127.0.0.1', Port: port }),
});

describe('addRabbitMqHealth against the real broker', () => {
  const suffix = randomBytes(4).toString('hex');
  const virtualHost = `corekit/probe ${suffix}`;
  const user = `corekit_probe_${suffix}`;
  const password = `pw-${randomBytes(9).toString('hex')}`;
  const outsider = `corekit_outsider_${suffix}`;
  let ready = false;

  beforeAll(async () => {
    if (!(await requireService('RabbitMQ', brokerAddress, 'RABBITMQ_URL'))) return;
    if (!(await isRabbitMqCtlAvailable())) {
      const message =
        'rabbitmqctl is not available (it needs the broker administrator rights): the tests that create a user and a virtual host cannot run';
      if (process.env.CI === 'true') throw new Error(`${message}; CI=true, so they fail instead of skipping`);
      console.warn(`SKIPPING: ${message}`);
      return;
    }
    await rabbitMqCtl('add_vhost', virtualHost);
    await rabbitMqCtl('add_user', user, password);
    // empty configure/write/read patterns: the probe needs access to the vhost and no permission at all
    await rabbitMqCtl('set_permissions', '-p', virtualHost, user, '', '', '');
    await rabbitMqCtl('add_user', outsider, password);
    ready = true;
  }, 60000);

  afterAll(async () => {
    if (!ready) return;
    await rabbitMqCtl('delete_user', user).catch(() => undefined);
    await rabbitMqCtl('delete_user', outsider).catch(() => undefined);
    await rabbitMqCtl('delete_vhost', virtualHost).catch(() => undefined);
  }, 60000);

  const entry = (fields: Record<string, unknown>) => ({
    Dependencies: [{ Id: 'broker', Host: brokerHost, Port: brokerPort, ...fields }],
  });

  it('opens a virtual host created for the test (a name with "/" and a space) as a user with no permissions beyond access', async () => {
    if (!ready) return;
    const { entry: result } = await probeOnce(
      entry({ VirtualHost: virtualHost, Username: user, Password: password }),
    );
    expect(result.status).toBe('Healthy');
    expect(result.data).toMatchObject({
      product: 'RabbitMQ',
      serverVersion: expect.stringMatching(/^\d+\.\d+/),
      virtualHost,
      tls: false,
    });
    expect(result.data.target).toBe(`amqp://${brokerHost}:${brokerPort}/${encodeURIComponent(virtualHost)}`);
  });

  it('reads the virtual host from an AMQP URI (URL-encoded path) and takes Password from its own field', async () => {
    if (!ready) return;
    const connectionString = `amqp://${user}@${brokerHost}:${brokerPort}/${encodeURIComponent(virtualHost)}`;
    const { entry: result } = await probeOnce({
      Dependencies: [{ Id: 'broker', ConnectionString: connectionString, Password: password }],
    });
    expect(result.status).toBe('Healthy');
    expect(result.data).toMatchObject({ virtualHost });
  });

  it('is Unhealthy with AUTHENTICATION_FAILED for a wrong password, which appears nowhere', async () => {
    if (!ready) return;
    const {
      entry: result,
      engine,
      logger,
    } = await probeOnce(entry({ VirtualHost: virtualHost, Username: user, Password: 'wrong-password-5150' }));
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(result.error?.message).toContain('ACCESS_REFUSED');
    expect(result.error?.message).toContain(
      'Engine:Observability:DependencyHealth:RabbitMq:Dependencies:0:Username and :Password',
    );
    expect(
      JSON.stringify([engine.snapshot(), engine.health(), engine.dependencies(), logger.records]),
    ).not.toContain('wrong-password-5150');
  });

  it('is Unhealthy with AUTHENTICATION_FAILED for an unknown user', async () => {
    if (!ready) return;
    const { entry: result } = await probeOnce(entry({ Username: `nobody_${suffix}`, Password: password }));
    expect(result.error?.code).toBe('AUTHENTICATION_FAILED');
  });

  it('is Unhealthy with VIRTUAL_HOST_REFUSED for a virtual host that does not exist', async () => {
    if (!(await requireService('RabbitMQ', brokerAddress, 'RABBITMQ_URL'))) return;
    const { entry: result } = await probeOnce({
      Dependencies: [{ Id: 'broker', ConnectionString: rabbitUrl, VirtualHost: `no-such-vhost-${suffix}` }],
    });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('VIRTUAL_HOST_REFUSED');
    expect(result.error?.message).toContain(`"no-such-vhost-${suffix}"`);
    expect(result.error?.message).toContain(
      'Engine:Observability:DependencyHealth:RabbitMq:Dependencies:0:VirtualHost',
    );
  });

  it('is Unhealthy with VIRTUAL_HOST_REFUSED for a user without access to the virtual host', async () => {
    if (!ready) return;
    const { entry: result } = await probeOnce(
      entry({ VirtualHost: virtualHost, Username: outsider, Password: password }),
    );
    expect(result.error?.code).toBe('VIRTUAL_HOST_REFUSED');
  });

  it('turns Unhealthy on the next refresh when the broker goes away (proxy stopped), and Healthy again when it is back', async () => {
    if (!(await requireService('RabbitMQ', brokerAddress, 'RABBITMQ_URL'))) return;
    const proxy = await startTcpProxy({ host: brokerHost, port: brokerPort });
    const { builder, logger } = createTestEngineBuilder();
    const credentials = {
      Username: decodeURIComponent(broker.username || 'guest'),
      Password: decodeURIComponent(broker.password || 'guest'),
    };
    addRabbitMqHealth(builder, {
      Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: proxy.port, ...credentials }],
    });
    const engine = builder.build();
    try {
      await engine.start();
      expect(engine.dependencies()[0].status).toBe('Healthy');
      await proxy.stop();
      await engine.refreshDependencies();
      expect(engine.dependencies()[0]).toMatchObject({
        status: 'Unhealthy',
        error: { code: 'ECONNREFUSED' },
      });
      expect(engine.readiness().status).toBe('Unhealthy');
      await proxy.start();
      await engine.refreshDependencies();
      expect(engine.dependencies()[0].status).toBe('Healthy');
      expect(logger.withEventId(3125)).toHaveLength(1);
      expect(logger.withEventId(3124).length).toBeGreaterThanOrEqual(1);
      for (let attempt = 0; attempt < 40 && proxy.openConnections > 0; attempt++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(proxy.openConnections).toBe(0);
    } finally {
      await engine.stop();
      await proxy.close();
    }
  });
});

describe('addRabbitMqHealth over TLS to the real broker', () => {
  it('is Healthy through a TLS proxy whose certificate is trusted (run in a child process that trusts it)', async () => {
    if (!(await requireService('RabbitMQ', brokerAddress, 'RABBITMQ_URL'))) return;
    // terminates TLS with a self-signed certificate for localhost and forwards the bytes to the broker
    const proxy = await startTlsTestServer({
      commonName: 'localhost',
      onSecureConnection: (secure) => {
        const upstream = net.connect({ host: brokerHost, port: brokerPort });
        upstream.on('error', () => secure.destroy());
        secure.on('close', () => upstream.destroy());
        upstream.on('close', () => secure.destroy());
        secure.pipe(upstream).pipe(secure);
      },
    });
    try {
      const run = await runJestTrustingCertificate({
        packageDirectory: path.resolve(__dirname, '..'),
        testFile: 'src/rabbitmq-trusted-tls.child.ts',
        certificate: proxy.certificate.cert,
        environment: {
          COREKIT_TLS_AMQP_PORT: String(proxy.port),
          COREKIT_TLS_AMQP_USERNAME: decodeURIComponent(broker.username || 'guest'),
          COREKIT_TLS_AMQP_PASSWORD: decodeURIComponent(broker.password || 'guest'),
        },
      });
      expect(run.output).toMatch(/Tests:\s+3 passed, 3 total/);
      expect(run.exitCode).toBe(0);
      // amqplib sends the host as SNI even when it is an IP address (Node warns about it, DEP0123)
      expect(proxy.serverNames).toEqual(['localhost', 'localhost', '127.0.0.1']);
    } finally {
      await proxy.close();
    }
  }, 120000);
});

describe('addRabbitMqHealth on the wire without a broker', () => {
  it('with UseTls, starts TLS with Host as the SNI and rejects the untrusted certificate, naming Host', async () => {
    const server = await startTlsTestServer();
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: 'localhost', Port: server.port, UseTls: true }],
      });
      expect(server.serverNames).toEqual(['localhost']);
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(entry.error?.message).toContain(
        'Engine:Observability:DependencyHealth:RabbitMq:Dependencies:0:Host',
      );
      expect(entry.data).toMatchObject({ target: `amqps://localhost:${server.port}/%2F` });
    } finally {
      await server.close();
    }
  });

  it('connects with TLS for an amqps:// connection string', async () => {
    const server = await startTlsTestServer({ commonName: 'rabbit.test' });
    try {
      const { entry } = await probeOnce({
        Dependencies: [
          { Id: 'broker', ConnectionString: `amqps://probe:tls-secret-1@localhost:${server.port}/orders` },
        ],
      });
      expect(server.serverNames).toEqual(['localhost']);
      expect(entry.error?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(entry.error?.message).toContain(':Dependencies:0:ConnectionString');
      expect(JSON.stringify(entry)).not.toContain('tls-secret-1');
    } finally {
      await server.close();
    }
  });

  it('is Unhealthy with HANDSHAKE_FAILED when the port closes the connection during the AMQP handshake', async () => {
    const server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.resume();
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: (server.address() as net.AddressInfo).port }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('HANDSHAKE_FAILED');
      expect(entry.error?.message).toContain(
        'Engine:Observability:DependencyHealth:RabbitMq:Dependencies:0:Port is an AMQP 0-9-1 port',
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
