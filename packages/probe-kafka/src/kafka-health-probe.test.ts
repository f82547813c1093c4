import type { DependencyHealthEntry } from '@corekit/abstractions';
import { startKafkaFakeServer, type KafkaFakeServer } from '@corekit/testing/fakes/kafka/kafka-fake-server';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addKafkaHealth } from './add-kafka-health';
import type { KafkaHealthOptions } from './kafka-health-options';

type KafkaEntry = NonNullable<KafkaHealthOptions['Dependencies']>[number];

const entryPath = 'Engine:Observability:DependencyHealth:Kafka:Dependencies:0';
// With KAFKA_BOOTSTRAP_SERVERS set, the tests marked "real or fake" run against that cluster (PLAINTEXT).
const realServers = process.env.KAFKA_BOOTSTRAP_SERVERS;

async function probe(entry: Omit<KafkaEntry, 'Id'>): Promise<DependencyHealthEntry> {
  const { builder } = createTestEngineBuilder();
  addKafkaHealth(builder, { Dependencies: [{ Id: 'kafka', TimeoutSeconds: 5, ...entry }] });
  const engine = builder.build();
  try {
    await engine.refreshDependencies();
    return engine.dependencies().find((dependency) => dependency.id === 'kafka')!;
  } finally {
    await engine.stop();
  }
}

async function settled(fake: KafkaFakeServer): Promise<number> {
  for (let attempt = 0; attempt < 100 && fake.openConnections > 0; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return fake.openConnections;
}

describe('Kafka probe, real cluster or fake broker', () => {
  let fake: KafkaFakeServer | undefined;
  let servers: string;
  beforeEach(async () => {
    if (realServers) {
      servers = realServers;
    } else {
      fake = await startKafkaFakeServer({ topics: ['orders'], autoCreateTopics: true });
      servers = fake.bootstrapServers;
    }
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('reports Healthy with the cluster metadata', async () => {
    const result = await probe({ BootstrapServers: servers });
    expect(result.status).toBe('Healthy');
    expect(result.data.brokers).toBeGreaterThanOrEqual(1);
    expect(result.data.target).toBe(servers);
    if (fake)
      expect(result.data).toMatchObject({ brokers: 1, clusterId: 'fake-kafka-cluster', controller: 1 });
  });

  it('reports Unhealthy TOPIC_NOT_FOUND for a missing topic and never creates it, even where the broker auto-creates topics', async () => {
    const topic = `corekit-missing-${process.pid}-${Date.now()}`;
    for (let run = 0; run < 2; run++) {
      const result = await probe({ BootstrapServers: servers, Topic: topic });
      expect(result.status).toBe('Unhealthy');
      expect(result.error?.code).toBe('TOPIC_NOT_FOUND');
      expect(result.error?.message).toContain(`"${topic}"`);
      expect(result.error?.message).toContain(`${entryPath}:Topic`);
    }
    if (fake) expect(fake.createdTopics).toEqual([]);
  });
});

describe('Kafka probe against the fake broker', () => {
  let fake: KafkaFakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('reports a present topic as Healthy with its partitions', async () => {
    fake = await startKafkaFakeServer({ topics: ['orders'], clusterId: 'prod-eu' });
    const result = await probe({ BootstrapServers: fake.bootstrapServers, Topic: 'orders' });
    expect(result.status).toBe('Healthy');
    expect(result.data).toMatchObject({ topic: 'orders', partitions: 1, leaders: 1 });
    expect(result.data.target).toBe(`${fake.bootstrapServers}/orders`);
  });

  it("reports a topic whose partitions have no leader as Unhealthy with Kafka's error name", async () => {
    fake = await startKafkaFakeServer({ leaderlessTopics: ['orders'] });
    const result = await probe({ BootstrapServers: fake.bootstrapServers, Topic: 'orders' });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('LEADER_NOT_AVAILABLE');
    expect(result.error?.message).toContain('Kafka answered LEADER_NOT_AVAILABLE');
  });

  it('is read-only: only ApiVersions and Metadata reach the wire, auto-creation is never allowed, nothing is produced', async () => {
    fake = await startKafkaFakeServer({ topics: ['orders'], autoCreateTopics: true });
    await probe({ BootstrapServers: fake.bootstrapServers, Topic: 'orders', ClientId: 'health-checker' });
    await probe({ BootstrapServers: fake.bootstrapServers, Topic: 'not-there' });
    const apis = new Set(fake.requests.map((request) => request.apiName));
    expect([...apis].sort()).toEqual(['ApiVersions', 'Metadata']);
    const metadata = fake.requests.filter((request) => request.apiName === 'Metadata');
    expect(metadata.every((request) => request.allowAutoTopicCreation === false)).toBe(true);
    // With a Topic only that topic is asked for, never the whole cluster's topics.
    expect(new Set(metadata.map((request) => JSON.stringify(request.topics)))).toEqual(
      new Set(['["orders"]', '["not-there"]']),
    );
    expect(fake.requests.filter((request) => request.clientId === 'health-checker').length).toBeGreaterThan(
      0,
    );
    expect(fake.createdTopics).toEqual([]);
  });

  it('opens a dedicated connection per run and closes it', async () => {
    fake = await startKafkaFakeServer();
    await probe({ BootstrapServers: fake.bootstrapServers });
    await probe({ BootstrapServers: fake.bootstrapServers });
    expect(fake.connectionCount).toBe(2);
    expect(await settled(fake)).toBe(0);
  });

  it('authenticates with SASL PLAIN', async () => {
    fake = await startKafkaFakeServer({ sasl: { users: { probe: 'kafka-secret-1' } } });
    const result = await probe({
      BootstrapServers: fake.bootstrapServers,
      SecurityProtocol: 'sasl_plaintext',
      Username: 'probe',
      Password: 'kafka-secret-1',
    });
    expect(result.status).toBe('Healthy');
    expect(fake.requests.find((request) => request.apiName === 'SaslHandshake')?.mechanism).toBe('PLAIN');
    expect(fake.requests.find((request) => request.apiName === 'SaslAuthenticate')?.username).toBe('probe');
  });

  it('reports refused SASL credentials as Unhealthy AUTHENTICATION_FAILED with the broker reason and the keys to check', async () => {
    fake = await startKafkaFakeServer({ sasl: { users: { probe: 'kafka-secret-1' } } });
    const result = await probe({
      BootstrapServers: fake.bootstrapServers,
      SecurityProtocol: 'SASL_PLAINTEXT',
      Username: 'probe',
      Password: 'not-the-password',
    });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(result.error?.message).toContain('Authentication failed: Invalid username or password');
    expect(result.error?.message).toContain('user "probe"');
    expect(result.error?.message).toContain(`${entryPath}:Password`);
    expect(JSON.stringify(result)).not.toContain('not-the-password');
    expect(fake.requests.some((request) => request.apiName === 'Metadata')).toBe(false);
    expect(await settled(fake)).toBe(0);
  });

  it('reports a SASL mechanism the listener does not enable as Unhealthy AUTHENTICATION_FAILED naming SaslMechanism', async () => {
    fake = await startKafkaFakeServer({ sasl: { users: { probe: 'kafka-secret-1' } } });
    const result = await probe({
      BootstrapServers: fake.bootstrapServers,
      SecurityProtocol: 'SASL_PLAINTEXT',
      SaslMechanism: 'scram-sha-512',
      Username: 'probe',
      Password: 'kafka-secret-1',
    });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(result.error?.message).toContain(`${entryPath}:SaslMechanism`);
    expect(fake.requests.find((request) => request.apiName === 'SaslHandshake')?.mechanism).toBe(
      'SCRAM-SHA-512',
    );
  });

  it('reports a PLAINTEXT client on a SASL listener as Unhealthy', async () => {
    fake = await startKafkaFakeServer({ sasl: { users: { probe: 'kafka-secret-1' } } });
    const result = await probe({ BootstrapServers: fake.bootstrapServers });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('CONNECTION_CLOSED');
    expect(result.error?.message).toContain(`${entryPath}:SecurityProtocol`);
  });
});
