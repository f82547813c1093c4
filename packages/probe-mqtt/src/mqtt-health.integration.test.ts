import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pollUntil } from '@corekit/testing/poll-until';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { probeRunner } from '@corekit/testing/probe-runner';
import { requireService } from '@corekit/testing/require-service';
import { type MosquittoProcess, startMosquitto } from '@corekit/testing/servers/mosquitto';
import { createSelfSignedCertificate } from '@corekit/testing/servers/tls-test-server';
import { runJestTrustingCertificate } from '@corekit/testing/servers/trusted-certificate-jest';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addMqttHealth } from './add-mqtt-health';
import type { MqttHealthOptions } from './mqtt-health-options';

// Real brokers: the machine's broker at MQTT_URL (default mqtt://127.0.0.1:1883) for the conformance suite,
// and mosquitto processes this file starts itself (password file, TLS listener, stop and restart).
const mqttUrl = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
/** The address requireService probes (it reads host and port from an http URL). */
const mqttAddress = (() => {
  const url = new URL(mqttUrl);
  return `http://${url.host.replace(/:\d+$/, '')}:${url.port || 1883}`;
})();

/** Entry fields for the broker at MQTT_URL (`mqtt://user:pass@host:port` when it needs credentials). */
function sharedEntry(): { entry: Record<string, unknown>; secrets: string[] } {
  const url = new URL(mqttUrl);
  const entry: Record<string, unknown> = {
    Host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    Port: Number(url.port || 1883),
  };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (!user) return { entry, secrets: [] };
  return {
    entry: { ...entry, Username: user, ...(password ? { Password: password } : {}) },
    secrets: password ? [password] : [],
  };
}

const { probeOnce } = probeRunner<MqttHealthOptions>(addMqttHealth);

describeProbeConformance({
  kind: 'Mqtt',
  add: addMqttHealth,
  healthyUpstream: async () => {
    if (await requireService('MQTT broker', mqttAddress, 'MQTT_URL'))
      return { ...sharedEntry(), close: async () => undefined };
    const broker = await startMosquitto();
    return { entry: { Host: broker.host, Port: broker.port }, close: () => broker.close() };
  },
});

describe('addMqttHealth against the broker at MQTT_URL', () => {
  it('is Healthy', async () => {
    if (!(await requireService('MQTT broker', mqttAddress, 'MQTT_URL'))) return;
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'broker', ...sharedEntry().entry }] });
    expect(entry).toMatchObject({ status: 'Healthy', data: { tls: false } });
  });
});

describe('addMqttHealth against mosquitto processes started by the test', () => {
  let secured: MosquittoProcess;
  beforeAll(async () => {
    secured = await startMosquitto({ users: { probe: 'mqtt-pass-4711' } });
  });
  afterAll(async () => {
    await secured?.close();
  });

  it('authenticates from the password file; the broker logged the client id, keep-alive and user the probe sent', async () => {
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'broker',
          Host: '127.0.0.1',
          Port: secured.port,
          ClientId: 'orders-health-1',
          Username: 'probe',
          Password: 'mqtt-pass-4711',
          KeepAliveSeconds: 17,
        },
      ],
    });
    expect(entry.status).toBe('Healthy');
    // mosquitto logs asynchronously: wait for the disconnect line before reading the whole log.
    await pollUntil(
      async () => secured.output(),
      (text) => /Client orders-health-1 disconnected/.test(text),
      { timeoutMs: 15000 },
    );
    expect(secured.output()).toMatch(
      /New client connected from 127\.0\.0\.1:\d+ as orders-health-1 \(p2, c1, k17, u'probe'\)/,
    );
    expect(secured.output()).toMatch(/Received PINGREQ from orders-health-1/);
    expect(secured.output()).toMatch(/Received DISCONNECT from orders-health-1/);
    expect(secured.output()).toMatch(/Client orders-health-1 disconnected\./);
  });

  it.each([
    ['a wrong password', { Username: 'probe', Password: 'not-the-pass-1234' }],
    ['an unknown user', { Username: 'intruder', Password: 'mqtt-pass-4711' }],
    ['no credentials', {}],
  ])(
    'is Unhealthy with AUTHENTICATION_FAILED for %s, and the password appears nowhere',
    async (_case, credentials) => {
      const { entry, engine, logger } = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: secured.port, ...credentials }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
      expect(entry.error?.message).toMatch(
        /refused the connection: (not authorized|bad user name or password) \(CONNACK return code [45]\)/,
      );
      expect(JSON.stringify([engine.snapshot(), engine.health(), logger.records])).not.toContain(
        'not-the-pass-1234',
      );
    },
  );

  it('is Unhealthy with the refusal mosquitto sends (not authorized) when clientid_prefixes rejects the ClientId', async () => {
    const broker = await startMosquitto({ extraConfiguration: ['clientid_prefixes corekit-'] });
    try {
      const refused = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: broker.port, ClientId: 'other-client' }],
      });
      expect(refused.entry.status).toBe('Unhealthy');
      expect(refused.entry.data).toMatchObject({ returnCode: 5 });
      expect(refused.entry.error?.message).toContain('this user and ClientId');
      const accepted = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: broker.port, ClientId: 'corekit-health' }],
      });
      expect(accepted.entry.status).toBe('Healthy');
    } finally {
      await broker.close();
    }
  });

  it('turns Unhealthy on the next refresh when the broker stops, and Healthy again after it restarts', async () => {
    const broker = await startMosquitto();
    const { builder, logger } = createTestEngineBuilder();
    addMqttHealth(builder, { Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: broker.port }] });
    const engine = builder.build();
    try {
      await engine.start();
      expect(engine.dependencies()[0].status).toBe('Healthy');
      await broker.stop();
      await engine.refreshDependencies();
      expect(engine.dependencies()[0]).toMatchObject({
        status: 'Unhealthy',
        error: { code: 'ECONNREFUSED' },
      });
      expect(engine.readiness().status).toBe('Unhealthy');
      await broker.start();
      await engine.refreshDependencies();
      expect(engine.dependencies()[0].status).toBe('Healthy');
      expect(logger.withEventId(3137)).toHaveLength(1);
      expect(logger.withEventId(3136).length).toBeGreaterThanOrEqual(1);
    } finally {
      await engine.stop();
      await broker.close();
    }
  });

  it('is Healthy over TLS against a mosquitto TLS listener whose certificate is trusted (run in a child process that trusts it)', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'probe-mqtt-tls-'));
    const certificate = createSelfSignedCertificate('mqtt.test');
    writeFileSync(path.join(directory, 'cert.pem'), certificate.cert);
    writeFileSync(path.join(directory, 'key.pem'), certificate.key);
    const broker = await startMosquitto({
      users: { probe: 'tls-pass-8' },
      extraConfiguration: [
        `certfile ${path.join(directory, 'cert.pem')}`,
        `keyfile ${path.join(directory, 'key.pem')}`,
      ],
    });
    try {
      const run = await runJestTrustingCertificate({
        packageDirectory: path.resolve(__dirname, '..'),
        testFile: 'src/mqtt-trusted-tls.child.ts',
        certificate: certificate.cert,
        environment: { COREKIT_TLS_MQTT_PORT: String(broker.port) },
      });
      expect(run.output).toMatch(/Tests:\s+3 passed, 3 total/);
      expect(run.exitCode).toBe(0);
    } finally {
      await broker.close();
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120000);

  it('starts TLS from the first byte against a mosquitto TLS listener and verifies its certificate', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'probe-mqtt-tls-'));
    const certificate = createSelfSignedCertificate('mqtt.test');
    writeFileSync(path.join(directory, 'cert.pem'), certificate.cert);
    writeFileSync(path.join(directory, 'key.pem'), certificate.key);
    const broker = await startMosquitto({
      extraConfiguration: [
        `certfile ${path.join(directory, 'cert.pem')}`,
        `keyfile ${path.join(directory, 'key.pem')}`,
      ],
    });
    try {
      const { entry } = await probeOnce({
        Dependencies: [
          { Id: 'broker', Host: '127.0.0.1', Port: broker.port, UseTls: true, TlsServerName: 'mqtt.test' },
        ],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      const plain = await probeOnce({
        Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: broker.port, TimeoutSeconds: 2 }],
      });
      expect(plain.entry.status).toBe('Unhealthy');
    } finally {
      await broker.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
