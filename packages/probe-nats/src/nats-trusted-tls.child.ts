import { createTestEngineBuilder } from '@corekit/testing';
import { addNatsHealth } from './add-nats-health';
import type { NatsHealthOptions } from './nats-health-options';

// Run only by nats-health.integration.test.ts, through runJestTrustingCertificate: this process trusts the
// self-signed certificate of the TLS nats-server on COREKIT_TLS_NATS_PORT, issued for nats.test.
const port = Number(process.env.COREKIT_TLS_NATS_PORT);

async function probeOnce(options: NatsHealthOptions) {
  const { builder } = createTestEngineBuilder();
  addNatsHealth(builder, options);
  const engine = builder.build();
  await engine.refreshDependencies();
  return engine.dependencies()[0];
}

it('is Healthy over TLS when the certificate is trusted and carries TlsServerName', async () => {
  expect(port).toBeGreaterThan(0);
  const entry = await probeOnce({
    Dependencies: [
      {
        Id: 'bus',
        Host: '127.0.0.1',
        Port: port,
        UseTls: true,
        TlsServerName: 'nats.test',
        Username: 'probe',
        Password: 'tls-pass-8',
      },
    ],
  });
  expect(entry).toMatchObject({ status: 'Healthy', data: { tls: true } });
  expect(entry.description).toMatch(/answered PONG over TLS$/);
});

it('checks the certificate name: without TlsServerName an IP host does not match it', async () => {
  const entry = await probeOnce({
    Dependencies: [
      { Id: 'bus', Host: '127.0.0.1', Port: port, UseTls: true, Username: 'probe', Password: 'tls-pass-8' },
    ],
  });
  expect(entry.status).toBe('Unhealthy');
  expect(entry.error?.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
});

it('is Unhealthy with the server reason for a wrong password over TLS', async () => {
  const entry = await probeOnce({
    Dependencies: [
      {
        Id: 'bus',
        Host: '127.0.0.1',
        Port: port,
        TlsServerName: 'nats.test',
        Username: 'probe',
        Password: 'wrong-tls-pass',
      },
    ],
  });
  expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
});
