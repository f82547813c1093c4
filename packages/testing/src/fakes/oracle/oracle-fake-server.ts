/*
 * A fake Oracle Database (listener and session) over TCP, written against what node-oracledb's thin driver sends
 * and reads (Oracle does not publish its wire protocol; the driver's open source is the reference). It answers
 * exactly these packets and messages:
 *
 * - TNS CONNECT (type 1), its connect data inline or continued in DATA packets:
 *   - for a SERVICE_NAME or SID not in `services`, or always when `refuseWith` is set: REFUSE (type 4) carrying
 *     the listener's error descriptor `(DESCRIPTION=(TMP=)(VSNNUM=...)(ERR=<code>)(ERROR_STACK=...))` (12514 for
 *     an unknown service, 12505 for an unknown SID), then the connection is closed;
 *   - otherwise ACCEPT (type 2): TNS version 319, large SDU, no ANO services, no fast authentication.
 * - TTC messages in DATA packets (type 6), one request per packet:
 *   - protocol negotiation (message 1) -> server banner, AL32UTF8, compile capabilities (TTC field version 8)
 *     and runtime capabilities;
 *   - data type negotiation (message 2) -> an empty list;
 *   - O5LOGON phase one (function 118) -> AUTH_SESSKEY, AUTH_VFR_DATA (12c verifier), the PBKDF2 salts and counts;
 *   - O5LOGON phase two (function 115) -> the session data (AUTH_VERSION_NO, AUTH_SVR_RESPONSE...) when the
 *     password decrypts to the configured one, else ERROR ORA-01017 "invalid credential or not authorized;
 *     logon denied";
 *   - execute (function 94, first execution of a statement) -> DESCRIBE_INFO, ROW_HEADER, ROW_DATA and the
 *     end-of-fetch ERROR ORA-01403, or the configured query failure, or nothing with `hangOnQuery`;
 *   - logoff (9), ping (147), commit (14), rollback (15) -> STATUS; any other function -> ERROR ORA-03115;
 *   - a DATA packet flagged end-of-file -> the connection is closed.
 * Markers (breaks) and anything else close the connection.
 */
import net from 'node:net';

import {
  DATA_FLAG_END_OF_FILE,
  TnsPacketReader,
  TnsPacketType,
  acceptPacket,
  dataFlags,
  dataPacket,
  dataPayload,
  descriptorValue,
  parseConnect,
  refusePacket,
} from './tns-packets';
import { OracleSession, type OracleResult } from './ttc-session';
import { closeServerAndSockets, listenOn } from '../tcp-listener';

export type { OracleResult } from './ttc-session';

export interface OracleFakeServerOptions {
  /** Services (and SIDs) registered with the listener, compared case-insensitively. Default `FREEPDB1`. */
  readonly services?: readonly string[];
  /** Refuse every CONNECT with this TNS error code (12519, 12516, 12520...), whatever the service. */
  readonly refuseWith?: number;
  /** The one account that can log in. Default user `health`, password `health-password`. */
  readonly credentials?: { readonly username: string; readonly password: string };
  /** Result of every query. Default one NUMBER column `1` holding 1, what `SELECT 1 FROM DUAL` returns. */
  readonly result?: OracleResult;
  /** When set, every execute fails with this ORA error (e.g. 942, "ORA-00942: table or view does not exist"). */
  readonly queryFailure?: { readonly code: number; readonly message: string };
  /** When true, an execute is recorded but never answered (a database stuck after login). */
  readonly hangOnQuery?: boolean;
}

/** What reached the wire. Passwords are never recorded. */
export interface OracleFakeServerRecord {
  /** The connect descriptor of every CONNECT, as the client sent it. */
  readonly connectDescriptors: string[];
  /** SERVICE_NAME (or SID) of every CONNECT, upper-cased as the listener compares them. */
  readonly services: string[];
  /** TNS versions the clients asked for. */
  readonly versions: number[];
  /** Every O5LOGON attempt: the user name sent and whether the password was right. */
  readonly logins: { username: string; accepted: boolean }[];
  /** SQL text of every execute. */
  readonly queries: string[];
  connections: number;
}

export interface OracleFakeServer {
  readonly host: string;
  readonly port: number;
  /** Easy Connect string of the default service: `127.0.0.1:<port>/FREEPDB1`. */
  readonly connectString: string;
  readonly received: OracleFakeServerRecord;
  openConnections(): number;
  /** Closes the listener and destroys every open socket. */
  close(): Promise<void>;
}

export async function startOracleFakeServer(
  options: OracleFakeServerOptions = {},
): Promise<OracleFakeServer> {
  const services = (options.services ?? ['FREEPDB1']).map((service) => service.toUpperCase());
  const credentials = options.credentials ?? { username: 'health', password: 'health-password' };
  const received: OracleFakeServerRecord = {
    connectDescriptors: [],
    services: [],
    versions: [],
    logins: [],
    queries: [],
    connections: 0,
  };
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
    let session: OracleSession | undefined;

    const onConnectData = () => {
      const descriptor = connectData!.toString('ascii');
      received.connectDescriptors.push(descriptor);
      const serviceName = descriptorValue(descriptor, 'SERVICE_NAME');
      const sid = descriptorValue(descriptor, 'SID');
      const requested = (serviceName ?? sid ?? '').toUpperCase();
      received.services.push(requested);
      if (options.refuseWith !== undefined || !services.includes(requested)) {
        socket.end(
          refusePacket(
            options.refuseWith ?? (serviceName === undefined && sid !== undefined ? 12505 : 12514),
          ),
        );
        return;
      }
      session = new OracleSession(
        {
          credentials,
          result: options.result ?? { columns: ['1'], rows: [[1]] },
          serviceName: requested,
          serverMajorVersion: 19,
          hangOnQuery: options.hangOnQuery ?? false,
          ...(options.queryFailure ? { queryFailure: options.queryFailure } : {}),
        },
        {
          onLogin: (username, accepted) => received.logins.push({ username, accepted }),
          onQuery: (sql) => received.queries.push(sql),
        },
      );
      socket.write(acceptPacket());
      reader.largeLength = true;
    };

    socket.on('data', (data: Buffer) => {
      try {
        for (const packet of reader.push(data)) {
          if (session) {
            if (packet.type !== TnsPacketType.Data || dataFlags(packet) & DATA_FLAG_END_OF_FILE) {
              socket.destroy();
              return;
            }
            const answer = session.handle(dataPayload(packet));
            if (answer.reply) socket.write(dataPacket(answer.reply));
            continue;
          }
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
  const port = await listenOn(server, '127.0.0.1');

  return {
    host: '127.0.0.1',
    port,
    connectString: `127.0.0.1:${port}/${services[0] ?? 'FREEPDB1'}`,
    received,
    openConnections: () => sockets.size,
    close: () => closeServerAndSockets(server, sockets),
  };
}
