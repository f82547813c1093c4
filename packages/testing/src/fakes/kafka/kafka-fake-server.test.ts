import net from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { startKafkaFakeServer, type KafkaFakeServer } from './kafka-fake-server';
import { KafkaReader, KafkaWriter } from './kafka-wire';

function client(fake: KafkaFakeServer, sasl?: { username: string; password: string }) {
  return new Kafka({
    clientId: 'fake-test',
    brokers: [fake.bootstrapServers],
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    ...(sasl ? { sasl: { mechanism: 'plain' as const, ...sasl } } : {}),
  });
}

/** Sends one raw request (header v1) and resolves with the response body. */
async function rawRequest(
  fake: KafkaFakeServer,
  apiKey: number,
  apiVersion: number,
  body: Buffer,
): Promise<Buffer> {
  const header = new KafkaWriter().int16(apiKey).int16(apiVersion).int32(7).nullableString('raw').toBuffer();
  const socket = net.connect(fake.port, fake.host);
  try {
    const size = Buffer.alloc(4);
    size.writeInt32BE(header.length + body.length);
    socket.write(Buffer.concat([size, header, body]));
    let received = Buffer.alloc(0);
    for await (const chunk of socket) {
      received = Buffer.concat([received, chunk as Buffer]);
      if (received.length >= 4 && received.length >= 4 + received.readInt32BE(0)) break;
    }
    expect(received.readInt32BE(4)).toBe(7);
    return received.subarray(8, 4 + received.readInt32BE(0));
  } finally {
    socket.destroy();
  }
}

describe('fake Kafka broker with the kafkajs driver', () => {
  let fake: KafkaFakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('answers ApiVersions and Metadata so the admin client describes the cluster and its topics', async () => {
    fake = await startKafkaFakeServer({ topics: ['orders', 'payments'], clusterId: 'cluster-x' });
    const admin = client(fake).admin();
    await admin.connect();
    try {
      const cluster = await admin.describeCluster();
      expect(cluster).toEqual({
        brokers: [{ nodeId: 1, host: '127.0.0.1', port: fake.port }],
        controller: 1,
        clusterId: 'cluster-x',
      });
      const metadata = await admin.fetchTopicMetadata({ topics: ['orders'] });
      expect(metadata.topics.map((topic) => topic.name)).toEqual(['orders']);
      expect(await admin.listTopics()).toEqual(['orders', 'payments']);
    } finally {
      await admin.disconnect();
    }
    const names = fake.requests.map((request) => request.apiName);
    expect(names[0]).toBe('ApiVersions');
    expect(names.filter((name) => name !== 'ApiVersions' && name !== 'Metadata')).toEqual([]);
    const metadataRequests = fake.requests.filter((request) => request.apiName === 'Metadata');
    expect(
      metadataRequests.every(
        (request) => request.apiVersion === 6 && request.allowAutoTopicCreation === false,
      ),
    ).toBe(true);
    expect(metadataRequests.map((request) => request.topics)).toContainEqual(['orders']);
    expect(fake.requests[0].clientId).toBe('fake-test');
  });

  it('answers UNKNOWN_TOPIC_OR_PARTITION for a topic that does not exist', async () => {
    fake = await startKafkaFakeServer({ topics: ['orders'] });
    const admin = client(fake).admin();
    await admin.connect();
    try {
      await expect(admin.fetchTopicMetadata({ topics: ['missing'] })).rejects.toMatchObject({
        type: 'UNKNOWN_TOPIC_OR_PARTITION',
      });
    } finally {
      await admin.disconnect();
    }
    expect(fake.createdTopics).toEqual([]);
  });

  it('authenticates SASL PLAIN through SaslHandshake and SaslAuthenticate', async () => {
    fake = await startKafkaFakeServer({ sasl: { users: { probe: 'right-password' } } });
    const admin = client(fake, { username: 'probe', password: 'right-password' }).admin();
    await admin.connect();
    try {
      await admin.describeCluster();
    } finally {
      await admin.disconnect();
    }
    const handshake = fake.requests.find((request) => request.apiName === 'SaslHandshake');
    const authenticate = fake.requests.find((request) => request.apiName === 'SaslAuthenticate');
    expect(handshake).toMatchObject({ apiVersion: 1, mechanism: 'PLAIN' });
    expect(authenticate).toMatchObject({ apiVersion: 1, username: 'probe' });
    expect(JSON.stringify(fake.requests)).not.toContain('right-password');
  });

  it('refuses wrong SASL PLAIN credentials with error 58 and the broker message', async () => {
    fake = await startKafkaFakeServer({ sasl: { users: { probe: 'right-password' } } });
    const admin = client(fake, { username: 'probe', password: 'wrong-password' }).admin();
    try {
      await expect(admin.connect()).rejects.toMatchObject({
        name: 'KafkaJSSASLAuthenticationError',
        message: 'SASL PLAIN authentication failed: Authentication failed: Invalid username or password',
      });
    } finally {
      await admin.disconnect();
    }
    expect(fake.requests.some((request) => request.apiName === 'Metadata')).toBe(false);
  });

  it('answers a too-new ApiVersions in the v0 layout with UNSUPPORTED_VERSION', async () => {
    fake = await startKafkaFakeServer();
    const body = new KafkaReader(await rawRequest(fake, 18, 3, Buffer.alloc(0)));
    expect(body.int16()).toBe(35);
    const versions = body.nullableArray((reader) => [reader.int16(), reader.int16(), reader.int16()]);
    expect(versions).toContainEqual([3, 0, 6]);
  });

  it('auto-creates a missing topic only when the broker allows it and the request asks for it', async () => {
    fake = await startKafkaFakeServer({ autoCreateTopics: true });
    // Metadata v1 always allows auto-creation.
    const request = new KafkaWriter().array(['fresh'], (writer, topic) => writer.string(topic)).toBuffer();
    const body = new KafkaReader(await rawRequest(fake, 3, 1, request));
    body.nullableArray((reader) => [
      reader.int32(),
      reader.string(),
      reader.int32(),
      reader.nullableString(),
    ]);
    expect(body.int32()).toBe(1); // controller
    const topics = body.nullableArray((reader) => ({ errorCode: reader.int16(), name: reader.string() }));
    expect(topics).toEqual([{ errorCode: 5, name: 'fresh' }]);
    expect(fake.createdTopics).toEqual(['fresh']);
  });

  it('destroys every open socket on close', async () => {
    fake = await startKafkaFakeServer();
    const socket = net.connect(fake.port, fake.host);
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await fake.close();
    await closed;
    expect(fake.openConnections).toBe(0);
    fake = undefined;
  });
});
