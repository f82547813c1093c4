import { probeRunner } from '@corekit/testing/probe-runner';
import { addRabbitMqHealth } from './add-rabbitmq-health';
import type { RabbitMqHealthOptions } from './rabbitmq-health-options';

// Run only by rabbitmq-health.integration.test.ts, through runJestTrustingCertificate: this process trusts
// the self-signed certificate (issued for localhost) of a TLS proxy on COREKIT_TLS_AMQP_PORT that forwards
// to the real broker; the broker credentials come in COREKIT_TLS_AMQP_USERNAME and _PASSWORD.
const port = Number(process.env.COREKIT_TLS_AMQP_PORT);
const Username = process.env.COREKIT_TLS_AMQP_USERNAME ?? '';
const Password = process.env.COREKIT_TLS_AMQP_PASSWORD ?? '';

const { probeOnce } = probeRunner<RabbitMqHealthOptions>(addRabbitMqHealth);

it('is Healthy over TLS with UseTls when the certificate is trusted and carries Host', async () => {
  expect(port).toBeGreaterThan(0);
  const { entry } = await probeOnce({
    Dependencies: [{ Id: 'broker', Host: 'localhost', Port: port, UseTls: true, Username, Password }],
  });
  expect(entry).toMatchObject({ status: 'Healthy', data: { product: 'RabbitMQ', tls: true } });
});

it('is Healthy over TLS with an amqps:// connection string', async () => {
  const connectionString = `amqps://${encodeURIComponent(Username)}:${encodeURIComponent(Password)}@localhost:${port}/%2F`;
  const { entry } = await probeOnce({ Dependencies: [{ Id: 'broker', ConnectionString: connectionString }] });
  expect(entry).toMatchObject({ status: 'Healthy', data: { tls: true, virtualHost: '/' } });
});

it('checks the certificate name: an IP host does not match it', async () => {
  const { entry } = await probeOnce({
    Dependencies: [{ Id: 'broker', Host: '127.0.0.1', Port: port, UseTls: true, Username, Password }],
  });
  expect(entry.error?.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
});
