import net from 'node:net';
import { refusedPort } from '@corekit/testing/network-helpers';
import { probeRunner } from '@corekit/testing/probe-runner';
import { startTlsTestServer } from '@corekit/testing/servers/tls-test-server';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addNatsHealth } from './add-nats-health';
import type { NatsHealthOptions } from './nats-health-options';

// Behaviour pinned against fakes that speak the NATS wire protocol (what the probe sends, each kind of
// answer, TLS SNI); nats-health.integration.test.ts runs the probe against real nats-server processes.

const { probeOnce } = probeRunner<NatsHealthOptions>(addNatsHealth);

const info = (fields: Record<string, unknown> = {}) =>
  `INFO ${JSON.stringify({ server_id: 'FAKE', server_name: 'fake-nats', version: '2.10.0', ...fields })}\r\n`;

/** A NATS server in miniature: sends `greeting`, records every line, and answers each with `answer(line)`. */
async function fakeNats(greeting: string, answer: (line: string) => string | undefined) {
  const lines: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write(greeting);
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline: number;
      while ((newline = pending.indexOf('\r\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 2);
        lines.push(line);
        const reply = answer(line);
        if (reply !== undefined) socket.write(reply);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    lines,
    get openConnections() {
      return sockets.size;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const pongOnPing = (line: string) => (line === 'PING' ? 'PONG\r\n' : undefined);

describe('addNatsHealth against a fake NATS server', () => {
  it('sends CONNECT with verbose and pedantic off, the client name and the user credentials, then PING, and is Healthy on PONG', async () => {
    const server = await fakeNats(info({ auth_required: true }), pongOnPing);
    try {
      const { entry } = await probeOnce({
        Dependencies: [
          {
            Id: 'bus',
            Host: '127.0.0.1',
            Port: server.port,
            Username: 'probe',
            Password: 'pass-word-1',
            ClientName: 'orders-probe',
          },
        ],
      });
      expect(entry).toMatchObject({
        status: 'Healthy',
        kind: 'Nats',
        data: {
          serverName: 'fake-nats',
          serverVersion: '2.10.0',
          tls: false,
          target: `nats://127.0.0.1:${server.port}`,
        },
      });
      expect(server.lines).toHaveLength(2);
      expect(server.lines[0]).toMatch(/^CONNECT \{/);
      expect(JSON.parse(server.lines[0].slice(8))).toMatchObject({
        verbose: false,
        pedantic: false,
        tls_required: false,
        name: 'orders-probe',
        user: 'probe',
        pass: 'pass-word-1',
      });
      expect(server.lines[1]).toBe('PING');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.openConnections).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('sends a Token as auth_token and defaults the client name to corekit-probe-<Id>', async () => {
    const server = await fakeNats(info(), pongOnPing);
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'events', Host: '127.0.0.1', Port: server.port, Token: 'token-value-9' }],
      });
      expect(entry.status).toBe('Healthy');
      const connect = JSON.parse(server.lines[0].slice(8));
      expect(connect).toMatchObject({ name: 'corekit-probe-events', auth_token: 'token-value-9' });
      expect(connect).not.toHaveProperty('user');
      expect(connect).not.toHaveProperty('pass');
    } finally {
      await server.close();
    }
  });

  it('answers a server PING and skips INFO updates while it waits for PONG', async () => {
    const server = await fakeNats(info(), (line) =>
      line === 'PING' ? `PING\r\n${info({ connect_urls: ['10.0.0.2:4222'] })}PONG\r\n` : undefined,
    );
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: server.port }],
      });
      expect(entry.status).toBe('Healthy');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.lines).toEqual([expect.stringMatching(/^CONNECT /), 'PING', 'PONG']);
    } finally {
      await server.close();
    }
  });

  it("is Unhealthy with AUTHENTICATION_FAILED and the server's reason on -ERR 'Authorization Violation'", async () => {
    const server = await fakeNats(info({ auth_required: true }), (line) =>
      line === 'PING' ? "-ERR 'Authorization Violation'\r\n" : undefined,
    );
    try {
      const { entry, engine, logger } = await probeOnce({
        Dependencies: [
          { Id: 'bus', Host: '127.0.0.1', Port: server.port, Username: 'probe', Password: 'wrong-pass-7' },
        ],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
      expect(entry.error?.message).toContain("'Authorization Violation'");
      expect(entry.error?.message).toContain(
        'Engine:Observability:DependencyHealth:Nats:Dependencies:0:Username and :Password',
      );
      expect(JSON.stringify([engine.snapshot(), engine.health(), logger.records])).not.toContain(
        'wrong-pass-7',
      );
    } finally {
      await server.close();
    }
  });

  it('names the missing credentials when the server requires authentication and none is configured', async () => {
    const server = await fakeNats(info({ auth_required: true }), (line) =>
      line === 'PING' ? "-ERR 'Authorization Violation'\r\n" : undefined,
    );
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: server.port }],
      });
      expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
      expect(entry.error?.message).toMatch(
        /auth_required.*set Engine:Observability:DependencyHealth:Nats:Dependencies:0:Token or :Username and :Password/,
      );
    } finally {
      await server.close();
    }
  });

  it('is Unhealthy with SERVER_ERROR and the reason on any other -ERR', async () => {
    const server = await fakeNats(info(), (line) =>
      line === 'PING' ? "-ERR 'Maximum Connections Exceeded'\r\n" : undefined,
    );
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: server.port }],
      });
      expect(entry.error).toEqual({
        code: 'SERVER_ERROR',
        message: `The NATS server at 127.0.0.1:${server.port} answered -ERR 'Maximum Connections Exceeded'.`,
      });
    } finally {
      await server.close();
    }
  });

  it('reports an -ERR sent instead of INFO with its reason', async () => {
    const server = await fakeNats("-ERR 'maximum connections exceeded'\r\n", pongOnPing);
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: server.port }],
      });
      expect(entry.error).toEqual({
        code: 'SERVER_ERROR',
        message: `The NATS server at 127.0.0.1:${server.port} answered -ERR 'maximum connections exceeded'.`,
      });
      expect(server.lines).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['a greeting that is not INFO', '+OK\r\n', /did not start with a NATS INFO line/],
    [
      'an INFO payload that is not JSON',
      'INFO {not json\r\n',
      /INFO line whose payload is not a JSON object/,
    ],
  ])('is Unhealthy with PROTOCOL_ERROR for %s', async (_case, greeting, message) => {
    const server = await fakeNats(greeting, pongOnPing);
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: server.port }],
      });
      expect(entry.error?.code).toBe('PROTOCOL_ERROR');
      expect(entry.error?.message).toMatch(message);
    } finally {
      await server.close();
    }
  });

  it('is Unhealthy with TLS_NOT_OFFERED, without sending CONNECT, when UseTls is set and the INFO offers no TLS', async () => {
    const server = await fakeNats(info(), pongOnPing);
    try {
      const { entry } = await probeOnce({
        Dependencies: [
          { Id: 'bus', Host: '127.0.0.1', Port: server.port, UseTls: true, Token: 'never-sent-1' },
        ],
      });
      expect(entry.error?.code).toBe('TLS_NOT_OFFERED');
      expect(entry.error?.message).toContain(
        'Engine:Observability:DependencyHealth:Nats:Dependencies:0:UseTls',
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.lines).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('addNatsHealth TLS on the wire (local TLS server, self-signed certificate)', () => {
  it('upgrades after the clear-text INFO with TlsServerName as SNI, and rejects the untrusted certificate', async () => {
    const server = await startTlsTestServer({
      commonName: 'nats.internal.test',
      plainGreeting: info({ tls_required: true }),
    });
    try {
      const { entry } = await probeOnce({
        Dependencies: [
          {
            Id: 'bus',
            Host: '127.0.0.1',
            Port: server.port,
            UseTls: true,
            TlsServerName: 'nats.internal.test',
            Token: 'tls-token-3',
          },
        ],
      });
      expect(server.serverNames).toEqual(['nats.internal.test']);
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(entry.error?.message).toContain(
        'Engine:Observability:DependencyHealth:Nats:Dependencies:0:TlsServerName',
      );
      expect(server.completedHandshakes).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("honours the server's tls_required even when UseTls is false, with Host as the default SNI", async () => {
    const server = await startTlsTestServer({ plainGreeting: info({ tls_required: true }) });
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'bus', Host: 'localhost', Port: server.port }],
      });
      expect(server.serverNames).toEqual(['localhost']);
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      await server.close();
    }
  });

  it('sends no SNI when Host is an IP address and TlsServerName is not set', async () => {
    const server = await startTlsTestServer({ plainGreeting: info({ tls_available: true }) });
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'bus', Host: '127.0.0.1', Port: server.port, UseTls: true }],
      });
      expect(server.acceptedConnections).toBe(1);
      expect(server.serverNames).toEqual([]);
      expect(entry.status).toBe('Unhealthy');
    } finally {
      await server.close();
    }
  });
});

describe('addNatsHealth configuration', () => {
  const builder = () => createTestEngineBuilder().builder;

  it.each([
    [{ Id: 'bus' }, 'Dependencies:0:Host is required'],
    [
      { Id: 'bus', Host: 'nats', Token: 't', Username: 'u', Password: 'p' },
      'Dependencies:0:Token cannot be combined with Username/Password',
    ],
    [{ Id: 'bus', Host: 'nats', Username: 'u' }, 'Dependencies:0:Password is required when Username is set'],
    [{ Id: 'bus', Host: 'nats', Password: 'p' }, 'Dependencies:0:Username is required when Password is set'],
    [{ Id: 'bus', Host: 'nats', Port: 70000 }, 'Dependencies:0:Port must be a port number'],
    [{ Id: 'bus', Host: 'nats', Token: '<NATS_TOKEN>' }, 'Dependencies:0:Token still holds the placeholder'],
  ])('rejects %j at registration, naming the full key path', (dependency, message) => {
    expect(() => addNatsHealth(builder(), { Dependencies: [dependency] })).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringContaining(`Engine:Observability:DependencyHealth:Nats:${message}`),
      }),
    );
  });

  it('reads entries from configuration, environment spelling included', async () => {
    const port = await refusedPort();
    const { builder: configured } = createTestEngineBuilder({
      environment: {
        Engine__Observability__DependencyHealth__Nats__Dependencies__0__Id: 'bus',
        Engine__Observability__DependencyHealth__Nats__Dependencies__0__Host: '127.0.0.1',
        Engine__Observability__DependencyHealth__Nats__Dependencies__0__Port: String(port),
        Engine__Observability__DependencyHealth__Nats__Dependencies__0__TimeoutSeconds: '2',
        Engine__Observability__DependencyHealth__Nats__Dependencies__0__Required: 'false',
      },
    });
    addNatsHealth(configured);
    const engine = configured.build();
    await engine.refreshDependencies();
    expect(engine.dependencies()).toEqual([
      expect.objectContaining({
        id: 'bus',
        kind: 'Nats',
        required: false,
        timeoutSeconds: 2,
        status: 'Unhealthy',
        data: { target: `nats://127.0.0.1:${port}` },
      }),
    ]);
    expect(engine.dependencies()[0].error?.code).toBe('ECONNREFUSED');
  });
});
