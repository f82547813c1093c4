import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import {
  booleanField,
  nonNegativeIntegerField,
  portField,
  probeSectionSchema,
  type ProbeOptions,
} from '@corekit/probe-kit';

/** Broker port when none is configured: 1883, or 8883 with UseTls. */
export const mqttDefaultPort = 1883;
export const mqttDefaultTlsPort = 8883;

/** Fields of one `Engine:Observability:DependencyHealth:Mqtt:Dependencies:<n>` entry, besides the common ones. */
export const mqttHealthEntryShape = {
  /** Host name or IP address of the broker. Required. */
  Host: z
    .string()
    .min(1, 'must be a non-empty host name or address')
    .optional()
    .describe('host name or IP address of the MQTT broker; required'),
  /** Broker port; default 1883, or 8883 when UseTls is true. */
  Port: portField('broker port; default 1883, or 8883 with UseTls').optional(),
  /**
   * TLS from the first byte (default false). The certificate is verified against Node's trusted CAs (add a
   * private CA with NODE_EXTRA_CA_CERTS).
   */
  UseTls: booleanField('connect with TLS').default(false),
  /** Server name sent in the TLS ClientHello (SNI) and checked against the certificate; default Host when it is a name. */
  TlsServerName: z
    .string()
    .min(1, 'must be a non-empty server name')
    .optional()
    .describe('TLS SNI and certificate name; default Host'),
  /**
   * Client identifier sent in CONNECT. Default: a fresh `corekit` + 16 hex digits per run (23 characters, the
   * length every broker must accept), so that two instances of a service never take over each other's
   * session. A fixed id is useful when the broker authorizes by client id.
   */
  ClientId: z
    .string()
    .min(1, 'must be a non-empty client identifier')
    .max(65535, 'must be at most 65535 characters')
    .optional()
    .describe('client identifier; default a fresh corekit<16 hex> per run'),
  /** User name sent in CONNECT. */
  Username: z
    .string()
    .min(1, 'must be a non-empty user name')
    .optional()
    .describe('user name sent in CONNECT'),
  /** Password sent in CONNECT; MQTT 3.1.1 allows it only together with Username. */
  Password: secretString('password sent in CONNECT, with Username').optional(),
  /** Keep-alive interval announced in CONNECT, in seconds (0-65535; 0 turns keep-alive off). Default 60. */
  KeepAliveSeconds: nonNegativeIntegerField('keep-alive announced in CONNECT, seconds; default 60').default(
    60,
  ),
};

/** Code options of addMqttHealth, in the configuration's shape. */
export type MqttHealthOptions = ProbeOptions<typeof mqttHealthEntryShape>;

/** Cross-field rules: Host is required; Password needs Username (MQTT 3.1.1, 3.1.2.9); KeepAliveSeconds fits 16 bits. */
export function validateMqttHealthEntry(
  entry: { Host?: string; Username?: string; Password?: string; KeepAliveSeconds: number },
  issue: (field: string, message: string) => void,
): void {
  if (!entry.Host)
    issue('Host', 'is required: the host name or IP address of the MQTT broker, for example mqtt.internal');
  if (entry.Password && !entry.Username)
    issue('Username', 'is required when Password is set (MQTT 3.1.1 sends a password only with a user name)');
  if (entry.KeepAliveSeconds > 65535)
    issue('KeepAliveSeconds', `must be between 0 and 65535, got ${entry.KeepAliveSeconds}`);
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Mqtt` section. */
export const mqttHealthOptionsSchema = probeSectionSchema({
  entryShape: mqttHealthEntryShape,
  validateEntry: validateMqttHealthEntry,
});
