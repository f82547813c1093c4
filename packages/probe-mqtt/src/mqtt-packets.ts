import { CoreError } from '@corekit/abstractions';
import type { ByteReader } from '@corekit/probe-kit';

/** MQTT 3.1.1 control packet types the probe sends or expects (section 2.2.1). */
export const mqttPacketType = { connect: 1, connack: 2, pingreq: 12, pingresp: 13, disconnect: 14 } as const;

/** CONNACK return codes 1-5 (section 3.2.2.3) and what each means. */
export const connackRefusals: Readonly<Record<number, string>> = {
  1: 'unacceptable protocol version',
  2: 'identifier rejected',
  3: 'server unavailable',
  4: 'bad user name or password',
  5: 'not authorized',
};

export interface ConnectFields {
  readonly clientId: string;
  readonly keepAliveSeconds: number;
  readonly username?: string;
  readonly password?: string;
}

function encodeRemainingLength(length: number): Buffer {
  const bytes: number[] = [];
  let value = length;
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    bytes.push(byte);
  } while (value > 0);
  return Buffer.from(bytes);
}

function encodeString(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A CONNECT packet: protocol "MQTT" level 4, clean session, no will, optional user name and password. */
export function encodeConnect(fields: ConnectFields): Buffer {
  let flags = 0x02; // clean session: the probe leaves no session state behind on the broker
  if (fields.username !== undefined) flags |= 0x80;
  if (fields.password !== undefined) flags |= 0x40;
  const header = Buffer.concat([
    encodeString('MQTT'),
    Buffer.from([4, flags, fields.keepAliveSeconds >> 8, fields.keepAliveSeconds & 0xff]),
  ]);
  const payload = [encodeString(fields.clientId)];
  if (fields.username !== undefined) payload.push(encodeString(fields.username));
  if (fields.password !== undefined) payload.push(encodeString(fields.password));
  const body = Buffer.concat([header, ...payload]);
  return Buffer.concat([
    Buffer.from([mqttPacketType.connect << 4]),
    encodeRemainingLength(body.length),
    body,
  ]);
}

/** A packet with no variable header or payload (PINGREQ, DISCONNECT). */
export function encodeEmptyPacket(type: number): Buffer {
  return Buffer.from([type << 4, 0]);
}

/**
 * Reads one control packet of `expected` type and returns its body. Any other type fails at its first byte
 * (so a non-MQTT answer is reported as such, not waited on); a body over 64 KiB is refused, since the probe
 * only expects tiny packets.
 */
export async function readPacket(
  reader: ByteReader,
  expected: { type: number; name: string; after: string },
  where: string,
): Promise<Buffer> {
  const [first] = await reader.read(1);
  if (first >> 4 !== expected.type) {
    throw new CoreError(
      'PROTOCOL_ERROR',
      `The broker at ${where} did not answer ${expected.after} with a ${expected.name} (got packet type ${first >> 4}); check that the port speaks MQTT 3.1.1.`,
    );
  }
  let length = 0;
  for (let index = 0, multiplier = 1; ; index++, multiplier *= 128) {
    if (index === 4)
      throw new CoreError(
        'PROTOCOL_ERROR',
        `The broker at ${where} sent a ${expected.name} with a malformed remaining length.`,
      );
    const [byte] = await reader.read(1);
    length += (byte & 0x7f) * multiplier;
    if ((byte & 0x80) === 0) break;
  }
  if (length > 64 * 1024)
    throw new CoreError(
      'PROTOCOL_ERROR',
      `The broker at ${where} sent a ${length}-byte ${expected.name}; check that the port speaks MQTT 3.1.1.`,
    );
  return length > 0 ? reader.read(length) : Buffer.alloc(0);
}
