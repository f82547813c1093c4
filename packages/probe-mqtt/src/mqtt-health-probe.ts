import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { CoreError } from '@corekit/abstractions';
import {
  connectTcp,
  createByteReader,
  formatHostPort,
  healthy,
  isTlsErrorCode,
  tlsHandshakeFailure,
  unhealthy,
  type ProbeContext,
  type ProbeDefinition,
} from '@corekit/probe-kit';
import {
  connackRefusals,
  encodeConnect,
  encodeEmptyPacket,
  mqttPacketType,
  readPacket,
} from './mqtt-packets';
import {
  mqttDefaultPort,
  mqttDefaultTlsPort,
  mqttHealthEntryShape,
  validateMqttHealthEntry,
} from './mqtt-health-options';

function portOf(entry: { Port?: number; UseTls: boolean }): number {
  return entry.Port ?? (entry.UseTls ? mqttDefaultTlsPort : mqttDefaultPort);
}

function refusal(returnCode: number, where: string, clientId: string, context: ProbeContext) {
  const reason = connackRefusals[returnCode];
  const refused = `The MQTT broker at ${where} refused the connection: ${reason} (CONNACK return code ${returnCode}).`;
  const data = { returnCode };
  switch (returnCode) {
    case 1:
      return unhealthy(
        'UNACCEPTABLE_PROTOCOL_VERSION',
        `${refused} It does not accept MQTT 3.1.1 (protocol level 4); enable it on the broker.`,
        data,
      );
    case 2:
      return unhealthy(
        'IDENTIFIER_REJECTED',
        `${refused} The client identifier was "${clientId}"; check ${context.entryPath}:ClientId against the broker's rules.`,
        data,
      );
    case 3:
      return unhealthy(
        'SERVER_UNAVAILABLE',
        `${refused} The broker is up but its MQTT service is not; check the broker.`,
        data,
      );
    case 4:
      return unhealthy(
        'AUTHENTICATION_FAILED',
        `${refused} Check ${context.entryPath}:Username and :Password.`,
        data,
      );
    default:
      return unhealthy(
        'AUTHENTICATION_FAILED',
        `${refused} Check ${context.entryPath}:Username and :Password, and that the broker lets this user and ClientId connect.`,
        data,
      );
  }
}

/**
 * The MQTT probe, speaking MQTT 3.1.1 itself: CONNECT (clean session, client id, keep-alive, credentials),
 * a CONNACK that accepts, PINGREQ answered by PINGRESP, then DISCONNECT. A refusing CONNACK is Unhealthy
 * with its reason. The probe never subscribes or publishes.
 */
export const mqttHealthProbe: ProbeDefinition<typeof mqttHealthEntryShape> = {
  kind: 'Mqtt',
  entryShape: mqttHealthEntryShape,
  validateEntry: validateMqttHealthEntry,
  describeTarget: (entry) =>
    `${entry.UseTls ? 'mqtts' : 'mqtt'}://${formatHostPort(entry.Host!, portOf(entry))}`,
  async check(entry, context) {
    const { signal } = context;
    const host = entry.Host!;
    const where = formatHostPort(host, portOf(entry));
    let socket: net.Socket;
    try {
      socket = await connectTcp({
        host,
        port: portOf(entry),
        signal,
        ...(entry.UseTls
          ? { tls: { servername: entry.TlsServerName ?? (net.isIP(host) ? undefined : host) } }
          : {}),
      });
    } catch (error) {
      if (entry.UseTls && isTlsErrorCode((error as { code?: unknown }).code))
        return tlsHandshakeFailure(error, where, `${context.entryPath}:TlsServerName`);
      throw error;
    }
    try {
      const reader = createByteReader(socket, signal);
      const clientId = entry.ClientId ?? `corekit${randomBytes(8).toString('hex')}`;
      socket.write(
        encodeConnect({
          clientId,
          keepAliveSeconds: entry.KeepAliveSeconds,
          username: entry.Username,
          password: entry.Password,
        }),
      );
      const connack = await readPacket(
        reader,
        { type: mqttPacketType.connack, name: 'CONNACK', after: 'CONNECT' },
        where,
      );
      if (connack.length !== 2)
        throw new CoreError(
          'PROTOCOL_ERROR',
          `The broker at ${where} sent a CONNACK of ${connack.length} bytes instead of 2; check that the port speaks MQTT 3.1.1.`,
        );
      const returnCode = connack[1];
      if (returnCode !== 0) {
        if (connackRefusals[returnCode]) return refusal(returnCode, where, clientId, context);
        throw new CoreError(
          'PROTOCOL_ERROR',
          `The broker at ${where} answered CONNECT with the unknown CONNACK return code ${returnCode}.`,
        );
      }
      socket.write(encodeEmptyPacket(mqttPacketType.pingreq));
      await readPacket(reader, { type: mqttPacketType.pingresp, name: 'PINGRESP', after: 'PINGREQ' }, where);
      reader.close();
      socket.end(encodeEmptyPacket(mqttPacketType.disconnect));
      return healthy(
        `MQTT broker at ${where} accepted CONNECT and answered PINGREQ${entry.UseTls ? ' over TLS' : ''}`,
        { tls: entry.UseTls },
      );
    } finally {
      socket.destroy();
    }
  },
};
