import { createTestEngineBuilder } from '@corekit/testing';
import { addMqttHealth } from './add-mqtt-health';
import type { MqttHealthOptions } from './mqtt-health-options';

// Run only by mqtt-health.integration.test.ts, through runJestTrustingCertificate: this process trusts the
// self-signed certificate of the mosquitto TLS listener on COREKIT_TLS_MQTT_PORT, issued for mqtt.test.
const port = Number(process.env.COREKIT_TLS_MQTT_PORT);

async function probeOnce(options: MqttHealthOptions) {
  const { builder } = createTestEngineBuilder();
  addMqttHealth(builder, options);
  const engine = builder.build();
  await engine.refreshDependencies();
  return engine.dependencies()[0];
}

it('is Healthy over TLS when the certificate is trusted and carries TlsServerName', async () => {
  expect(port).toBeGreaterThan(0);
  const entry = await probeOnce({
    Dependencies: [
      {
        Id: 'broker',
        Host: '127.0.0.1',
        Port: port,
        UseTls: true,
        TlsServerName: 'mqtt.test',
        Username: 'probe',
        Password: 'tls-pass-8',
      },
    ],
  });
  expect(entry).toMatchObject({ status: 'Healthy', data: { tls: true } });
  expect(entry.description).toMatch(/answered PINGREQ over TLS$/);
});

it('checks the certificate name: without TlsServerName an IP host does not match it', async () => {
  const entry = await probeOnce({
    Dependencies: [
      {
        Id: 'broker',
        Host: '127.0.0.1',
        Port: port,
        UseTls: true,
        Username: 'probe',
        Password: 'tls-pass-8',
      },
    ],
  });
  expect(entry.error?.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
});

it('reports a CONNACK refusal over TLS', async () => {
  const entry = await probeOnce({
    Dependencies: [
      {
        Id: 'broker',
        Host: '127.0.0.1',
        Port: port,
        UseTls: true,
        TlsServerName: 'mqtt.test',
        Username: 'probe',
        Password: 'wrong-tls-pass',
      },
    ],
  });
  expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
});
