/*
 * A fake Microsoft SQL Server speaking TDS 7.4 over plain TCP, written from the [MS-TDS] specification. It
 * answers exactly these messages:
 *
 * - PRELOGIN (0x12)  -> PRELOGIN response: VERSION 16.0.4135, ENCRYPTION = ENCRYPT_NOT_SUP (0x02: this fake never
 *   speaks TLS, so a client asking for encryption is answered "not supported"), INSTOPT, THREADID, MARS off;
 * - LOGIN7 (0x10)    -> ENVCHANGE database, INFO 5701, ENVCHANGE collation, ENVCHANGE language, INFO 5703,
 *   LOGINACK (SQL_TSQL, TDS 7.4, "Microsoft SQL Server"), ENVCHANGE packet size, DONE; or, when the SQL login
 *   or password is not the configured one, ERROR 18456 class 14 "Login failed for user '<name>'." and DONE with
 *   the error bit, then the connection is closed (what SQL Server does); a database that is not in `databases`
 *   gets ERROR 4060 "Cannot open database ..." then the same 18456;
 * - SQL batch (0x01) -> a batch made only of SET statements (the session settings tedious sends after login) is
 *   answered with one DONE; any other batch with the configured one-row result: COLMETADATA, ROW,
 *   DONE (DONE_COUNT, row count 1), or with the configured query failure (ERROR, DONE with the error bit);
 * - ATTENTION (0x06) -> DONE with DONE_ATTN, as cancellation requires.
 *
 * With `hangOnQuery` a non-SET batch is never answered (a server stuck after login).
 *
 * A TDS 8 client (TLS before PRELOGIN, tedious `encrypt: 'strict'`) and any other packet type get the socket
 * destroyed. Everything is little-endian except packet headers and PRELOGIN, as the specification says.
 *
 * Tested with the real tedious driver in packages/probe-mssql/src/mssql-fake-server.test.ts (tedious needs that
 * package's jest transform settings).
 */
import net from 'node:net';

import {
  DEFAULT_COLLATION,
  DoneStatus,
  PacketType,
  TdsMessageReader,
  collationChange,
  columnMetadata,
  done,
  environmentChange,
  framePackets,
  loginAcknowledgement,
  message,
  parseLogin7,
  parseSqlBatch,
  preloginOption,
  preloginOptions,
  row,
  type TdsValue,
} from './tds-encoding';
import { closeServerAndSockets, listenOn } from '../tcp-listener';

const SERVER_NAME = 'FAKESQL';

/** Error 18456 as SQL Server sends it to a client whose SQL login failed (the detail stays in the server log). */
export function mssqlLoginFailedMessage(userName: string): string {
  return `Login failed for user '${userName}'.`;
}

export interface MssqlFakeServerOptions {
  /** Accepted SQL login. When omitted every login succeeds. */
  readonly credentials?: { readonly userName: string; readonly password: string };
  /** Databases that exist (default: any name is accepted). */
  readonly databases?: readonly string[];
  /** Database of a login that names none (default `master`). */
  readonly defaultDatabase?: string;
  /** The one-row result of every non-SET batch (default one unnamed column holding 1, what `SELECT 1` returns). */
  readonly result?: { readonly columns: readonly string[]; readonly row: readonly TdsValue[] };
  /** When set, every non-SET batch fails with this server error (e.g. 208 "Invalid object name 'x'."). */
  readonly queryFailure?: { readonly number: number; readonly severity?: number; readonly message: string };
  /** When true, a non-SET batch is recorded but never answered (a server stuck after login), so a client must cancel or drop it. */
  readonly hangOnQuery?: boolean;
}

/** What reached the wire, for assertions. Passwords are never recorded. */
export interface MssqlFakeServerRecord {
  /** ENCRYPTION byte of every PRELOGIN (0 off, 1 on, 2 not supported, 3 required). */
  readonly preloginEncryption: number[];
  /** Every LOGIN7: SQL login, database (empty when none), application name. */
  readonly logins: { userName: string; database: string; appName: string; serverName: string }[];
  /** Text of every SQL batch, in order. */
  readonly batches: string[];
  /** ATTENTION messages received. */
  attentions: number;
  /** Connections accepted so far. */
  connections: number;
}

export interface MssqlFakeServer {
  readonly host: string;
  readonly port: number;
  readonly received: MssqlFakeServerRecord;
  openConnections(): number;
  /** Closes the listener and destroys every open socket. */
  close(): Promise<void>;
}

function isSessionSettings(sql: string): boolean {
  const statements = sql
    .split(/\r?\n|;/)
    .map((line) => line.trim())
    .filter(Boolean);
  return statements.length > 0 && statements.every((statement) => /^set\s/i.test(statement));
}

export async function startMssqlFakeServer(options: MssqlFakeServerOptions = {}): Promise<MssqlFakeServer> {
  const received: MssqlFakeServerRecord = {
    preloginEncryption: [],
    logins: [],
    batches: [],
    attentions: 0,
    connections: 0,
  };
  const result = options.result ?? { columns: [''], row: [1] };
  const sockets = new Set<net.Socket>();

  const respond = (socket: net.Socket, tokens: Buffer[]) => {
    if (!socket.destroyed) socket.write(framePackets(PacketType.Tabular, Buffer.concat(tokens)));
  };

  const onLogin = (socket: net.Socket, payload: Buffer) => {
    const login = parseLogin7(payload);
    received.logins.push({
      userName: login.userName,
      database: login.database,
      appName: login.appName,
      serverName: login.serverName,
    });
    const loginFailed = message('error', {
      number: 18456,
      state: 1,
      severity: 14,
      text: mssqlLoginFailedMessage(login.userName),
      serverName: SERVER_NAME,
    });
    const expected = options.credentials;
    if (expected && (login.userName !== expected.userName || login.password !== expected.password)) {
      respond(socket, [loginFailed, done(DoneStatus.Error)]);
      socket.end();
      return;
    }
    const database = login.database || options.defaultDatabase || 'master';
    if (options.databases && !options.databases.includes(database)) {
      const text = `Cannot open database "${database}" requested by the login. The login failed.`;
      respond(socket, [
        message('error', { number: 4060, state: 1, severity: 11, text, serverName: SERVER_NAME }),
        loginFailed,
        done(DoneStatus.Error),
      ]);
      socket.end();
      return;
    }
    respond(socket, [
      environmentChange(1, database, 'master'),
      message('info', {
        number: 5701,
        state: 2,
        severity: 0,
        text: `Changed database context to '${database}'.`,
        serverName: SERVER_NAME,
      }),
      collationChange(DEFAULT_COLLATION),
      environmentChange(2, 'us_english', ''),
      message('info', {
        number: 5703,
        state: 1,
        severity: 0,
        text: 'Changed language setting to us_english.',
        serverName: SERVER_NAME,
      }),
      loginAcknowledgement('Microsoft SQL Server', [16, 0, 4135]),
      environmentChange(4, '4096', '4096'),
      done(DoneStatus.Final),
    ]);
  };

  const onBatch = (socket: net.Socket, payload: Buffer) => {
    const sql = parseSqlBatch(payload);
    received.batches.push(sql);
    if (isSessionSettings(sql)) return respond(socket, [done(DoneStatus.Final)]);
    if (options.hangOnQuery) return;
    if (options.queryFailure) {
      const failure = options.queryFailure;
      return respond(socket, [
        message('error', {
          number: failure.number,
          state: 1,
          severity: failure.severity ?? 16,
          text: failure.message,
          serverName: SERVER_NAME,
        }),
        done(DoneStatus.Error),
      ]);
    }
    respond(socket, [
      columnMetadata(result.columns, result.row),
      row(result.row, result.row),
      done(DoneStatus.Count, 0xc1, 1),
    ]);
  };

  const server = net.createServer((socket) => {
    received.connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const reader = new TdsMessageReader();
    let first = true;
    socket.on('data', (data: Buffer) => {
      if (first && data[0] === 0x16) {
        socket.destroy(); // a TLS ClientHello: TDS 8 strict encryption, which this fake does not speak
        return;
      }
      first = false;
      try {
        for (const request of reader.push(data)) {
          switch (request.type) {
            case PacketType.Prelogin: {
              received.preloginEncryption.push(preloginOption(request.payload, 0x01)?.[0] ?? -1);
              const response = preloginOptions([
                { token: 0x00, data: Buffer.from([16, 0, 0x10, 0x27, 0, 0]) },
                { token: 0x01, data: Buffer.from([0x02]) },
                { token: 0x02, data: Buffer.from([0]) },
                { token: 0x03, data: Buffer.alloc(0) },
                { token: 0x04, data: Buffer.from([0]) },
              ]);
              socket.write(framePackets(PacketType.Tabular, response));
              break;
            }
            case PacketType.Login7:
              onLogin(socket, request.payload);
              break;
            case PacketType.SqlBatch:
              onBatch(socket, request.payload);
              break;
            case PacketType.Attention:
              received.attentions++;
              respond(socket, [done(DoneStatus.Attention)]);
              break;
            default:
              socket.destroy();
          }
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
    received,
    openConnections: () => sockets.size,
    close: () => closeServerAndSockets(server, sockets),
  };
}
