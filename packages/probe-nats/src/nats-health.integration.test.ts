import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pollUntil } from '@corekit/testing/poll-until';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { probeRunner } from '@corekit/testing/probe-runner';
import { requireService } from '@corekit/testing/require-service';
import { type NatsServerProcess, startNatsServer } from '@corekit/testing/servers/nats-server';
import { createSelfSignedCertificate } from '@corekit/testing/servers/tls-test-server';
import { runJestTrustingCertificate } from '@corekit/testing/servers/trusted-certificate-jest';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addNatsHealth } from './add-nats-health';
import type { NatsHealthOptions } from './nats-health-options';

// Real servers: the machine's NATS at NATS_URL (default nats://127.0.0.1:4222) for the conformance suite,
// and nats-server processes this file starts itself (authentication, monitoring, TLS, stop and restart).
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
/** The address requireService probes (it reads host and port from an http URL). */
const natsAddress = (() => {
  const url = new URL(natsUrl);
  return `http://${url.host.replace(/:\d+$/, '')}:${url.port || 4222}`;
})();

/** Entry fields for the server at NATS_URL: `nats://user:pass@host:port`, or `nats://token@host:port`. */
function sharedEntry(): { entry: Record<string, unknown>; secrets: string[] } {
  const url = new URL(natsUrl);
  const entry: Record<string, unknown> = {
    Host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    Port: Number(url.port || 4222),
  };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (user && password)
    return { entry: { ...entry, Username: user, Password: password }, secrets: [password] };
  if (user) return { entry: { ...entry, Token: user }, secrets: [user] };
  return { entry, secrets: [] };
}

const { probeOnce } = probeRunner<NatsHealthOptions>(addNatsHealth);

describeProbeConformance({
  kind: 'Nats',
  add: addNatsHealth,
  healthyUpstream: async () => {
    if (await requireService('NATS', natsAddress, 'NATS_URL'))
      return { ...sharedEntry(), close: async () => undefined };
    const server = await startNatsServer();
    return { entry: { Host: server.host, Port: server.port }, close: () => server.stop() };
  },
});

describe('addNatsHealth against the NATS server at NATS_URL', () => {
  it('is Healthy and reports the server version and name', async () => {
    if (!(await requireService('NATS', natsAddress, 'NATS_URL'))) return;
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'bus', ...sharedEntry().entry }] });
    expect(entry.status).toBe('Healthy');
    expect(entry.data).toMatchObject({
      serverVersion: expect.stringMatching(/^\d+\.\d+\.\d+/),
      serverName: expect.any(String),
      tls: false,
    });
  });

  it('is Unhealthy with TLS_NOT_OFFERED when UseTls is set and the server has no TLS', async () => {
    if (!(await requireService('NATS', natsAddress, 'NATS_URL'))) return;
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'bus', ...sharedEntry().entry, UseTls: true }],
    });
    expect(entry.error?.code).toBe('TLS_NOT_OFFERED');
  });
});

describe('addNatsHealth against nats-server processes started by the test', () => {
  let withUser: NatsServerProcess;
  let withToken: NatsServerProcess;
  beforeAll(async () => {
    withUser = await startNatsServer({ user: 'probe', password: 'nats-pass-4711', monitoring: true });
    withToken = await startNatsServer({ token: 'nats-token-0815' });
  });
  afterAll(async () => {
    await withUser?.stop();
    await withToken?.stop();
  });

  /** Closed connections as the server's monitoring endpoint lists them (name, user, reason). */
  async function closedConnections(): Promise<
    Array<{ name?: string; authorized_user?: string; reason?: string }>
  > {
    const response = await fetch(`http://127.0.0.1:${withUser.monitoringPort}/connz?state=closed&auth=true`);
    return (
      (await response.json()) as {
        connections: Array<{ name?: string; authorized_user?: string; reason?: string }>;
      }
    ).connections;
  }

  it('authenticates with Username/Password; the server saw the ClientName and the user, and the probe closed its connection', async () => {
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'bus',
          Host: '127.0.0.1',
          Port: withUser.port,
          Username: 'probe',
          Password: 'nats-pass-4711',
          ClientName: 'orders-health',
        },
      ],
    });
    expect(entry.status).toBe('Healthy');
    let closed: Awaited<ReturnType<typeof closedConnections>> = [];
    for (
      let attempt = 0;
      attempt < 40 && !closed.some((connection) => connection.name === 'orders-health');
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      closed = await closedConnections();
    }
    expect(closed).toContainEqual(
      expect.objectContaining({ name: 'orders-health', authorized_user: 'probe', reason: 'Client Closed' }),
    );
  });

  it("is Unhealthy with AUTHENTICATION_FAILED and 'Authorization Violation' for a wrong password, which appears nowhere", async () => {
    const { entry, engine, logger } = await probeOnce({
      Dependencies: [
        {
          Id: 'bus',
          Host: '127.0.0.1',
          Port: withUser.port,
          Username: 'probe',
          Password: 'not-the-pass-1234',
        },
      ],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toContain('Authorization Violation');
    expect(
      JSON.stringify([engine.snapshot(), engine.health(), engine.dependencies(), logger.records]),
    ).not.toContain('not-the-pass-1234');
  });

  it('is Unhealthy with AUTHENTICATION_FAILED for a wrong user', async () => {
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'bus',
          Host: '127.0.0.1',
          Port: withUser.port,
          Username: 'intruder',
          Password: 'nats-pass-4711',
        },
      ],
    });
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
  });

  it('is Unhealthy with AUTHENTICATION_FAILED, naming the missing fields, when no credentials are configured', async () => {
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: withUser.port }],
    });
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toContain('auth_required');
  });

  it('authenticates with a Token, and a wrong token is Unhealthy', async () => {
    const good = await probeOnce({
      Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: withToken.port, Token: 'nats-token-0815' }],
    });
    expect(good.entry.status).toBe('Healthy');
    const bad = await probeOnce({
      Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: withToken.port, Token: 'nats-token-wrong' }],
    });
    expect(bad.entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(JSON.stringify(bad.engine.snapshot())).not.toContain('nats-token-wrong');
  });

  it('turns Unhealthy on the next refresh when the server stops, and Healthy again after it restarts', async () => {
    const server = await startNatsServer();
    const { builder, logger } = createTestEngineBuilder();
    addNatsHealth(builder, { Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: server.port }] });
    const engine = builder.build();
    try {
      await engine.start();
      expect(engine.dependencies()[0].status).toBe('Healthy');
      await server.stop();
      await engine.refreshDependencies();
      expect(engine.dependencies()[0]).toMatchObject({
        status: 'Unhealthy',
        error: { code: 'ECONNREFUSED' },
      });
      expect(engine.readiness().status).toBe('Unhealthy');
      await server.start();
      await engine.refreshDependencies();
      expect(engine.dependencies()[0].status).toBe('Healthy');
      expect(logger.withEventId(3135)).toHaveLength(1);
      expect(logger.withEventId(3134).length).toBeGreaterThanOrEqual(1);
    } finally {
      await engine.stop();
      await server.stop();
    }
  });

  it('is Healthy over TLS against a TLS nats-server whose certificate is trusted (run in a child process that trusts it)', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'probe-nats-tls-'));
    const certificate = createSelfSignedCertificate('nats.test');
    writeFileSync(path.join(directory, 'cert.pem'), certificate.cert);
    writeFileSync(path.join(directory, 'key.pem'), certificate.key);
    const server = await startNatsServer({
      user: 'probe',
      password: 'tls-pass-8',
      tls: { certificateFile: path.join(directory, 'cert.pem'), keyFile: path.join(directory, 'key.pem') },
    });
    try {
      const run = await runJestTrustingCertificate({
        packageDirectory: path.resolve(__dirname, '..'),
        testFile: 'src/nats-trusted-tls.child.ts',
        certificate: certificate.cert,
        environment: { COREKIT_TLS_NATS_PORT: String(server.port) },
      });
      expect(run.output).toMatch(/Tests:\s+3 passed, 3 total/);
      expect(run.exitCode).toBe(0);
    } finally {
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120000);

  it('upgrades to TLS when the INFO of a TLS nats-server says tls_required, and verifies its certificate', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'probe-nats-tls-'));
    const certificate = createSelfSignedCertificate('nats.test');
    writeFileSync(path.join(directory, 'cert.pem'), certificate.cert);
    writeFileSync(path.join(directory, 'key.pem'), certificate.key);
    const server = await startNatsServer({
      tls: { certificateFile: path.join(directory, 'cert.pem'), keyFile: path.join(directory, 'key.pem') },
    });
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: server.port, TlsServerName: 'nats.test' }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      // nats-server writes its handshake log line asynchronously: wait for it rather than read once.
      const output = await pollUntil(
        async () => server.output(),
        (text) => /TLS handshake error/i.test(text),
        { timeoutMs: 15000 },
      );
      expect(output).toMatch(/TLS handshake error/i);
    } finally {
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
