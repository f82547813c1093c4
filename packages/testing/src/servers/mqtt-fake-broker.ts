import net from 'node:net';

/** A CONNECT packet as the fake broker decoded it from the wire (MQTT 3.1.1, section 3.1). */
export interface MqttConnectPacket {
  readonly protocolName: string;
  readonly protocolLevel: number;
  readonly cleanSession: boolean;
  readonly keepAliveSeconds: number;
  readonly clientId: string;
  readonly willFlag: boolean;
  readonly username?: string;
  readonly password?: string;
}

export interface MqttFakeBrokerOptions {
  /** CONNACK return code (0 accepted; 1-5 refused). A refused connection is closed after the CONNACK. */
  readonly returnCode?: number;
  /** Answer PINGREQ with PINGRESP (default true). */
  readonly answerPing?: boolean;
  /** Sent instead of the CONNACK, to imitate a broken broker. */
  readonly connectReply?: Buffer;
}

/** A fake MQTT 3.1.1 broker that speaks CONNECT/CONNACK, PINGREQ/PINGRESP and DISCONNECT only. */
export interface MqttFakeBroker {
  readonly host: string;
  readonly port: number;
  /** Every CONNECT received. */
  readonly connects: readonly MqttConnectPacket[];
  /** Names of the control packets received, in order, over all connections (`CONNECT`, `PINGREQ`...). */
  readonly received: readonly string[];
  /** Connections accepted and not yet closed. */
  readonly openConnections: number;
  close(): Promise<void>;
}

const packetNames: Record<number, string> = {
  1: 'CONNECT',
  3: 'PUBLISH',
  8: 'SUBSCRIBE',
  10: 'UNSUBSCRIBE',
  12: 'PINGREQ',
  14: 'DISCONNECT',
};

/** Decodes a CONNECT body (variable header and payload). Throws on a malformed packet. */
export function decodeMqttConnect(body: Buffer): MqttConnectPacket {
  let offset = 0;
  const readString = (): Buffer => {
    const length = body.readUInt16BE(offset);
    const value = body.subarray(offset + 2, offset + 2 + length);
    if (value.length !== length) throw new Error('truncated string in CONNECT');
    offset += 2 + length;
    return value;
  };
  const protocolName = readString().toString('utf8');
  const protocolLevel = body.readUInt8(offset);
  const flags = body.readUInt8(offset + 1);
  const keepAliveSeconds = body.readUInt16BE(offset + 2);
  offset += 4;
  const clientId = readString().toString('utf8');
  const willFlag = (flags & 0x04) !== 0;
  if (willFlag) {
    readString();
    readString();
  }
  const username = (flags & 0x80) !== 0 ? readString().toString('utf8') : undefined;
  const password = (flags & 0x40) !== 0 ? readString().toString('utf8') : undefined;
  if (offset !== body.length) throw new Error('trailing bytes in CONNECT');
  return {
    protocolName,
    protocolLevel,
    cleanSession: (flags & 0x02) !== 0,
    keepAliveSeconds,
    clientId,
    willFlag,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
  };
}

/** Starts the fake broker on 127.0.0.1 (random port). */
export async function startMqttFakeBroker(options: MqttFakeBrokerOptions = {}): Promise<MqttFakeBroker> {
  const connects: MqttConnectPacket[] = [];
  const received: string[] = [];
  const sockets = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        // fixed header: type and flags, then the remaining length in 1-4 bytes of 7 bits each
        let length = 0;
        let multiplier = 1;
        let index = 1;
        let complete = false;
        while (index < buffer.length && index <= 4) {
          const byte = buffer[index];
          length += (byte & 0x7f) * multiplier;
          multiplier *= 128;
          index += 1;
          if ((byte & 0x80) === 0) {
            complete = true;
            break;
          }
        }
        if (!complete || buffer.length < index + length) return;
        const type = buffer[0] >> 4;
        const body = buffer.subarray(index, index + length);
        buffer = buffer.subarray(index + length);
        received.push(packetNames[type] ?? `TYPE_${type}`);
        if (type === 1) {
          connects.push(decodeMqttConnect(body));
          if (options.connectReply) {
            socket.end(options.connectReply);
            return;
          }
          const returnCode = options.returnCode ?? 0;
          socket.write(Buffer.from([0x20, 0x02, 0x00, returnCode]));
          if (returnCode !== 0) {
            socket.end();
            return;
          }
        } else if (type === 12) {
          if (options.answerPing ?? true) socket.write(Buffer.from([0xd0, 0x00]));
        } else if (type === 14) {
          socket.end();
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    host: '127.0.0.1',
    port: (server.address() as net.AddressInfo).port,
    connects,
    received,
    get openConnections() {
      return sockets.size;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
