import { refusedPort } from '@corekit/testing/network-helpers';
import { pollUntil } from '@corekit/testing/poll-until';
import { probeRunner } from '@corekit/testing/probe-runner';
import { startMqttFakeBroker } from '@corekit/testing/servers/mqtt-fake-broker';
import { startTlsTestServer } from '@corekit/testing/servers/tls-test-server';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addMqttHealth } from './add-mqtt-health';
import type { MqttHealthOptions } from './mqtt-health-options';

// Behaviour pinned against fakes that speak the MQTT 3.1.1 wire protocol (the exact CONNECT, every CONNACK
// return code, a broker that never answers PINGREQ, TLS SNI); mqtt-health.integration.test.ts runs the
// probe against real mosquitto brokers.

const { probeOnce } = probeRunner<MqttHealthOptions>(addMqttHealth);

describe('addMqttHealth against a fake MQTT 3.1.1 broker', () => {
  it('sends CONNECT (MQTT level 4, clean session, client id, keep-alive, credentials), PINGREQ and DISCONNECT, and is Healthy', async () => {
    const broker = await startMqttFakeBroker();
    try {
      const { entry } = await probeOnce({
        Dependencies: [
          {
            Id: 'broker',
            Host: '127.0.0.1',
            Port: broker.port,
            ClientId: 'orders-health',
            Username: 'probe',
            Password: 'mqtt-pass-1',
            KeepAliveSeconds: 17,
          },
        ],
      });
      expect(entry).toMatchObject({
        status: 'Healthy',
        kind: 'Mqtt',
        data: { tls: false, target: `mqtt://127.0.0.1:${broker.port}` },
      });
      expect(broker.connects).toEqual([
        {
          protocolName: 'MQTT',
          protocolLevel: 4,
          cleanSession: true,
          willFlag: false,
          keepAliveSeconds: 17,
          clientId: 'orders-health',
          username: 'probe',
          password: 'mqtt-pass-1',
        },
      ]);
      await pollUntil(
        async () => broker.openConnections,
        (open) => open === 0,
        { timeoutMs: 10000 },
      );
      expect(broker.received).toEqual(['CONNECT', 'PINGREQ', 'DISCONNECT']);
      expect(broker.openConnections).toBe(0);
    } finally {
      await broker.close();
    }
  });

  it('defaults to a fresh 23-character client id per run, keep-alive 60 and no credential flags', async () => {
    const broker = await startMqttFakeBroker();
    try {
      const options = { Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: broker.port }] };
      await probeOnce(options);
      await probeOnce(options);
      expect(broker.connects).toHaveLength(2);
      for (const connect of broker.connects) {
        expect(connect.clientId).toMatch(/^corekit[0-9a-f]{16}$/);
        expect(connect).toMatchObject({ keepAliveSeconds: 60, cleanSession: true });
        expect(connect).not.toHaveProperty('username');
        expect(connect).not.toHaveProperty('password');
      }
      expect(broker.connects[0].clientId).not.toBe(broker.connects[1].clientId);
    } finally {
      await broker.close();
    }
  });

  it.each([
    [1, 'UNACCEPTABLE_PROTOCOL_VERSION', 'unacceptable protocol version'],
    [2, 'IDENTIFIER_REJECTED', 'identifier rejected'],
    [3, 'SERVER_UNAVAILABLE', 'server unavailable'],
    [4, 'AUTHENTICATION_FAILED', 'bad user name or password'],
    [5, 'AUTHENTICATION_FAILED', 'not authorized'],
  ])(
    'is Unhealthy when CONNACK refuses with return code %i (%s: %s), and sends no PINGREQ',
    async (returnCode, code, reason) => {
      const broker = await startMqttFakeBroker({ returnCode });
      try {
        const { entry, engine } = await probeOnce({
          Dependencies: [
            {
              Id: 'broker',
              Host: '127.0.0.1',
              Port: broker.port,
              ClientId: 'probe-1',
              Username: 'probe',
              Password: 'refused-pass-9',
            },
          ],
        });
        expect(entry.status).toBe('Unhealthy');
        expect(entry.error?.code).toBe(code);
        expect(entry.error?.message).toContain(
          `refused the connection: ${reason} (CONNACK return code ${returnCode})`,
        );
        expect(entry.data).toMatchObject({ returnCode });
        expect(broker.received).toEqual(['CONNECT']);
        expect(JSON.stringify(engine.snapshot())).not.toContain('refused-pass-9');
      } finally {
        await broker.close();
      }
    },
  );

  it('names the fields to check in the refusal message', async () => {
    const rejected = await startMqttFakeBroker({ returnCode: 2 });
    const unauthorized = await startMqttFakeBroker({ returnCode: 4 });
    try {
      const first = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: rejected.port, ClientId: 'bad id' }],
      });
      expect(first.entry.error?.message).toContain(
        '"bad id"; check Engine:Observability:DependencyHealth:Mqtt:Dependencies:0:ClientId',
      );
      const second = await probeOnce({
        Dependencies: [
          {
            Id: 'broker',
            Host: '127.0.0.1',
            Port: unauthorized.port,
            Username: 'probe',
            Password: 'wrong-pass-77',
          },
        ],
      });
      expect(second.entry.error?.message).toContain(
        'Check Engine:Observability:DependencyHealth:Mqtt:Dependencies:0:Username and :Password',
      );
    } finally {
      await rejected.close();
      await unauthorized.close();
    }
  });

  it.each([
    [
      'an unknown CONNACK return code',
      Buffer.from([0x20, 0x02, 0x00, 0x06]),
      /unknown CONNACK return code 6/,
    ],
    [
      'a packet other than CONNACK',
      Buffer.from([0xd0, 0x00]),
      /did not answer CONNECT with a CONNACK \(got packet type 13\)/,
    ],
    [
      'text from another protocol',
      Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'),
      /did not answer CONNECT with a CONNACK \(got packet type 4\)/,
    ],
    [
      'a CONNACK of the wrong length',
      Buffer.from([0x20, 0x03, 0x00, 0x00, 0x00]),
      /CONNACK of 3 bytes instead of 2/,
    ],
  ])('is Unhealthy with PROTOCOL_ERROR for %s', async (_case, connectReply, message) => {
    const broker = await startMqttFakeBroker({ connectReply });
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: broker.port }],
      });
      expect(entry.error?.code).toBe('PROTOCOL_ERROR');
      expect(entry.error?.message).toMatch(message);
    } finally {
      await broker.close();
    }
  });

  it('is Unhealthy, timed out, and closes the connection when PINGREQ is never answered', async () => {
    const broker = await startMqttFakeBroker({ answerPing: false });
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: broker.port, TimeoutSeconds: 1 }],
      });
      expect(entry).toMatchObject({ status: 'Unhealthy', timedOut: true });
      expect(broker.received).toEqual(['CONNECT', 'PINGREQ']);
      await pollUntil(
        async () => broker.openConnections,
        (open) => open === 0,
        { timeoutMs: 10000 },
      );
      expect(broker.openConnections).toBe(0);
    } finally {
      await broker.close();
    }
  });
});

describe('addMqttHealth TLS on the wire (local TLS server, self-signed certificate)', () => {
  it('starts TLS with TlsServerName as SNI and rejects the untrusted certificate, naming TlsServerName', async () => {
    const server = await startTlsTestServer({ commonName: 'mqtt.internal.test' });
    try {
      const { entry } = await probeOnce({
        Dependencies: [
          {
            Id: 'broker',
            Host: '127.0.0.1',
            Port: server.port,
            UseTls: true,
            TlsServerName: 'mqtt.internal.test',
            Username: 'u',
            Password: 'tls-pass-5',
          },
        ],
      });
      expect(server.serverNames).toEqual(['mqtt.internal.test']);
      expect(server.completedHandshakes).toBe(0);
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(entry.error?.message).toContain(
        'Engine:Observability:DependencyHealth:Mqtt:Dependencies:0:TlsServerName',
      );
      expect(entry.data).toMatchObject({ target: `mqtts://127.0.0.1:${server.port}` });
    } finally {
      await server.close();
    }
  });

  it('uses Host as the SNI when TlsServerName is not set', async () => {
    const server = await startTlsTestServer();
    try {
      await probeOnce({
        Dependencies: [{ Id: 'broker', Host: 'localhost', Port: server.port, UseTls: true }],
      });
      expect(server.serverNames).toEqual(['localhost']);
    } finally {
      await server.close();
    }
  });

  it('speaks plain MQTT when UseTls is false (no ClientHello reaches a TLS port)', async () => {
    const server = await startTlsTestServer();
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: 'localhost', Port: server.port, TimeoutSeconds: 1 }],
      });
      expect(server.serverNames).toEqual([]);
      expect(entry.status).toBe('Unhealthy');
    } finally {
      await server.close();
    }
  });
});

describe('addMqttHealth configuration', () => {
  const builder = () => createTestEngineBuilder().builder;

  it.each([
    [{ Id: 'broker' }, 'Dependencies:0:Host is required'],
    [
      { Id: 'broker', Host: 'mqtt', Password: 'p' },
      'Dependencies:0:Username is required when Password is set',
    ],
    [
      { Id: 'broker', Host: 'mqtt', KeepAliveSeconds: 70000 },
      'Dependencies:0:KeepAliveSeconds must be between 0 and 65535',
    ],
    [
      { Id: 'broker', Host: 'mqtt', KeepAliveSeconds: -1 },
      'Dependencies:0:KeepAliveSeconds must be a non-negative integer',
    ],
    [
      { Id: 'broker', Host: 'mqtt', Username: 'u', Password: '<MQTT_PASSWORD>' },
      'Dependencies:0:Password still holds the placeholder',
    ],
  ])('rejects %j at registration, naming the full key path', (dependency, message) => {
    expect(() => addMqttHealth(builder(), { Dependencies: [dependency] })).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringContaining(`Engine:Observability:DependencyHealth:Mqtt:${message}`),
      }),
    );
  });

  it('defaults the port to 8883 with UseTls and 1883 without', async () => {
    const port = await refusedPort();
    const { engine } = await probeOnce({
      Dependencies: [
        { Id: 'tls', Host: 'mqtt.invalid', UseTls: true, TimeoutSeconds: 1 },
        { Id: 'plain', Host: 'mqtt.invalid', TimeoutSeconds: 1 },
        { Id: 'explicit', Host: '127.0.0.1', Port: port, UseTls: 'true' as unknown as boolean },
      ],
    });
    expect(engine.dependencies().map((dependency) => [dependency.id, dependency.data.target])).toEqual([
      ['tls', 'mqtts://mqtt.invalid:8883'],
      ['plain', 'mqtt://mqtt.invalid:1883'],
      ['explicit', `mqtts://127.0.0.1:${port}`],
    ]);
  });
});
