import { probeRunner } from '@corekit/testing/probe-runner';
import { itProbesOverTrustedTls } from '@corekit/testing/servers/trusted-tls-checks';
import { addMqttHealth } from './add-mqtt-health';
import type { MqttHealthOptions } from './mqtt-health-options';

// Run only by mqtt-health.integration.test.ts, through runJestTrustingCertificate: this process trusts the
// self-signed certificate of the mosquitto TLS listener on COREKIT_TLS_MQTT_PORT, issued for mqtt.test.
const port = Number(process.env.COREKIT_TLS_MQTT_PORT);
const { probeOnce } = probeRunner<MqttHealthOptions>(addMqttHealth);

itProbesOverTrustedTls({
  port,
  serverName: 'mqtt.test',
  healthyDescription: /answered PINGREQ over TLS$/,
  probe: async ({ serverName, password }) =>
    (
      await probeOnce({
        Dependencies: [
          {
            Id: 'broker',
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
