import type { DependencyHealthEntry } from '@corekit/abstractions';
import {
  startCassandraFakeServer,
  type CassandraFakeServer,
} from '@corekit/testing/fakes/cassandra/cassandra-fake-server';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addCassandraHealth } from './add-cassandra-health';
import type { CassandraHealthOptions } from './cassandra-health-options';

type CassandraEntry = NonNullable<CassandraHealthOptions['Dependencies']>[number];

const entryPath = 'Engine:Observability:DependencyHealth:Cassandra:Dependencies:0';
// With CASSANDRA_CONTACT_POINTS set, the tests marked "real cluster or fake" run against that cluster.
const realContactPoints = process.env.CASSANDRA_CONTACT_POINTS;

async function probe(entry: Omit<CassandraEntry, 'Id'>): Promise<DependencyHealthEntry> {
  const { builder } = createTestEngineBuilder();
  addCassandraHealth(builder, { Dependencies: [{ Id: 'cassandra', TimeoutSeconds: 5, ...entry }] });
  const engine = builder.build();
  try {
    await engine.refreshDependencies();
    return engine.dependencies().find((dependency) => dependency.id === 'cassandra')!;
  } finally {
    await engine.stop();
  }
}

async function settled(fake: CassandraFakeServer): Promise<number> {
  for (let attempt = 0; attempt < 100 && fake.openConnections > 0; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return fake.openConnections;
}

describe('Cassandra probe, real cluster or fake', () => {
  let fake: CassandraFakeServer | undefined;
  let contactPoints: string;
  beforeEach(async () => {
    if (realContactPoints) {
      contactPoints = realContactPoints;
    } else {
      fake = await startCassandraFakeServer({ releaseVersion: '3.11.16' });
      contactPoints = fake.contactPoint;
    }
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('runs the default health query and reports Healthy with the release version', async () => {
    const result = await probe({ ContactPoints: contactPoints });
    expect(result.status).toBe('Healthy');
    expect(result.data.rows).toBe(1);
    expect(result.data.releaseVersion).toMatch(/^\d+\.\d+/);
    if (fake) expect(result.data).toMatchObject({ releaseVersion: '3.11.16', node: fake.contactPoint });
  });

  it('uses Keyspace for the session and resolves unqualified tables in it', async () => {
    const result = await probe({
      ContactPoints: contactPoints,
      Keyspace: 'system',
      HealthQuery: 'SELECT cluster_name FROM local',
    });
    expect(result.status).toBe('Healthy');
    expect(result.data.keyspace).toBe('system');
    if (fake) {
      expect(fake.frames.some((frame) => /^USE "?system"?$/i.test(frame.query ?? ''))).toBe(true);
      expect(fake.frames.find((frame) => frame.query === 'SELECT cluster_name FROM local')?.keyspace).toBe(
        'system',
      );
    }
  });

  it('reports a missing keyspace as Unhealthy KEYSPACE_NOT_FOUND naming Keyspace', async () => {
    const result = await probe({ ContactPoints: contactPoints, Keyspace: 'corekit_no_such_keyspace' });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('KEYSPACE_NOT_FOUND');
    expect(result.error?.message).toContain('corekit_no_such_keyspace');
    expect(result.error?.message).toContain(`${entryPath}:Keyspace`);
  });

  it('reports a health query the node rejects as Unhealthy QUERY_FAILED naming HealthQuery', async () => {
    const result = await probe({
      ContactPoints: contactPoints,
      HealthQuery: 'SELECT corekit_no_such_column FROM system.local',
    });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('QUERY_FAILED');
    expect(result.error?.message).toContain('0x2200');
    expect(result.error?.message).toContain(`${entryPath}:HealthQuery`);
  });
});

describe('Cassandra probe against the fake node', () => {
  let fake: CassandraFakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('authenticates with PasswordAuthenticator', async () => {
    fake = await startCassandraFakeServer({ users: { probe: 'cassandra-secret-1' } });
    const result = await probe({
      ContactPoints: fake.contactPoint,
      Username: 'probe',
      Password: 'cassandra-secret-1',
    });
    expect(result.status).toBe('Healthy');
    expect(
      fake.frames.filter((frame) => frame.opcode === 'AUTH_RESPONSE').map((frame) => frame.username),
    ).toEqual(['probe']);
  });

  it('reports refused credentials as Unhealthy AUTHENTICATION_FAILED with the node reason', async () => {
    fake = await startCassandraFakeServer({ users: { probe: 'cassandra-secret-1' } });
    const result = await probe({
      ContactPoints: fake.contactPoint,
      Username: 'probe',
      Password: 'not-the-password',
    });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(result.error?.message).toContain('Provided username probe and/or password are incorrect');
    expect(result.error?.message).toContain(`${entryPath}:Password`);
    expect(JSON.stringify(result)).not.toMatch(/not-the-password|cassandra-secret-1/);
    expect(fake.frames.some((frame) => frame.opcode === 'QUERY')).toBe(false);
    expect(await settled(fake)).toBe(0);
  });

  it('reports a node that requires authentication, without credentials configured, as Unhealthy AUTHENTICATION_FAILED', async () => {
    fake = await startCassandraFakeServer({ users: { probe: 'cassandra-secret-1' } });
    const result = await probe({ ContactPoints: fake.contactPoint });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(result.error?.message).toContain(`${entryPath}:Username`);
  });

  it('opens one connection per run to the contact node only, never to the peers it lists, and closes it', async () => {
    fake = await startCassandraFakeServer({
      peers: [{ address: '127.0.0.2' }, { address: '127.0.0.3', dataCenter: 'remote' }],
    });
    // The peers are real fake nodes on the same port: drivers reach peers on the configured Port.
    const peers = [
      await startCassandraFakeServer({ host: '127.0.0.2', port: fake.port }),
      await startCassandraFakeServer({ host: '127.0.0.3', port: fake.port, dataCenter: 'remote' }),
    ];
    try {
      const first = await probe({ ContactPoints: fake.host, Port: fake.port });
      const second = await probe({ ContactPoints: fake.host, Port: fake.port });
      expect([first.status, second.status]).toEqual(['Healthy', 'Healthy']);
      expect(fake.connectionCount).toBe(2);
      expect(peers.map((peer) => peer.connectionCount)).toEqual([0, 0]);
      expect(fake.frames.every((frame) => frame.version === 4)).toBe(true);
      expect(await settled(fake)).toBe(0);
    } finally {
      await Promise.all(peers.map((peer) => peer.close()));
    }
  });

  it('is read-only: only SELECT statements reach the node, and no schema tables are read', async () => {
    fake = await startCassandraFakeServer({ keyspaces: ['orders'] });
    await probe({ ContactPoints: fake.contactPoint, Keyspace: 'orders' });
    const queries = fake.frames.flatMap((frame) => (frame.query ? [frame.query] : []));
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.filter((query) => !/^(SELECT|USE)\s/i.test(query))).toEqual([]);
    expect(queries.filter((query) => query.includes('system_schema'))).toEqual([]);
    const opcodes = new Set(fake.frames.map((frame) => frame.opcode));
    expect([...opcodes].sort()).toEqual(['OPTIONS', 'QUERY', 'REGISTER', 'STARTUP']);
  });
});
