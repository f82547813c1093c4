/*
 * A fake Neo4j server speaking Bolt 5.1-5.4 over TCP, written from the Bolt protocol documentation
 * (https://neo4j.com/docs/bolt/current/). It answers exactly these messages:
 *
 * - the handshake: magic 0x6060B017 and four version proposals (ranges included) -> the highest proposed version
 *   in 5.1..5.4, or 00 00 00 00 and close when none fits (as a real server does);
 * - HELLO {user_agent, routing, ...}        -> SUCCESS {server, connection_id, hints}
 * - LOGON {scheme, principal, credentials}  -> SUCCESS {}, or, when the credentials are not the configured ones,
 *   FAILURE {code: Neo.ClientError.Security.Unauthorized, message} and the connection is closed (DEFUNCT);
 * - LOGOFF                                  -> SUCCESS {} (back to authentication)
 * - ROUTE {routing} [bookmarks] {db}        -> SUCCESS {rt: {ttl, db, servers}} naming this server for the ROUTE,
 *   READ and WRITE roles (what the neo4j:// schemes need), or FAILURE DatabaseNotFound for an unknown database;
 * - RUN query {params} {db, mode, ...}      -> SUCCESS {fields, t_first}, or FAILURE DatabaseNotFound / the
 *   configured query failure;
 * - PULL {n, qid} / DISCARD {n, qid}        -> the configured rows as RECORD messages, then SUCCESS {type: "r", db};
 * - BEGIN / COMMIT / ROLLBACK               -> SUCCESS (COMMIT carries a bookmark), so managed transactions work;
 * - TELEMETRY                               -> SUCCESS {}
 * - RESET                                   -> SUCCESS {} (leaves the FAILED state)
 * - GOODBYE                                 -> the server closes the connection.
 *
 * After a FAILURE every message but RESET and GOODBYE is answered IGNORED, as the server state machine says.
 * Anything else is answered FAILURE Neo.ClientError.Request.Invalid and the connection is closed.
 */
import net from 'node:net';

import {
  ChunkedMessageReader,
  PackStreamReader,
  chunkMessage,
  pack,
  structure,
  type PackStreamStructure,
} from './packstream';
import { closeServerAndSockets, listenOn } from '../tcp-listener';

const REQUEST_NAMES: Record<number, string> = {
  0x01: 'HELLO',
  0x02: 'GOODBYE',
  0x0f: 'RESET',
  0x10: 'RUN',
  0x11: 'BEGIN',
  0x12: 'COMMIT',
  0x13: 'ROLLBACK',
  0x2f: 'DISCARD',
  0x3f: 'PULL',
  0x54: 'TELEMETRY',
  0x66: 'ROUTE',
  0x6a: 'LOGON',
  0x6b: 'LOGOFF',
};

const SUCCESS = 0x70;
const RECORD = 0x71;
const IGNORED = 0x7e;
const FAILURE = 0x7f;

/** The message and code a real Neo4j 5 server answers a LOGON with wrong credentials. */
export const NEO4J_UNAUTHORIZED = {
  code: 'Neo.ClientError.Security.Unauthorized',
  message: 'The client is unauthorized due to authentication failure.',
} as const;

export interface Neo4jFakeServerOptions {
  /** Accepted basic credentials. When omitted any LOGON succeeds (like a server with auth disabled). */
  readonly credentials?: { readonly username: string; readonly password: string };
  /** Databases that exist (default `neo4j` and `system`); RUN or ROUTE naming another fails with DatabaseNotFound. */
  readonly databases?: readonly string[];
  /** Database used when a RUN or ROUTE names none (default `neo4j`). */
  readonly defaultDatabase?: string;
  /** Server agent reported in HELLO's SUCCESS (default `Neo4j/5.26.0`). */
  readonly serverAgent?: string;
  /** Result of every RUN (default one column `1` holding the integer 1, what `RETURN 1` yields). */
  readonly result?: { readonly fields: readonly string[]; readonly rows: readonly (readonly unknown[])[] };
  /** When set, every RUN fails with this Neo4j status code and message (e.g. a syntax error). */
  readonly queryFailure?: { readonly code: string; readonly message: string };
  /** Highest Bolt minor version of 5.x offered (1-4, default 4). */
  readonly maximumMinorVersion?: number;
}

/** What reached the wire, in order, for assertions. Credentials are never recorded. */
export interface Neo4jFakeServerRecord {
  /** Every request message by name (`HELLO`, `LOGON`, `RUN`, ...), across all connections. */
  readonly messages: string[];
  /** Principals of LOGON messages. */
  readonly principals: (string | null)[];
  /** Every RUN: its query, and the database and access mode from its extra map (null when absent). */
  readonly runs: { query: string; database: string | null; mode: string | null }[];
  /** Every ROUTE: the database it asked a routing table for (null when absent). */
  readonly routes: { database: string | null }[];
  /** Bolt versions negotiated, one per connection (`5.4`). */
  readonly versions: string[];
  /** Connections accepted so far. */
  connections: number;
}

export interface Neo4jFakeServer {
  readonly host: string;
  readonly port: number;
  /** `bolt://127.0.0.1:<port>` */
  readonly uri: string;
  readonly received: Neo4jFakeServerRecord;
  /** Sockets currently open. */
  openConnections(): number;
  /** Closes the listener and destroys every open socket. */
  close(): Promise<void>;
}

type State =
  | 'NEGOTIATION'
  | 'CONNECTED'
  | 'AUTHENTICATION'
  | 'READY'
  | 'STREAMING'
  | 'TX_READY'
  | 'TX_STREAMING'
  | 'FAILED';

function chooseVersion(proposals: Buffer, maximumMinor: number): number | null {
  for (let index = 0; index < 4; index++) {
    const major = proposals[index * 4 + 3]!;
    const minor = proposals[index * 4 + 2]!;
    const range = proposals[index * 4 + 1]!;
    if (major !== 5) continue;
    const highest = Math.min(minor, maximumMinor);
    if (highest >= 1 && highest >= minor - range) return highest;
  }
  return null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export async function startNeo4jFakeServer(options: Neo4jFakeServerOptions = {}): Promise<Neo4jFakeServer> {
  const databases = options.databases ?? ['neo4j', 'system'];
  const defaultDatabase = options.defaultDatabase ?? 'neo4j';
  const result = options.result ?? { fields: ['1'], rows: [[1]] };
  const received: Neo4jFakeServerRecord = {
    messages: [],
    principals: [],
    runs: [],
    routes: [],
    versions: [],
    connections: 0,
  };
  const sockets = new Set<net.Socket>();
  let port = 0;

  const handle = (socket: net.Socket, connectionId: string) => {
    let state: State = 'NEGOTIATION';
    let handshake = Buffer.alloc(0);
    let streamDatabase = defaultDatabase;
    const reader = new ChunkedMessageReader();
    const send = (signature: number, ...fields: unknown[]) => {
      if (!socket.destroyed) socket.write(chunkMessage(pack(structure(signature, fields))));
    };
    const fail = (code: string, message: string) => {
      send(FAILURE, { code, message });
      state = 'FAILED';
    };
    const knownDatabase = (name: string | null): boolean => name === null || databases.includes(name);
    const databaseNotFound = (name: string) =>
      fail('Neo.ClientError.Database.DatabaseNotFound', `Database does not exist. Database name: '${name}'.`);

    const onMessage = (message: PackStreamStructure) => {
      const name = REQUEST_NAMES[message.signature] ?? `0x${message.signature.toString(16)}`;
      received.messages.push(name);
      const [first, second, third] = message.fields;
      if (name === 'GOODBYE') {
        socket.end();
        return;
      }
      if (name === 'RESET') {
        send(SUCCESS, {});
        state = state === 'CONNECTED' || state === 'AUTHENTICATION' ? state : 'READY';
        return;
      }
      if (state === 'FAILED') {
        send(IGNORED);
        return;
      }
      switch (name) {
        case 'HELLO':
          send(SUCCESS, {
            server: options.serverAgent ?? 'Neo4j/5.26.0',
            connection_id: connectionId,
            hints: {},
          });
          state = 'AUTHENTICATION';
          return;
        case 'LOGON': {
          const token = (first ?? {}) as Record<string, unknown>;
          received.principals.push(stringOrNull(token.principal));
          const expected = options.credentials;
          if (
            expected &&
            (token.scheme !== 'basic' ||
              token.principal !== expected.username ||
              token.credentials !== expected.password)
          ) {
            send(FAILURE, { ...NEO4J_UNAUTHORIZED });
            socket.end();
            return;
          }
          send(SUCCESS, {});
          state = 'READY';
          return;
        }
        case 'LOGOFF':
          send(SUCCESS, {});
          state = 'AUTHENTICATION';
          return;
        case 'TELEMETRY':
          send(SUCCESS, {});
          return;
        case 'ROUTE': {
          const database = stringOrNull((third as Record<string, unknown> | null)?.db);
          received.routes.push({ database });
          if (!knownDatabase(database)) return databaseNotFound(database!);
          const address = `127.0.0.1:${port}`;
          send(SUCCESS, {
            rt: {
              ttl: 300,
              db: database ?? defaultDatabase,
              servers: [
                { addresses: [address], role: 'ROUTE' },
                { addresses: [address], role: 'READ' },
                { addresses: [address], role: 'WRITE' },
              ],
            },
          });
          return;
        }
        case 'BEGIN': {
          const database = stringOrNull((first as Record<string, unknown> | null)?.db);
          if (!knownDatabase(database)) return databaseNotFound(database!);
          streamDatabase = database ?? defaultDatabase;
          send(SUCCESS, {});
          state = 'TX_READY';
          return;
        }
        case 'COMMIT':
        case 'ROLLBACK':
          send(SUCCESS, name === 'COMMIT' ? { bookmark: `FB:fake-${connectionId}`, db: streamDatabase } : {});
          state = 'READY';
          return;
        case 'RUN': {
          const extra = (third ?? {}) as Record<string, unknown>;
          const inTransaction = state === 'TX_READY';
          const database = inTransaction ? streamDatabase : stringOrNull(extra.db);
          received.runs.push({ query: String(first), database, mode: stringOrNull(extra.mode) });
          if (!knownDatabase(database)) return databaseNotFound(database!);
          if (options.queryFailure) return fail(options.queryFailure.code, options.queryFailure.message);
          if (!inTransaction) streamDatabase = database ?? defaultDatabase;
          send(
            SUCCESS,
            inTransaction
              ? { fields: [...result.fields], t_first: 0, qid: 0 }
              : { fields: [...result.fields], t_first: 0 },
          );
          state = inTransaction ? 'TX_STREAMING' : 'STREAMING';
          return;
        }
        case 'PULL':
        case 'DISCARD': {
          if (state !== 'STREAMING' && state !== 'TX_STREAMING') {
            return fail(
              'Neo.ClientError.Request.Invalid',
              `Message '${name}' cannot be handled by a session in the ${state} state.`,
            );
          }
          if (name === 'PULL') for (const row of result.rows) send(RECORD, [...row]);
          const done: Record<string, unknown> = { t_last: 0, db: streamDatabase };
          if (state === 'STREAMING') Object.assign(done, { type: 'r', bookmark: `FB:fake-${connectionId}` });
          send(SUCCESS, done);
          state = state === 'STREAMING' ? 'READY' : 'TX_READY';
          void second;
          return;
        }
        default:
          send(FAILURE, {
            code: 'Neo.ClientError.Request.Invalid',
            message: `Message ${name} is not supported by this server.`,
          });
          socket.end();
      }
    };

    socket.on('data', (data: Buffer) => {
      try {
        if (state === 'NEGOTIATION') {
          handshake = Buffer.concat([handshake, data]);
          if (handshake.length < 20) return;
          if (handshake.readUInt32BE(0) !== 0x6060b017) {
            socket.destroy();
            return;
          }
          const minor = chooseVersion(handshake.subarray(4, 20), options.maximumMinorVersion ?? 4);
          if (minor === null) {
            socket.end(Buffer.alloc(4));
            return;
          }
          received.versions.push(`5.${minor}`);
          socket.write(Buffer.from([0, 0, minor, 5]));
          state = 'CONNECTED';
          data = handshake.subarray(20);
          if (data.length === 0) return;
        }
        for (const body of reader.push(data)) {
          const message = new PackStreamReader(body).read() as PackStreamStructure;
          onMessage(message);
        }
      } catch {
        socket.destroy();
      }
    });
  };

  let connectionCounter = 0;
  const server = net.createServer((socket) => {
    received.connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    handle(socket, `bolt-${connectionCounter++}`);
  });
  port = await listenOn(server, '127.0.0.1');

  return {
    host: '127.0.0.1',
    port,
    uri: `bolt://127.0.0.1:${port}`,
    received,
    openConnections: () => sockets.size,
    close: () => closeServerAndSockets(server, sockets),
  };
}
