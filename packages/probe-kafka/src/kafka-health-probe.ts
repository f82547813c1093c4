import net from 'node:net';
import tls from 'node:tls';
import { Kafka, logLevel, type ISocketFactory, type SASLOptions } from 'kafkajs';
import type { DependencyCheckResult } from '@corekit/abstractions';
import {
  abortable,
  describeError,
  healthy,
  unhealthy,
  type ProbeDefinition,
  type ProbeEntry,
} from '@corekit/probe-kit';
import { kafkaBrokers, kafkaHealthEntryShape, validateKafkaHealthEntry } from './kafka-health-options';

type KafkaHealthEntry = ProbeEntry<typeof kafkaHealthEntryShape>;

interface KafkaErrorLike {
  name?: unknown;
  type?: unknown;
  code?: unknown;
  broker?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The innermost kafkajs error: retries and wrappers keep the original in `cause`. */
function innermost(error: unknown): KafkaErrorLike {
  let current = (error ?? {}) as KafkaErrorLike;
  for (let depth = 0; depth < 5 && current.cause && typeof current.cause === 'object'; depth++) {
    if (typeof current.type === 'string' || current.name === 'KafkaJSSASLAuthenticationError') break;
    current = current.cause as KafkaErrorLike;
  }
  return current;
}

/** Maps a kafkajs failure to a result naming the configuration to check. */
function kafkaFailure(error: unknown, entry: KafkaHealthEntry, entryPath: string): DependencyCheckResult {
  const inner = innermost(error);
  const message = typeof inner.message === 'string' ? inner.message : String(error);
  if (inner.name === 'KafkaJSSASLAuthenticationError' || inner.type === 'SASL_AUTHENTICATION_FAILED') {
    return unhealthy(
      'AUTHENTICATION_FAILED',
      `Kafka refused the SASL ${entry.SaslMechanism} credentials of user "${entry.Username ?? ''}" (${message}). ` +
        `Check ${entryPath}:Username, ${entryPath}:Password and ${entryPath}:SaslMechanism.`,
    );
  }
  if (inner.type === 'UNSUPPORTED_SASL_MECHANISM' || inner.type === 'ILLEGAL_SASL_STATE') {
    return unhealthy(
      'AUTHENTICATION_FAILED',
      `The broker does not accept SASL ${entry.SaslMechanism} on this listener (${message}). Check ${entryPath}:SecurityProtocol and ${entryPath}:SaslMechanism.`,
    );
  }
  if (inner.type === 'UNKNOWN_TOPIC_OR_PARTITION') {
    return unhealthy(
      'TOPIC_NOT_FOUND',
      `Topic "${entry.Topic ?? ''}" is not in the broker metadata (${message}). Check ${entryPath}:Topic.`,
    );
  }
  if (typeof inner.type === 'string' && inner.type.endsWith('_AUTHORIZATION_FAILED')) {
    return unhealthy(
      'AUTHORIZATION_FAILED',
      `Kafka refused the metadata request for this user (${inner.type}: ${message}). Grant it Describe on the cluster and topic.`,
    );
  }
  if (inner.name === 'KafkaJSConnectionError' || inner.name === 'KafkaJSConnectionClosedError') {
    const broker = typeof inner.broker === 'string' ? inner.broker : 'the broker';
    const separator = broker.lastIndexOf(':');
    const where =
      separator > 0
        ? {
            hostname: broker.slice(0, separator).replace(/^\[(.*)\]$/, '$1'),
            port: Number(broker.slice(separator + 1)),
          }
        : {};
    const code =
      typeof inner.code === 'string' ? inner.code : /timeout/i.test(message) ? 'ETIMEDOUT' : undefined;
    if (code) {
      const described = describeError({ code, message, ...where });
      return unhealthy(described.code, described.message);
    }
    return unhealthy(
      'CONNECTION_CLOSED',
      `Broker ${broker} closed the connection (${message}). Check that ${entryPath}:SecurityProtocol matches the listener: SSL and SASL listeners drop clients speaking another protocol.`,
    );
  }
  if (typeof inner.type === 'string') {
    // A protocol error code the broker answered (LEADER_NOT_AVAILABLE, NOT_CONTROLLER...): the cluster is
    // reachable but not serving the metadata; the type is Kafka's own error name.
    return unhealthy(inner.type, `Kafka answered ${inner.type}: ${message}`);
  }
  const described = describeError(error);
  if (described.code !== 'PROBE_FAILED' && described.code !== 'AUTHENTICATION_FAILED')
    return unhealthy(described.code, described.message);
  return unhealthy(
    'KAFKA_ERROR',
    `The Kafka client failed: ${message}. Check ${entryPath}:BootstrapServers and ${entryPath}:SecurityProtocol.`,
  );
}

function saslOptions(entry: KafkaHealthEntry): SASLOptions | undefined {
  if (!entry.SecurityProtocol.startsWith('SASL_')) return undefined;
  const credentials = { username: entry.Username ?? '', password: entry.Password ?? '' };
  switch (entry.SaslMechanism) {
    case 'SCRAM-SHA-256':
      return { mechanism: 'scram-sha-256', ...credentials };
    case 'SCRAM-SHA-512':
      return { mechanism: 'scram-sha-512', ...credentials };
    default:
      return { mechanism: 'plain', ...credentials };
  }
}

/** A socket factory that remembers every socket it opened, so an abort can destroy them at once. */
function trackingSocketFactory(sockets: Set<net.Socket>): ISocketFactory {
  return ({ host, port, ssl, onConnect }) => {
    const socket = ssl
      ? tls.connect(
          {
            host,
            port,
            ...(net.isIP(host) ? {} : { servername: host }),
            ...(typeof ssl === 'object' ? ssl : {}),
          },
          onConnect,
        )
      : net.connect({ host, port }, onConnect);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
}

async function readMetadata(
  kafka: Kafka,
  entry: KafkaHealthEntry,
  entryPath: string,
  disconnectOnExit: (disconnect: () => Promise<void>) => void,
) {
  const admin = kafka.admin({ retry: { retries: 0 } });
  disconnectOnExit(() => admin.disconnect());
  await admin.connect();
  if (entry.Topic) {
    // Only the topic's metadata: kafkajs' cluster description would ask for every topic of the cluster.
    const metadata = await admin.fetchTopicMetadata({ topics: [entry.Topic] });
    const topic = metadata.topics.find((candidate) => candidate.name === entry.Topic);
    if (!topic)
      return unhealthy(
        'TOPIC_NOT_FOUND',
        `Topic "${entry.Topic}" is not in the broker metadata. Check ${entryPath}:Topic.`,
      );
    const leaders = new Set(topic.partitions.map((partition) => partition.leader));
    return healthy(
      `Kafka answered the metadata of topic "${entry.Topic}" (${topic.partitions.length} partition(s))`,
      {
        topic: entry.Topic,
        partitions: topic.partitions.length,
        leaders: leaders.size,
      },
    );
  }
  const cluster = await admin.describeCluster();
  return healthy(`Kafka cluster answered metadata with ${cluster.brokers.length} broker(s)`, {
    brokers: cluster.brokers.length,
    ...(cluster.clusterId ? { clusterId: cluster.clusterId } : {}),
    ...(cluster.controller !== null ? { controller: cluster.controller } : {}),
  });
}

/**
 * The Kafka probe: a dedicated admin client (no retries) requests broker metadata, with auto-creation
 * disallowed: the metadata of Topic when it is set, otherwise the cluster description. It never produces,
 * creates or changes anything.
 */
export const kafkaHealthProbe: ProbeDefinition<typeof kafkaHealthEntryShape> = {
  kind: 'Kafka',
  entryShape: kafkaHealthEntryShape,
  validateEntry: validateKafkaHealthEntry,
  describeTarget: (entry) =>
    `${kafkaBrokers(entry.BootstrapServers ?? []).join(',')}${entry.Topic ? `/${entry.Topic}` : ''}`,
  async check(entry, context) {
    const sockets = new Set<net.Socket>();
    const sasl = saslOptions(entry);
    const kafka = new Kafka({
      clientId: entry.ClientId,
      brokers: kafkaBrokers(entry.BootstrapServers ?? []),
      ssl: entry.SecurityProtocol === 'SSL' || entry.SecurityProtocol === 'SASL_SSL',
      ...(sasl ? { sasl } : {}),
      connectionTimeout: context.timeoutMs,
      authenticationTimeout: context.timeoutMs,
      requestTimeout: context.timeoutMs,
      retry: { retries: 0 },
      logLevel: logLevel.NOTHING,
      socketFactory: trackingSocketFactory(sockets),
    });
    const destroySockets = () => {
      for (const socket of sockets) socket.destroy();
    };
    let disconnect: (() => Promise<void>) | undefined;
    try {
      return await abortable(
        readMetadata(kafka, entry, context.entryPath, (close) => (disconnect = close)),
        context.signal,
        destroySockets,
      );
    } catch (error) {
      if (context.signal.aborted) throw error;
      return kafkaFailure(error, entry, context.entryPath);
    } finally {
      // After an abort the sockets are already destroyed; disconnecting then only clears kafkajs' state.
      if (context.signal.aborted) void disconnect?.().catch(() => undefined);
      else await disconnect?.().catch(() => undefined);
      destroySockets();
    }
  },
};
