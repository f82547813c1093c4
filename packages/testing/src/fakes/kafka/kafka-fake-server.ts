/**
 * A fake single-node Kafka broker on 127.0.0.1, written from the Kafka protocol guide
 * (https://kafka.apache.org/protocol). Every request is a size-prefixed frame with request header v1
 * (api_key, api_version, correlation_id, client_id); every response is size + correlation_id + body.
 *
 * It answers exactly these requests:
 * - ApiVersions v0-v2: error 0 and the versions below; a higher version gets error 35 UNSUPPORTED_VERSION
 *   in the v0 layout, as brokers answer, so the client retries with a version the fake knows.
 * - Metadata v0-v6: this broker as the only node and controller, the cluster id, and the requested topics
 *   (null, or empty in v0, means all); a `leaderlessTopics` topic has its partition answered with error 5
 *   LEADER_NOT_AVAILABLE and leader -1. A topic that does not exist gets error 3 UNKNOWN_TOPIC_OR_PARTITION,
 *   unless `autoCreateTopics` is on and the request allows auto-creation (v0-v3 always do, v4+ through
 *   allow_auto_topic_creation): then the topic is created and answered with error 5 LEADER_NOT_AVAILABLE,
 *   like a broker with auto.create.topics.enable=true.
 * - SaslHandshake v0-v1: on a SASL listener (`sasl` option) PLAIN is enabled, any other mechanism gets error
 *   33 UNSUPPORTED_SASL_MECHANISM and the connection is closed; on a plaintext listener, error 34
 *   ILLEGAL_SASL_STATE.
 * - SaslAuthenticate v0-v1 (PLAIN token `authzid NUL username NUL password`): success, or error 58
 *   SASL_AUTHENTICATION_FAILED with "Authentication failed: Invalid username or password" followed by closing
 *   the connection, as the broker's PLAIN callback handler does.
 * On a SASL listener any request other than ApiVersions and the SASL pair before authentication closes the
 * connection. With `acceptProduce`, Produce v0-v3 appends to `produced` (see kafka-produce.ts). Any other
 * request (Produce without the option, CreateTopics, Fetch...) is recorded and closes the connection: the
 * fake never accepts a write it was not told to, and tests assert that none reached the wire.
 */
import net from 'node:net';
import { KafkaReader, KafkaWriter, kafkaApiNames, kafkaErrorCodes } from './kafka-wire';
import { encodeMetadataResponse, type MetadataTopic } from './kafka-metadata-response';
import { answerProduce, type KafkaProducedRecord } from './kafka-produce';
import { closeServerAndSockets, listenOn } from '../tcp-listener';

const apiKeys = {
  produce: 0,
  metadata: 3,
  saslHandshake: 17,
  apiVersions: 18,
  saslAuthenticate: 36,
} as const;

/** The API versions the fake advertises: only what it implements. */
const supportedVersions: ReadonlyArray<readonly [apiKey: number, min: number, max: number]> = [
  [apiKeys.metadata, 0, 6],
  [apiKeys.saslHandshake, 0, 1],
  [apiKeys.apiVersions, 0, 2],
  [apiKeys.saslAuthenticate, 0, 1],
];

export interface KafkaFakeServerOptions {
  /** Topics that exist on the broker, each with one partition led by this broker. Default none. */
  topics?: readonly string[];
  /**
   * Topics that exist but whose partition has no leader (leader -1, partition error 5 LEADER_NOT_AVAILABLE),
   * as during a leader election. Default none.
   */
  leaderlessTopics?: readonly string[];
  /** The broker's auto.create.topics.enable. Default false. */
  autoCreateTopics?: boolean;
  /** Makes the listener SASL_PLAINTEXT with the PLAIN mechanism and these username/password pairs. */
  sasl?: { users: Readonly<Record<string, string>> };
  /** Default 'fake-kafka-cluster'. */
  clusterId?: string;
  /** Default 1. */
  nodeId?: number;
  /**
   * Accept Produce v0-v3 (uncompressed MessageSets and record batches) on existing topics, partition 0, and keep every message in
   * `produced`. Default false: a Produce request is recorded and closes the connection.
   */
  acceptProduce?: boolean;
}

/** What reached the wire, one record per request (passwords are never recorded). */
export interface KafkaRequestRecord {
  apiKey: number;
  apiName: string;
  apiVersion: number;
  clientId: string | null;
  /** Sequence number of the TCP connection the request came on, from 1. */
  connection: number;
  /** Metadata: the requested topics, null for all. */
  topics?: string[] | null;
  /** Metadata v4+: the request's allow_auto_topic_creation; true for v0-v3, which always allow it. */
  allowAutoTopicCreation?: boolean;
  /** SaslHandshake: the requested mechanism. */
  mechanism?: string;
  /** SaslAuthenticate: the username of the PLAIN token. */
  username?: string;
  /** Produce (with `acceptProduce`): the topics of the request. */
  produceTopics?: string[];
}

export interface KafkaFakeServer {
  readonly host: string;
  readonly port: number;
  /** `host:port`, ready for a bootstrap server list. */
  readonly bootstrapServers: string;
  readonly requests: readonly KafkaRequestRecord[];
  /** Topics created through Metadata auto-creation. */
  readonly createdTopics: readonly string[];
  /** Messages accepted by Produce (with `acceptProduce`), in append order. */
  readonly produced: readonly KafkaProducedRecord[];
  /** Number of TCP connections accepted so far. */
  readonly connectionCount: number;
  /** Number of TCP connections still open. */
  readonly openConnections: number;
  /** Destroys every open socket and stops listening. */
  close(): Promise<void>;
}

type SaslState = 'handshake' | 'authenticate' | 'done';

interface ConnectionState {
  readonly id: number;
  sasl: SaslState;
}

interface RequestHeader {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  clientId: string | null;
}

/** Starts the fake broker on 127.0.0.1 and an ephemeral port. */
export async function startKafkaFakeServer(options: KafkaFakeServerOptions = {}): Promise<KafkaFakeServer> {
  const host = '127.0.0.1';
  const nodeId = options.nodeId ?? 1;
  const clusterId = options.clusterId ?? 'fake-kafka-cluster';
  const leaderless = new Set(options.leaderlessTopics ?? []);
  const topics = new Set([...(options.topics ?? []), ...leaderless]);
  const requests: KafkaRequestRecord[] = [];
  const createdTopics: string[] = [];
  const produced: KafkaProducedRecord[] = [];
  const versions: ReadonlyArray<readonly [number, number, number]> = options.acceptProduce
    ? [[apiKeys.produce, 0, 3], ...supportedVersions]
    : supportedVersions;
  const sockets = new Set<net.Socket>();
  let connectionCount = 0;
  let port = 0;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const state: ConnectionState = { id: ++connectionCount, sasl: options.sasl ? 'handshake' : 'done' };
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      if (socket.writableEnded) return;
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const frame = pending.subarray(4, 4 + pending.readInt32BE(0));
        pending = pending.subarray(4 + frame.length);
        if (!handleFrame(socket, state, frame)) {
          socket.end();
          return;
        }
      }
    });
  });

  /** Answers one request; false means close the connection after what was written. */
  function handleFrame(socket: net.Socket, state: ConnectionState, frame: Buffer): boolean {
    const reader = new KafkaReader(frame);
    const header: RequestHeader = {
      apiKey: reader.int16(),
      apiVersion: reader.int16(),
      correlationId: reader.int32(),
      clientId: reader.nullableString(),
    };
    const record: KafkaRequestRecord = {
      apiKey: header.apiKey,
      apiName: kafkaApiNames[header.apiKey] ?? `ApiKey${header.apiKey}`,
      apiVersion: header.apiVersion,
      clientId: header.clientId,
      connection: state.id,
    };
    requests.push(record);
    const reply = (body: KafkaWriter) => {
      const payload = body.toBuffer();
      const frameHeader = Buffer.alloc(8);
      frameHeader.writeInt32BE(payload.length + 4, 0);
      frameHeader.writeInt32BE(header.correlationId, 4);
      socket.write(Buffer.concat([frameHeader, payload]));
    };

    if (header.apiKey === apiKeys.apiVersions) {
      answerApiVersions(header, reply);
      return true;
    }
    const supported = versions.find(([apiKey]) => apiKey === header.apiKey);
    if (!supported || header.apiVersion < supported[1] || header.apiVersion > supported[2]) return false;
    if (header.apiKey === apiKeys.saslHandshake) return answerSaslHandshake(state, reader, record, reply);
    if (header.apiKey === apiKeys.saslAuthenticate)
      return answerSaslAuthenticate(state, header, reader, record, reply);
    if (state.sasl !== 'done') return false;
    if (header.apiKey === apiKeys.metadata) {
      answerMetadata(header, reader, record, reply);
      return true;
    }
    if (header.apiKey === apiKeys.produce) {
      const answer = answerProduce(
        header.apiVersion,
        reader,
        (topic) => topics.has(topic) && !leaderless.has(topic),
        produced,
      );
      record.produceTopics = answer.topics;
      if (answer.body) reply(answer.body);
      return true;
    }
    return false;
  }

  function answerApiVersions(header: RequestHeader, reply: (body: KafkaWriter) => void): void {
    const body = new KafkaWriter();
    if (header.apiVersion > 2) {
      // Brokers answer an unknown ApiVersions version in the v0 layout so any client can read it.
      body.int16(kafkaErrorCodes.unsupportedVersion);
      body.array(versions, (writer, [apiKey, min, max]) => writer.int16(apiKey).int16(min).int16(max));
      reply(body);
      return;
    }
    body.int16(kafkaErrorCodes.none);
    body.array(versions, (writer, [apiKey, min, max]) => writer.int16(apiKey).int16(min).int16(max));
    if (header.apiVersion >= 1) body.int32(0);
    reply(body);
  }

  function answerSaslHandshake(
    state: ConnectionState,
    reader: KafkaReader,
    record: KafkaRequestRecord,
    reply: (body: KafkaWriter) => void,
  ): boolean {
    const mechanism = reader.string();
    record.mechanism = mechanism;
    if (!options.sasl || state.sasl !== 'handshake') {
      reply(new KafkaWriter().int16(kafkaErrorCodes.illegalSaslState).array([], () => undefined));
      return Boolean(!options.sasl);
    }
    const enabled = ['PLAIN'];
    if (!enabled.includes(mechanism)) {
      reply(
        new KafkaWriter()
          .int16(kafkaErrorCodes.unsupportedSaslMechanism)
          .array(enabled, (w, m) => w.string(m)),
      );
      return false;
    }
    state.sasl = 'authenticate';
    reply(new KafkaWriter().int16(kafkaErrorCodes.none).array(enabled, (w, m) => w.string(m)));
    return true;
  }

  function answerSaslAuthenticate(
    state: ConnectionState,
    header: RequestHeader,
    reader: KafkaReader,
    record: KafkaRequestRecord,
    reply: (body: KafkaWriter) => void,
  ): boolean {
    if (!options.sasl || state.sasl !== 'authenticate') {
      const body = new KafkaWriter().int16(kafkaErrorCodes.illegalSaslState);
      body.nullableString('Unexpected SaslAuthenticate request').bytes(Buffer.alloc(0));
      if (header.apiVersion >= 1) body.int64(0n);
      reply(body);
      return false;
    }
    const [, username = '', password = ''] = reader.bytes().toString('utf8').split('\u0000');
    record.username = username;
    const known = Object.prototype.hasOwnProperty.call(options.sasl.users, username);
    const accepted = known && options.sasl.users[username] === password;
    const body = new KafkaWriter();
    if (accepted) {
      state.sasl = 'done';
      body.int16(kafkaErrorCodes.none).nullableString(null).bytes(Buffer.alloc(0));
    } else {
      body.int16(kafkaErrorCodes.saslAuthenticationFailed);
      body.nullableString('Authentication failed: Invalid username or password').bytes(Buffer.alloc(0));
    }
    if (header.apiVersion >= 1) body.int64(0n);
    reply(body);
    return accepted;
  }

  function answerMetadata(
    header: RequestHeader,
    reader: KafkaReader,
    record: KafkaRequestRecord,
    reply: (body: KafkaWriter) => void,
  ): void {
    const version = header.apiVersion;
    let requested = reader.nullableArray((item) => item.string());
    if (version === 0 && requested && requested.length === 0) requested = null;
    const allowAutoCreation = version >= 4 ? reader.boolean() : true;
    record.topics = requested;
    record.allowAutoTopicCreation = allowAutoCreation;

    const answered: MetadataTopic[] = [];
    for (const name of requested ?? [...topics].sort()) {
      let errorCode: number = kafkaErrorCodes.unknownTopicOrPartition;
      if (topics.has(name)) {
        errorCode = kafkaErrorCodes.none;
      } else if (options.autoCreateTopics && allowAutoCreation) {
        topics.add(name);
        createdTopics.push(name);
        errorCode = kafkaErrorCodes.leaderNotAvailable;
      }
      const exists = errorCode === kafkaErrorCodes.none;
      answered.push({
        name,
        errorCode,
        partitions: exists ? 1 : 0,
        leaderless: exists && leaderless.has(name),
      });
    }
    reply(encodeMetadataResponse(version, { nodeId, host, port, clusterId }, answered));
  }

  port = await listenOn(server, host);

  return {
    host,
    port,
    bootstrapServers: `${host}:${port}`,
    requests,
    createdTopics,
    produced,
    get connectionCount() {
      return connectionCount;
    },
    get openConnections() {
      return sockets.size;
    },
    close: () => closeServerAndSockets(server, sockets),
  };
}
