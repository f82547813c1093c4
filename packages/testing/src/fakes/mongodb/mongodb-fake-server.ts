/**
 * A fake standalone MongoDB server on 127.0.0.1, written from the MongoDB wire protocol reference and the
 * authentication and handshake specifications (https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/,
 * https://github.com/mongodb/specifications: mongodb-handshake, auth). BSON through the `bson` package.
 *
 * Messages: OP_QUERY on `<db>.$cmd` (answered with OP_REPLY; drivers send the first handshake this way) and
 * OP_MSG (answered with OP_MSG, kind-0 section; not answered when the request sets moreToCome, as drivers do
 * for endSessions on close). Other opcodes close the connection.
 *
 * Commands it answers:
 * - `hello` / `isMaster` / `ismaster`: a writable standalone (maxWireVersion 21), `helloOk`, logical sessions,
 *   no topologyVersion (so drivers poll instead of streaming); `saslSupportedMechs: ['SCRAM-SHA-256']` when
 *   asked for a known user; a `speculativeAuthenticate` reply (the SCRAM server-first message) when the
 *   handshake carries a saslStart for a known user, omitted otherwise, as the server does.
 * - `saslStart` / `saslContinue`: SCRAM-SHA-256 with a real proof check. An unknown user (or a user looked up
 *   in another database than `authDatabase`) or a wrong proof gets `{ ok: 0, errmsg: 'Authentication
 *   failed.', code: 18, codeName: 'AuthenticationFailed' }`; another mechanism gets code 334
 *   MechanismUnavailable. Honours `options.skipEmptyExchange`, otherwise finishes with the empty exchange.
 * - `ping`, `buildInfo`, `endSessions`: `{ ok: 1 }` (buildInfo with the version).
 * - any name in `options.commands`: whatever the handler returns.
 * - anything else: `{ ok: 0, errmsg: "no such command: '<name>'", code: 59, codeName: 'CommandNotFound' }`.
 * With `users` set, commands other than the handshake, auth, ping, buildInfo and endSessions on a connection
 * that has not authenticated get code 13 Unauthorized ("Command <name> requires authentication").
 */
import net from 'node:net';
import { Binary, type Document } from 'bson';
import { decodeMongoRequest, encodeOpMsg, encodeOpReply, type MongoRequest } from './mongodb-wire';
import {
  ScramConversation,
  deriveScramCredential,
  parseClientFirst,
  type ScramCredential,
} from './mongodb-scram';
import { closeServerAndSockets, listenOn } from '../tcp-listener';

export interface MongoDbFakeServerOptions {
  /** SCRAM-SHA-256 users (username to password) defined in `authDatabase`. Default none: no auth needed. */
  users?: Readonly<Record<string, string>>;
  /** The database the users are defined in. Default 'admin'. */
  authDatabase?: string;
  /** Extra or replaced commands, keyed by command name (the first key of the command document). */
  commands?: Readonly<Record<string, (command: Document, database: string) => Document>>;
  /** Default '7.0.14'. */
  version?: string;
  /**
   * Answer a handshake's speculativeAuthenticate (MongoDB 4.4+). Default true; false behaves like an older
   * server, so the driver runs the explicit saslStart/saslContinue conversation.
   */
  speculativeAuthentication?: boolean;
}

/** One command that reached the wire. */
export interface MongoCommandRecord {
  /** Sequence number of the TCP connection, from 1. */
  connection: number;
  opCode: 'OP_QUERY' | 'OP_MSG';
  database: string;
  commandName: string;
  command: Document;
  /** saslStart, and a handshake's speculative saslStart: the username of the SCRAM client-first message. */
  saslUsername?: string;
}

export interface MongoDbFakeServer {
  readonly host: string;
  readonly port: number;
  /** `mongodb://127.0.0.1:<port>`. */
  readonly url: string;
  readonly commands: readonly MongoCommandRecord[];
  readonly connectionCount: number;
  readonly openConnections: number;
  /** Destroys every open socket and stops listening. */
  close(): Promise<void>;
}

interface ConnectionState {
  readonly id: number;
  authenticated: boolean;
  conversation?: {
    id: number;
    scram: ScramConversation;
    skipEmptyExchange: boolean;
    stage: 'proof' | 'final';
  };
}

const authenticationFailed = {
  ok: 0,
  errmsg: 'Authentication failed.',
  code: 18,
  codeName: 'AuthenticationFailed',
};
const openCommands = new Set([
  'hello',
  'ismaster',
  'saslstart',
  'saslcontinue',
  'ping',
  'buildinfo',
  'endsessions',
]);

/** Starts the fake server on 127.0.0.1 and an ephemeral port. */
export async function startMongoDbFakeServer(
  options: MongoDbFakeServerOptions = {},
): Promise<MongoDbFakeServer> {
  const host = '127.0.0.1';
  const version = options.version ?? '7.0.14';
  const authDatabase = options.authDatabase ?? 'admin';
  const credentials = new Map<string, ScramCredential>(
    Object.entries(options.users ?? {}).map(([username, password]) => [
      username,
      deriveScramCredential(password),
    ]),
  );
  const commands: MongoCommandRecord[] = [];
  const sockets = new Set<net.Socket>();
  let connectionCount = 0;
  let nextResponseId = 1;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const state: ConnectionState = { id: ++connectionCount, authenticated: credentials.size === 0 };
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      if (socket.writableEnded) return;
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 16 && pending.length >= pending.readInt32LE(0)) {
        const message = pending.subarray(0, pending.readInt32LE(0));
        pending = pending.subarray(message.length);
        const request = decodeMongoRequest(message);
        if (!request) {
          socket.end();
          return;
        }
        const reply = answer(state, request);
        if (request.noReply) continue;
        const encode = request.opCode === 'OP_QUERY' ? encodeOpReply : encodeOpMsg;
        socket.write(encode(nextResponseId++, request.requestId, reply));
      }
    });
  });

  function answer(state: ConnectionState, request: MongoRequest): Document {
    const commandName = Object.keys(request.command)[0] ?? '';
    const record: MongoCommandRecord = {
      connection: state.id,
      opCode: request.opCode,
      database: request.database,
      commandName,
      command: request.command,
    };
    commands.push(record);
    const name = commandName.toLowerCase();
    if (!state.authenticated && !openCommands.has(name)) {
      return {
        ok: 0,
        errmsg: `Command ${commandName} requires authentication`,
        code: 13,
        codeName: 'Unauthorized',
      };
    }
    const custom = options.commands?.[commandName];
    if (custom) return custom(request.command, request.database);
    switch (name) {
      case 'hello':
      case 'ismaster':
        return hello(state, request.command, commandName, record);
      case 'saslstart':
        return saslStart(state, request.command, request.database, record);
      case 'saslcontinue':
        return saslContinue(state, request.command);
      case 'ping':
      case 'endsessions':
        return { ok: 1 };
      case 'buildinfo':
        return { version, versionArray: version.split('.').map(Number).concat(0).slice(0, 4), ok: 1 };
      default:
        return { ok: 0, errmsg: `no such command: '${commandName}'`, code: 59, codeName: 'CommandNotFound' };
    }
  }

  function hello(
    state: ConnectionState,
    command: Document,
    commandName: string,
    record: MongoCommandRecord,
  ): Document {
    const reply: Document = {
      ...(commandName === 'hello' ? { isWritablePrimary: true } : { ismaster: true }),
      ...(command.helloOk ? { helloOk: true } : {}),
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId: state.id,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
    };
    if (typeof command.saslSupportedMechs === 'string') {
      const [database, ...name] = command.saslSupportedMechs.split('.');
      if (database === authDatabase && credentials.has(name.join('.')))
        reply.saslSupportedMechs = ['SCRAM-SHA-256'];
    }
    const speculative = command.speculativeAuthenticate as Document | undefined;
    if (speculative && speculative.saslStart && options.speculativeAuthentication !== false) {
      const started = saslStart(state, speculative, String(speculative.db ?? ''), record);
      if (started.ok === 1) {
        const { ok: _ok, ...conversation } = started;
        reply.speculativeAuthenticate = conversation;
      }
    }
    reply.ok = 1;
    return reply;
  }

  function saslStart(
    state: ConnectionState,
    command: Document,
    database: string,
    record: MongoCommandRecord,
  ): Document {
    state.conversation = undefined;
    const mechanism = String(command.mechanism ?? '');
    const first = parseClientFirst(payloadOf(command));
    if (first) record.saslUsername = first.username;
    if (mechanism !== 'SCRAM-SHA-256' && mechanism !== 'SCRAM-SHA-1') {
      return {
        ok: 0,
        errmsg: `Received authentication for mechanism ${mechanism} which is not enabled`,
        code: 334,
        codeName: 'MechanismUnavailable',
      };
    }
    const credential = first && database === authDatabase ? credentials.get(first.username) : undefined;
    if (!first || !credential) return authenticationFailed;
    if (mechanism === 'SCRAM-SHA-1') {
      return {
        ok: 0,
        errmsg:
          'Unable to use SCRAM-SHA-1 based authentication for user without any SCRAM-SHA-1 credentials registered',
        code: 334,
        codeName: 'MechanismUnavailable',
      };
    }
    const scram = new ScramConversation(credential, first.clientFirstBare, first.clientNonce);
    const skipEmptyExchange = Boolean((command.options as Document | undefined)?.skipEmptyExchange);
    state.conversation = { id: 1, scram, skipEmptyExchange, stage: 'proof' };
    return { conversationId: 1, done: false, payload: new Binary(Buffer.from(scram.serverFirst)), ok: 1 };
  }

  function saslContinue(state: ConnectionState, command: Document): Document {
    const conversation = state.conversation;
    if (!conversation || Number(command.conversationId) !== conversation.id) {
      return { ok: 0, errmsg: 'No SASL session state found', code: 17, codeName: 'ProtocolError' };
    }
    if (conversation.stage === 'final') {
      state.conversation = undefined;
      state.authenticated = true;
      return { conversationId: conversation.id, done: true, payload: new Binary(Buffer.alloc(0)), ok: 1 };
    }
    const serverFinal = conversation.scram.verifyClientFinal(payloadOf(command));
    if (!serverFinal) {
      state.conversation = undefined;
      return authenticationFailed;
    }
    const done = conversation.skipEmptyExchange;
    if (done) {
      state.conversation = undefined;
      state.authenticated = true;
    } else {
      conversation.stage = 'final';
    }
    return { conversationId: conversation.id, done, payload: new Binary(Buffer.from(serverFinal)), ok: 1 };
  }

  const port = await listenOn(server, host);

  return {
    host,
    port,
    url: `mongodb://${host}:${port}`,
    commands,
    get connectionCount() {
      return connectionCount;
    },
    get openConnections() {
      return sockets.size;
    },
    close: () => closeServerAndSockets(server, sockets),
  };
}

function payloadOf(command: Document): Buffer {
  const payload = command.payload as unknown;
  if (payload instanceof Binary) return Buffer.from(payload.value());
  if (payload instanceof Uint8Array) return Buffer.from(payload);
  return Buffer.alloc(0);
}
