import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { parseEndpoint, probeSectionSchema, stringListField, type ProbeOptions } from '@corekit/probe-kit';

/** Kafka's listener security protocols (the broker's `listeners` names). */
export const kafkaSecurityProtocols = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const;
export type KafkaSecurityProtocol = (typeof kafkaSecurityProtocols)[number];

/** SASL mechanisms the probe's driver (kafkajs) implements with a username and a password. */
export const kafkaSaslMechanisms = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
export type KafkaSaslMechanism = (typeof kafkaSaslMechanisms)[number];

/** The broker port when a bootstrap server names none. */
export const kafkaDefaultPort = 9092;

const upperCase = (value: unknown) =>
  typeof value === 'string' ? value.trim().toUpperCase().replace(/-/g, '_') : value;

/** Fields of one `Engine:Observability:DependencyHealth:Kafka:Dependencies:<n>` entry, besides the common ones. */
export const kafkaHealthEntryShape = {
  /**
   * Brokers to bootstrap from, `host:port` (port 9092 when omitted; `[ipv6]:port` for IPv6), as an array or
   * one comma-separated string. The probe connects to one of them and asks it for the cluster metadata.
   * Required.
   */
  BootstrapServers: stringListField(
    'bootstrap brokers, host:port, as an array or a comma-separated list',
  ).optional(),
  /** Client id the probe sends in every request (broker logs and quotas see it). Default `corekit-health-probe`. */
  ClientId: z
    .string()
    .min(1, 'must be a non-empty client id')
    .default('corekit-health-probe')
    .describe('client id sent in every request'),
  /**
   * Topic that must exist. When set, the probe asks the metadata of that topic (never allowing the broker to
   * auto-create it) and is Unhealthy when the broker does not know it. Omitted: cluster metadata only.
   */
  Topic: z
    .string()
    .min(1, 'must be a non-empty topic name')
    .optional()
    .describe('topic that must be present in the metadata'),
  /**
   * Listener security protocol: `PLAINTEXT` (default), `SSL`, `SASL_PLAINTEXT` or `SASL_SSL` (any case). The
   * SASL protocols need Username and Password; SSL verifies the broker certificate against the system CAs.
   */
  SecurityProtocol: z
    .preprocess(
      upperCase,
      z.enum(kafkaSecurityProtocols, { error: `must be one of ${kafkaSecurityProtocols.join(', ')}` }),
    )
    .default('PLAINTEXT')
    .describe('PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL'),
  /** SASL mechanism for the SASL protocols: `PLAIN` (default), `SCRAM-SHA-256` or `SCRAM-SHA-512`. */
  SaslMechanism: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.trim().toUpperCase().replace(/_/g, '-') : value),
      z.enum(kafkaSaslMechanisms, { error: `must be one of ${kafkaSaslMechanisms.join(', ')}` }),
    )
    .default('PLAIN')
    .describe('PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512'),
  /** SASL user name; required by the SASL protocols, refused by the others. */
  Username: z.string().min(1, 'must be a non-empty user name').optional().describe('SASL user name'),
  /** SASL password of Username; supply it from the environment. */
  Password: secretString('SASL password of Username; supply it from the environment').optional(),
};

/** Code options of addKafkaHealth, in the configuration's shape. */
export type KafkaHealthOptions = ProbeOptions<typeof kafkaHealthEntryShape>;

/** Splits `host:port` entries (port 9092 when omitted) into the `host:port` form the driver takes. */
export function kafkaBrokers(servers: readonly string[]): string[] {
  return servers.map((server) => {
    const { host, port } = parseEndpoint(server, { port: kafkaDefaultPort });
    return `${host.includes(':') ? `[${host}]` : host}:${port}`;
  });
}

export function validateKafkaHealthEntry(
  entry: {
    BootstrapServers?: string[];
    SecurityProtocol: KafkaSecurityProtocol;
    Username?: string;
    Password?: string;
  },
  issue: (field: string, message: string) => void,
): void {
  if (!entry.BootstrapServers || entry.BootstrapServers.length === 0) {
    issue('BootstrapServers', 'is required: one or more brokers, for example "kafka-1:9092,kafka-2:9092"');
  } else {
    entry.BootstrapServers.forEach((server, index) => {
      try {
        const parsed = parseEndpoint(server, { port: kafkaDefaultPort });
        if (parsed.protocol || parsed.path !== '/') throw new Error('not host:port');
      } catch {
        issue(`BootstrapServers:${index}`, 'must be host:port (or [ipv6]:port), for example kafka-1:9092');
      }
    });
  }
  const sasl = entry.SecurityProtocol.startsWith('SASL_');
  if (sasl && !entry.Username)
    issue('Username', `is required with SecurityProtocol ${entry.SecurityProtocol}`);
  if (sasl && !entry.Password)
    issue('Password', `is required with SecurityProtocol ${entry.SecurityProtocol}`);
  if (!sasl && (entry.Username || entry.Password)) {
    issue(
      'SecurityProtocol',
      `must be SASL_PLAINTEXT or SASL_SSL when Username or Password is set, got ${entry.SecurityProtocol}`,
    );
  }
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Kafka` section. */
export const kafkaHealthOptionsSchema = probeSectionSchema({
  entryShape: kafkaHealthEntryShape,
  validateEntry: validateKafkaHealthEntry,
});
