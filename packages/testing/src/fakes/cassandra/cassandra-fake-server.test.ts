import { Client, auth, errors, type ClientOptions } from 'cassandra-driver';
import { startCassandraFakeServer, type CassandraFakeServer } from './cassandra-fake-server';

function clientOptions(fake: CassandraFakeServer, extra: Partial<ClientOptions> = {}): ClientOptions {
  return {
    contactPoints: [fake.host],
    localDataCenter: fake.dataCenter,
    protocolOptions: { port: fake.port },
    socketOptions: { connectTimeout: 3000, readTimeout: 3000 },
    ...extra,
  };
}

async function withClient<T>(options: ClientOptions, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(options);
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.shutdown();
  }
}

describe('fake Cassandra node with the cassandra-driver', () => {
  let fake: CassandraFakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('negotiates protocol v4, answers the control-connection queries and the health query', async () => {
    fake = await startCassandraFakeServer({ releaseVersion: '3.11.16' });
    const result = await withClient(clientOptions(fake), (client) =>
      client.execute('SELECT release_version FROM system.local'),
    );
    expect(result.rows.map((row) => row.release_version)).toEqual(['3.11.16']);

    const [first] = fake.frames;
    expect(first.opcode).toBe('STARTUP');
    expect(first.version).not.toBe(4); // the driver starts with its highest version and is told to use v4
    const v4 = fake.frames.filter((frame) => frame.version === 4);
    const opcodes = new Set(v4.map((frame) => frame.opcode));
    expect([...opcodes]).toEqual(expect.arrayContaining(['STARTUP', 'OPTIONS', 'REGISTER', 'QUERY']));
    const queries = v4.flatMap((frame) => (frame.query ? [frame.query] : []));
    expect(queries).toEqual(
      expect.arrayContaining([
        "SELECT * FROM system.local WHERE key='local'",
        'SELECT * FROM system.peers',
        'SELECT * FROM system_schema.keyspaces',
        'SELECT release_version FROM system.local',
      ]),
    );
    expect(v4.find((frame) => frame.opcode === 'REGISTER')?.events).toEqual([
      'TOPOLOGY_CHANGE',
      'STATUS_CHANGE',
      'SCHEMA_CHANGE',
    ]);
  });

  it('switches keyspace with USE and lists its keyspaces in the driver metadata', async () => {
    fake = await startCassandraFakeServer({
      tables: {
        'inventory.items': {
          columns: [
            ['id', 'int'],
            ['name', 'text'],
          ],
          rows: [{ id: 1, name: 'bolt' }],
        },
      },
    });
    const rows = await withClient(clientOptions(fake, { keyspace: 'inventory' }), async (client) => {
      expect(Object.keys(client.metadata.keyspaces)).toEqual(expect.arrayContaining(['system', 'inventory']));
      return (await client.execute('SELECT name FROM items WHERE id = 1')).rows;
    });
    expect(rows.map((row) => row.name)).toEqual(['bolt']);
    expect(fake.frames.some((frame) => /^USE "?inventory"?$/i.test(frame.query ?? ''))).toBe(true);
    expect(fake.frames.find((frame) => frame.query?.startsWith('SELECT name'))?.keyspace).toBe('inventory');
  });

  it('refuses an unknown keyspace the way a node does', async () => {
    fake = await startCassandraFakeServer();
    await expect(
      withClient(clientOptions(fake, { keyspace: 'missing' }), async () => undefined),
    ).rejects.toMatchObject({
      code: 0x2200,
      message: "Keyspace 'missing' does not exist",
    });
  });

  it('authenticates with PasswordAuthenticator over SASL PLAIN', async () => {
    fake = await startCassandraFakeServer({ users: { probe: 'secret-value' } });
    const options = clientOptions(fake, {
      authProvider: new auth.PlainTextAuthProvider('probe', 'secret-value'),
    });
    await withClient(options, (client) => client.execute('SELECT release_version FROM system.local'));
    expect(
      fake.frames.filter((frame) => frame.opcode === 'AUTH_RESPONSE').map((frame) => frame.username),
    ).toContain('probe');
    expect(JSON.stringify(fake.frames)).not.toContain('secret-value');
  });

  it('refuses wrong credentials with error 0x0100 and the PasswordAuthenticator message', async () => {
    fake = await startCassandraFakeServer({ users: { probe: 'secret-value' } });
    const options = clientOptions(fake, { authProvider: new auth.PlainTextAuthProvider('probe', 'wrong') });
    const failure = await withClient(options, async () => undefined).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(errors.NoHostAvailableError);
    const [inner] = Object.values((failure as errors.NoHostAvailableError).innerErrors) as Error[];
    // The driver turns the 0x0100 Bad credentials ERROR frame into an AuthenticationError carrying it.
    expect(inner).toBeInstanceOf(errors.AuthenticationError);
    expect(inner).toMatchObject({
      message: 'Provided username probe and/or password are incorrect',
      additionalInfo: { code: 0x0100 },
    });
  });

  it('answers Cassandra errors for an unknown table, an unknown column and a write', async () => {
    fake = await startCassandraFakeServer();
    await withClient(clientOptions(fake), async (client) => {
      await expect(client.execute('SELECT * FROM system.nothing')).rejects.toMatchObject({
        code: 0x2200,
        message: 'unconfigured table nothing',
      });
      await expect(client.execute('SELECT nope FROM system.local')).rejects.toMatchObject({
        message: 'Undefined column name nope',
      });
      await expect(client.execute("INSERT INTO system.local (key) VALUES ('x')")).rejects.toMatchObject({
        code: 0x2200,
      });
      await expect(client.execute('SELEKT 1')).rejects.toMatchObject({ code: 0x2000 });
    });
  });

  it('destroys every open socket on close', async () => {
    fake = await startCassandraFakeServer();
    const client = new Client(clientOptions(fake, { pooling: { heartBeatInterval: 0 } }));
    await client.connect();
    expect(fake.openConnections).toBeGreaterThan(0);
    await fake.close();
    expect(fake.openConnections).toBe(0);
    await client.shutdown();
    fake = undefined;
  });
});
