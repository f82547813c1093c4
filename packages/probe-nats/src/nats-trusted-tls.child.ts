import { probeRunner } from '@corekit/testing/probe-runner';
import { itProbesOverTrustedTls } from '@corekit/testing/servers/trusted-tls-checks';
import { addNatsHealth } from './add-nats-health';
import type { NatsHealthOptions } from './nats-health-options';

// Run only by nats-health.integration.test.ts, through runJestTrustingCertificate: this process trusts the
// self-signed certificate of the TLS nats-server on COREKIT_TLS_NATS_PORT, issued for nats.test.
const port = Number(process.env.COREKIT_TLS_NATS_PORT);
const { probeOnce } = probeRunner<NatsHealthOptions>(addNatsHealth);

itProbesOverTrustedTls({
  port,
  serverName: 'nats.test',
  healthyDescription: /answered PONG over TLS$/,
  probe: async ({ serverName, password }) =>
    (
      await probeOnce({
        Dependencies: [
          {
            Id: 'bus',
            Host: '127.0.0.1',
            Port: port,
            UseTls: true,
            ...(serverName ? { TlsServerName: serverName } : {}),
            Username: 'probe',
            Password: password ?? 'tls-pass-8',
          },
        ],
      })
    ).entry,
});
