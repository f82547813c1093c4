/*
 * A fake Oracle Net listener over TCP. It answers exactly these packets:
 *
 * - CONNECT (type 1), with its connect data inline or continued in DATA packets -> REFUSE (type 4) whose data is
 *   the listener's error descriptor, `(DESCRIPTION=(TMP=)(VSNNUM=...)(ERR=<code>)(ERROR_STACK=...))`, then the
 *   connection is closed. The code is 12514 (TNS:listener does not currently know of service requested in
 *   connect descriptor) for a SERVICE_NAME, 12505 (listener does not currently know of SID) for a SID, or the
 *   `refuseWith` option (12516, 12519, 12520... the listener's other refusals).
 *
 * It does not go further (ACCEPT, the TTC session layer with its O5LOGON authentication, execute): this fake is
 * the listener of a database that has not registered the requested service, which is what an Oracle probe most
 * often meets besides refused and hung sockets. Anything but CONNECT or DATA closes the connection.
 */
import net from 'node:net';

import { TnsPacketReader, TnsPacketType, dataPayload, descriptorValue, parseConnect, refusePacket } from './tns-packets';

export interface OracleFakeServerOptions {
  /** TNS error code of every REFUSE. Default: 12514 for a SERVICE_NAME, 12505 for a SID. */
  readonly refuseWith?: number;
}

/** What reached the wire. */
export interface OracleFakeServerRecord {
  /** The connect descriptor of every CONNECT, as the client sent it. */
  readonly connectDescriptors: string[];
  /** SERVICE_NAME (or SID) of every CONNECT, upper-cased as the listener compares them. */
  readonly services: string[];
  /** TNS versions the clients asked for. */
  readonly versions: number[];
  connections: number;
}

export interface OracleFakeServer {
  readonly host: string;
  readonly port: number;
  readonly received: OracleFakeServerRecord;
  openConnections(): number;
  /** Closes the listener and destroys every open socket. */
  close(): Promise<void>;
}

export async function startOracleFakeServer(options: OracleFakeServerOptions = {}): Promise<OracleFakeServer> {
  const received: OracleFakeServerRecord = { connectDescriptors: [], services: [], versions: [], connections: 0 };
  const sockets = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    received.connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const reader = new TnsPacketReader();
    let connectData: Buffer | undefined;
    let expectedLength = 0;

    const onConnectData = () => {
      const descriptor = connectData!.toString('ascii');
      received.connectDescriptors.push(descriptor);
      const serviceName = descriptorValue(descriptor, 'SERVICE_NAME');
      const sid = descriptorValue(descriptor, 'SID');
      received.services.push((serviceName ?? sid ?? '').toUpperCase());
      const code = options.refuseWith ?? (serviceName === undefined && sid !== undefined ? 12505 : 12514);
      socket.end(refusePacket(code));
    };

    socket.on('data', (data: Buffer) => {
      try {
        for (const packet of reader.push(data)) {
          if (packet.type === TnsPacketType.Connect && connectData === undefined) {
            const connect = parseConnect(packet);
            received.versions.push(connect.version);
            connectData = connect.inlineData;
            expectedLength = connect.connectDataLength;
          } else if (packet.type === TnsPacketType.Data && connectData !== undefined) {
            connectData = Buffer.concat([connectData, dataPayload(packet)]);
          } else {
            socket.destroy();
            return;
          }
          if (connectData.length >= expectedLength) onConnectData();
        }
      } catch {
        socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    host: '127.0.0.1',
    port,
    received,
    openConnections: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
