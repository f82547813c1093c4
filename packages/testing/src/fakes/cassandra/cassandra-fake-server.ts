/**
 * A fake single Cassandra node (release 3.11) on a loopback address speaking native protocol v4, written from the
 * protocol specification (native_protocol_v4.spec in the Apache Cassandra repository).
 *
 * Frames it answers:
 * - any frame of another protocol version: ERROR 0x000A "Invalid or unsupported protocol version (<n>); the
 *   lowest supported version is 4 and the greatest is 4" in a v4 frame, then the connection is closed, as a
 *   node does, so drivers retry with v4.
 * - OPTIONS: SUPPORTED (CQL_VERSION 3.4.4, no COMPRESSION, PROTOCOL_VERSIONS 4/v4).
 * - STARTUP: READY, or AUTHENTICATE "org.apache.cassandra.auth.PasswordAuthenticator" when `users` is set;
 *   a requested COMPRESSION gets a protocol error.
 * - AUTH_RESPONSE (SASL PLAIN token `NUL username NUL password`): AUTH_SUCCESS, or ERROR 0x0100 "Provided
 *   username <name> and/or password are incorrect", as PasswordAuthenticator answers.
 * - REGISTER: READY (no event is ever pushed).
 * - QUERY `USE <keyspace>`: RESULT Set_keyspace, or ERROR 0x2200 "Keyspace '<name>' does not exist".
 * - QUERY `SELECT <columns | *> FROM [keyspace.]table [WHERE col = 'value' [AND ...]] [LIMIT n]`: RESULT Rows
 *   from system.local, system.peers, system_schema.keyspaces (plus the other system_schema tables, empty)
 *   and the tables in `options.tables`; unknown keyspace, table or column get ERROR 0x2200 with Cassandra's
 *   message ("unconfigured table <name>"...), an unparseable statement ERROR 0x2000.
 * - any other QUERY statement (writes, DDL): ERROR 0x2200; PREPARE, EXECUTE, BATCH: ERROR 0x000A. The fake
 *   never applies a write, and tests read `frames` to assert none was attempted.
 * A request before STARTUP (other than OPTIONS) or before authentication completes gets ERROR 0x000A.
 */
import net from 'node:net';
import {
  CqlReader,
  CqlWriter,
  encodeFrame,
  errorCodes,
  opcodeNames,
  opcodes,
  serializeValue,
  takeFrame,
  writeType,
  type Frame,
} from './cassandra-wire';
import { buildTables, evaluateSelect, type CassandraFakePeer, type CqlTable } from './cassandra-fake-tables';
import { closeServerAndSockets, listenOn } from '../tcp-listener';

const protocolVersion = 4;
const authenticatorClass = 'org.apache.cassandra.auth.PasswordAuthenticator';

export interface CassandraFakeServerOptions {
  /** Loopback address to listen on, e.g. '127.0.0.2' to stand for a second node. Default '127.0.0.1'. */
  host?: string;
  /** Port to listen on; a second node must share the first one's port: drivers reach peers on their configured port. Default: ephemeral. */
  port?: number;
  /** Turns on PasswordAuthenticator with these username/password pairs. Default none: no authentication. */
  users?: Readonly<Record<string, string>>;
  /** Default 'Fake Cluster'. */
  clusterName?: string;
  /** Default 'datacenter1'. */
  dataCenter?: string;
  /** Default '3.11.16'. */
  releaseVersion?: string;
  /** Other nodes listed in system.peers. Default none. */
  peers?: readonly CassandraFakePeer[];
  /** Extra tables keyed `keyspace.table`; their keyspaces exist. */
  tables?: Readonly<Record<string, CqlTable>>;
  /** Extra empty keyspaces. */
  keyspaces?: readonly string[];
}

/** One request frame that reached the wire. */
export interface CassandraFrameRecord {
  /** Sequence number of the TCP connection, from 1. */
  connection: number;
  /** Protocol version of the request frame. */
  version: number;
  opcode: string;
  /** STARTUP: the options map. */
  startup?: Record<string, string>;
  /** AUTH_RESPONSE: the username of the PLAIN token (never the password). */
  username?: string;
  /** REGISTER: the event types. */
  events?: string[];
  /** QUERY: the statement and the connection's keyspace when it ran. */
  query?: string;
  keyspace?: string | null;
}

export interface CassandraFakeServer {
  readonly host: string;
  readonly port: number;
  /** `127.0.0.1:<port>`, ready for a contact point list. */
  readonly contactPoint: string;
  readonly dataCenter: string;
  readonly frames: readonly CassandraFrameRecord[];
  readonly connectionCount: number;
  readonly openConnections: number;
  /** Destroys every open socket and stops listening. */
  close(): Promise<void>;
}

interface ConnectionState {
  readonly id: number;
  phase: 'new' | 'authenticating' | 'ready';
  keyspace: string | null;
}

/** Starts the fake node on 127.0.0.1 (or `options.host`) and an ephemeral port (or `options.port`). */
export async function startCassandraFakeServer(
  options: CassandraFakeServerOptions = {},
): Promise<CassandraFakeServer> {
  const host = options.host ?? '127.0.0.1';
  const dataCenter = options.dataCenter ?? 'datacenter1';
  const { tables, keyspaces } = buildTables({
    clusterName: options.clusterName ?? 'Fake Cluster',
    dataCenter,
    rack: 'rack1',
    releaseVersion: options.releaseVersion ?? '3.11.16',
    address: host,
    peers: options.peers ?? [],
    tables: options.tables ?? {},
    keyspaces: options.keyspaces ?? [],
  });
  const frames: CassandraFrameRecord[] = [];
  const sockets = new Set<net.Socket>();
  let connectionCount = 0;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const state: ConnectionState = { id: ++connectionCount, phase: 'new', keyspace: null };
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      if (socket.writableEnded) return;
      pending = Buffer.concat([pending, chunk]);
      for (let next = takeFrame(pending); next; next = takeFrame(pending)) {
        pending = next.rest;
        const keepOpen = handleFrame(socket, state, next.frame);
        if (!keepOpen) {
          socket.end();
          return;
        }
      }
    });
  });

  /** Answers one frame; false closes the connection after the answer. */
  function handleFrame(socket: net.Socket, state: ConnectionState, frame: Frame): boolean {
    const version = frame.version & 0x7f;
    const record: CassandraFrameRecord = {
      connection: state.id,
      version,
      opcode: opcodeNames[frame.opcode] ?? `0x${frame.opcode.toString(16)}`,
    };
    frames.push(record);
    const send = (opcode: number, body: CqlWriter = new CqlWriter()) =>
      socket.write(encodeFrame(protocolVersion, frame.stream, opcode, body.toBuffer()));
    const fail = (code: number, message: string) =>
      send(opcodes.error, new CqlWriter().int(code).string(message));

    if (version !== protocolVersion) {
      fail(
        errorCodes.protocolError,
        `Invalid or unsupported protocol version (${version}); the lowest supported version is 4 and the greatest is 4`,
      );
      return false;
    }
    const reader = new CqlReader(frame.body);
    if (frame.opcode === opcodes.options) {
      send(
        opcodes.supported,
        new CqlWriter().stringMultimap({
          CQL_VERSION: ['3.4.4'],
          COMPRESSION: [],
          PROTOCOL_VERSIONS: ['4/v4'],
        }),
      );
      return true;
    }
    if (frame.opcode === opcodes.startup) {
      const startup = reader.stringMap();
      record.startup = startup;
      if (startup.COMPRESSION) {
        fail(errorCodes.protocolError, `Unknown compression algorithm: ${startup.COMPRESSION}`);
        return true;
      }
      if (options.users) {
        state.phase = 'authenticating';
        send(opcodes.authenticate, new CqlWriter().string(authenticatorClass));
      } else {
        state.phase = 'ready';
        send(opcodes.ready);
      }
      return true;
    }
    if (frame.opcode === opcodes.authResponse && state.phase === 'authenticating') {
      const token = reader.bytes() ?? Buffer.alloc(0);
      const [, username = '', password = ''] = token.toString('utf8').split('\u0000');
      record.username = username;
      const users = options.users ?? {};
      if (Object.prototype.hasOwnProperty.call(users, username) && users[username] === password) {
        state.phase = 'ready';
        send(opcodes.authSuccess, new CqlWriter().bytes(null));
      } else {
        fail(errorCodes.badCredentials, `Provided username ${username} and/or password are incorrect`);
      }
      return true;
    }
    if (state.phase !== 'ready') {
      const expecting = state.phase === 'new' ? 'STARTUP or OPTIONS' : 'AUTH_RESPONSE';
      fail(errorCodes.protocolError, `Unexpected message ${record.opcode}, expecting ${expecting}`);
      return true;
    }
    if (frame.opcode === opcodes.register) {
      record.events = reader.stringList();
      send(opcodes.ready);
      return true;
    }
    if (frame.opcode === opcodes.query) {
      record.query = reader.longString();
      record.keyspace = state.keyspace;
      answerQuery(state, record.query, send, fail);
      return true;
    }
    fail(errorCodes.protocolError, `The fake Cassandra node does not implement ${record.opcode}`);
    return true;
  }

  function answerQuery(
    state: ConnectionState,
    query: string,
    send: (opcode: number, body: CqlWriter) => void,
    fail: (code: number, message: string) => void,
  ): void {
    const use = /^\s*USE\s+("[^"]+"|[A-Za-z0-9_]+)\s*;?\s*$/i.exec(query);
    if (use) {
      const keyspace = use[1].startsWith('"') ? use[1].slice(1, -1) : use[1].toLowerCase();
      if (!keyspaces.has(keyspace)) {
        fail(errorCodes.invalid, `Keyspace '${keyspace}' does not exist`);
        return;
      }
      state.keyspace = keyspace;
      send(opcodes.result, new CqlWriter().int(0x0003).string(keyspace));
      return;
    }
    if (!/^\s*SELECT\s/i.test(query)) {
      const known = /^\s*(INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|TRUNCATE|BEGIN|GRANT|REVOKE)\b/i.test(query);
      if (known) fail(errorCodes.invalid, 'The fake Cassandra node answers only SELECT and USE statements');
      else
        fail(
          errorCodes.syntaxError,
          `line 1:0 no viable alternative at input '${query.trim().split(/\s+/)[0]}'`,
        );
      return;
    }
    const outcome = evaluateSelect(query, state.keyspace, tables, keyspaces);
    if (outcome.kind === 'error') {
      fail(outcome.code === 'syntax' ? errorCodes.syntaxError : errorCodes.invalid, outcome.message);
      return;
    }
    const body = new CqlWriter().int(0x0002);
    body.int(0x0001).int(outcome.columns.length).string(outcome.keyspace).string(outcome.table); // global table spec
    for (const [name, type] of outcome.columns) {
      body.string(name);
      writeType(body, type);
    }
    body.int(outcome.rows.length);
    for (const row of outcome.rows) {
      for (const [name, type] of outcome.columns) body.bytes(serializeValue(type, row[name]));
    }
    send(opcodes.result, body);
  }

  const port = await listenOn(server, host, options.port ?? 0);

  return {
    host,
    port,
    contactPoint: `${host}:${port}`,
    dataCenter,
    frames,
    get connectionCount() {
      return connectionCount;
    },
    get openConnections() {
      return sockets.size;
    },
    close: () => closeServerAndSockets(server, sockets),
  };
}
