import type { Socket } from 'node:net';
import { connect, type ChannelModel } from 'amqplib';
import {
  abortable,
  formatHostPort,
  healthy,
  isTlsErrorCode,
  tlsHandshakeFailure,
  unhealthy,
  type ProbeContext,
  type ProbeDefinition,
} from '@corekit/probe-kit';
import {
  rabbitMqHealthEntryShape,
  resolveRabbitMqTarget,
  validateRabbitMqHealthEntry,
  type RabbitMqTarget,
} from './rabbitmq-health-options';

/** The socket amqplib keeps on its connection (not in its types). */
function streamOf(model: ChannelModel): Socket | undefined {
  return (model.connection as unknown as { stream?: Socket }).stream;
}

/** Maps what amqplib throws while opening a connection to a result; undefined leaves it to describeError. */
function openFailure(error: unknown, target: RabbitMqTarget, where: string, context: ProbeContext) {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  if (target.useTls && isTlsErrorCode(code))
    return tlsHandshakeFailure(error, where, `${context.entryPath}:${target.hostField}`);
  if (/^Handshake terminated by server: 403\b/.test(message)) {
    return unhealthy(
      'AUTHENTICATION_FAILED',
      `RabbitMQ at ${where} refused the login of user "${target.username}" (ACCESS_REFUSED). Check ${context.entryPath}:Username and :Password.`,
    );
  }
  if (/^Expected ConnectionOpenOk; got <ConnectionClose/.test(message)) {
    return unhealthy(
      'VIRTUAL_HOST_REFUSED',
      `RabbitMQ at ${where} refused to open the virtual host "${target.virtualHost}" for user "${target.username}": the virtual host does not exist or the user has no permissions on it. Check ${context.entryPath}:VirtualHost, or grant access (rabbitmqctl set_permissions -p <vhost> <user> ...).`,
    );
  }
  const terminated = /^Handshake terminated by server: (.*)$/s.exec(message);
  if (terminated)
    return unhealthy(
      'HANDSHAKE_REFUSED',
      `RabbitMQ at ${where} closed the connection during the handshake: ${terminated[1]}`,
    );
  if (/^Socket closed abruptly during opening handshake|^Expected |SASL mechanism/.test(message)) {
    return unhealthy(
      'HANDSHAKE_FAILED',
      `The AMQP handshake with ${where} failed (${message}). Check that ${context.entryPath}:Port is an AMQP 0-9-1 port and that UseTls matches it.`,
    );
  }
  return undefined;
}

/** Closes the connection politely (connection.close / close-ok), and destroys the socket in any case. */
async function closeConnection(model: ChannelModel, signal: AbortSignal): Promise<void> {
  const stream = streamOf(model);
  try {
    await abortable(model.close(), signal);
  } catch {
    // the broker or the network went away meanwhile: destroying the socket below is all that is left
  } finally {
    stream?.destroy();
  }
}

/**
 * The RabbitMQ probe: opens one dedicated AMQP 0-9-1 connection with amqplib (which never reconnects on its
 * own), which authenticates and opens the virtual host, then closes it. Healthy once the broker answers
 * connection.open-ok; no channel is opened and nothing is declared, published or consumed.
 */
export const rabbitMqHealthProbe: ProbeDefinition<typeof rabbitMqHealthEntryShape> = {
  kind: 'RabbitMq',
  entryShape: rabbitMqHealthEntryShape,
  validateEntry: validateRabbitMqHealthEntry,
  describeTarget: (entry) => {
    const target = resolveRabbitMqTarget(entry);
    return `${target.useTls ? 'amqps' : 'amqp'}://${formatHostPort(target.host, target.port)}/${encodeURIComponent(target.virtualHost)}`;
  },
  async check(entry, context) {
    const { signal } = context;
    const target = resolveRabbitMqTarget(entry);
    const where = formatHostPort(target.host, target.port);
    const opening = connect(
      {
        protocol: target.useTls ? 'amqps' : 'amqp',
        hostname: target.host,
        port: target.port,
        username: target.username,
        password: target.password,
        // amqplib unescapes the virtual host it is given
        vhost: encodeURIComponent(target.virtualHost),
      },
      {
        // net/tls.connect destroy the socket when the engine aborts the run, during the handshake too
        signal,
        noDelay: true,
        // with TLS, amqplib sends the host as SNI and Node verifies the certificate against it (always on)
        clientProperties: { connection_name: `corekit-probe-${entry.Id}` },
      },
    ).then((model) => {
      // errors after the open (the broker closing the connection) are emitted; never let one go unhandled
      model.on('error', () => undefined);
      if (signal.aborted) streamOf(model)?.destroy();
      return model;
    });
    let model: ChannelModel;
    try {
      model = await abortable(opening, signal);
    } catch (error) {
      const failure = openFailure(error, target, where, context);
      if (failure) return failure;
      throw error;
    }
    try {
      const properties = model.connection.serverProperties;
      const version = typeof properties.version === 'string' ? properties.version : undefined;
      const product = typeof properties.product === 'string' ? properties.product : 'AMQP broker';
      return healthy(
        `${product}${version ? ` ${version}` : ''} at ${where} opened virtual host "${target.virtualHost}"${target.useTls ? ' over TLS' : ''}`,
        {
          product,
          serverVersion: version ?? null,
          virtualHost: target.virtualHost,
          tls: target.useTls,
        },
      );
    } finally {
      await closeConnection(model, signal);
    }
  },
};
