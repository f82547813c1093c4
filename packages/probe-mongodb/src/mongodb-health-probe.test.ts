import type { DependencyHealthEntry } from '@corekit/abstractions';
import {
  startMongoDbFakeServer,
  type MongoDbFakeServer,
} from '@corekit/testing/fakes/mongodb/mongodb-fake-server';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addMongoDbHealth } from './add-mongodb-health';
import type { MongoDbHealthOptions } from './mongodb-health-options';

type MongoDbEntry = NonNullable<MongoDbHealthOptions['Dependencies']>[number];

const entryPath = 'Engine:Observability:DependencyHealth:MongoDb:Dependencies:0';
// With MONGODB_URL set, the tests marked "real server or fake" run against that server.
const realUrl = process.env.MONGODB_URL;

async function probe(
  entry: Omit<MongoDbEntry, 'Id'>,
  environment?: Record<string, string>,
): Promise<DependencyHealthEntry> {
  const { builder } = createTestEngineBuilder(environment ? { environment } : {});
  addMongoDbHealth(builder, { Dependencies: [{ Id: 'mongo', TimeoutSeconds: 5, ...entry }] });
  const engine = builder.build();
  try {
    await engine.refreshDependencies();
    return engine.dependencies().find((dependency) => dependency.id === 'mongo')!;
  } finally {
    await engine.stop();
  }
}

describe('MongoDB probe, real server or fake', () => {
  let fake: MongoDbFakeServer | undefined;
  let connection: Omit<MongoDbEntry, 'Id'>;
  beforeEach(async () => {
    if (realUrl) {
      connection = { ConnectionString: realUrl };
    } else {
      fake = await startMongoDbFakeServer({
        commands: { dbStats: (_command, database) => ({ db: database, collections: 0, ok: 1 }) },
      });
      connection = { Host: fake.host, Port: fake.port };
    }
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('runs ping against the selected database and reports Healthy', async () => {
    const result = await probe({ ...connection, Database: 'corekit_probe' });
    expect(result.status).toBe('Healthy');
    expect(result.data).toMatchObject({ database: 'corekit_probe', command: 'ping', ok: 1 });
    if (fake) {
      const ping = fake.commands.find((command) => command.commandName === 'ping');
      expect(ping).toMatchObject({ opCode: 'OP_MSG', database: 'corekit_probe' });
    }
  });

  it('runs a custom HealthCommand given as JSON in an environment variable', async () => {
    const result = await probe(
      { ...connection, Database: 'corekit_probe' },
      {
        Engine__Observability__DependencyHealth__MongoDb__Dependencies__0__Id: 'mongo',
        Engine__Observability__DependencyHealth__MongoDb__Dependencies__0__HealthCommand: '{"dbStats":1}',
      },
    );
    expect(result.status).toBe('Healthy');
    expect(result.data).toMatchObject({ command: 'dbStats' });
    if (fake)
      expect(fake.commands.find((command) => command.commandName === 'dbStats')?.database).toBe(
        'corekit_probe',
      );
  });

  it('reports a command the server refuses as Unhealthy COMMAND_FAILED naming HealthCommand', async () => {
    const result = await probe({ ...connection, HealthCommand: { corekitNoSuchCommand: 1 } });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('COMMAND_FAILED');
    expect(result.error?.message).toContain('CommandNotFound');
    expect(result.error?.message).toContain(`${entryPath}:HealthCommand`);
  });
});

describe('MongoDB probe against the fake server', () => {
  let fake: MongoDbFakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('sends the command to the database of the connection string when Database is not set, admin otherwise', async () => {
    fake = await startMongoDbFakeServer();
    await probe({ ConnectionString: `mongodb://${fake.host}:${fake.port}/sales?directConnection=true` });
    await probe({ Host: fake.host, Port: fake.port });
    const pings = fake.commands
      .filter((command) => command.commandName === 'ping')
      .map((command) => command.database);
    expect(pings).toEqual(['sales', 'admin']);
  });

  it('authenticates with SCRAM-SHA-256 against AuthSource', async () => {
    fake = await startMongoDbFakeServer({ users: { probe: 'mongo-secret-1' }, authDatabase: 'accounts' });
    const result = await probe({
      Host: fake.host,
      Port: fake.port,
      Database: 'orders',
      Username: 'probe',
      Password: 'mongo-secret-1',
      AuthSource: 'accounts',
    });
    expect(result.status).toBe('Healthy');
    const handshake = fake.commands.find((command) => command.saslUsername === 'probe');
    expect((handshake?.command.speculativeAuthenticate as { db?: string } | undefined)?.db).toBe('accounts');
    expect(fake.commands.find((command) => command.commandName === 'ping')?.database).toBe('orders');
  });

  it('authenticates with the credentials of the connection string', async () => {
    fake = await startMongoDbFakeServer({ users: { probe: 'mongo-secret-1' } });
    const result = await probe({
      ConnectionString: `mongodb://probe:mongo-secret-1@${fake.host}:${fake.port}/orders?authSource=admin`,
    });
    expect(result.status).toBe('Healthy');
    expect(JSON.stringify(result)).not.toContain('mongo-secret-1');
    expect(result.data.target).toBe(`${fake.host}:${fake.port}/orders`);
  });

  it.each([
    ['a wrong password', { Username: 'probe', Password: 'not-the-password' }, 'user "probe"'],
    ['an unknown user', { Username: 'intruder', Password: 'not-the-password' }, 'user "intruder"'],
    [
      'the wrong AuthSource',
      { Username: 'probe', Password: 'mongo-secret-1', AuthSource: 'sales' },
      'authSource "sales"',
    ],
  ])(
    'reports %s as Unhealthy AUTHENTICATION_FAILED with the server reason',
    async (_case, credentials, named) => {
      fake = await startMongoDbFakeServer({ users: { probe: 'mongo-secret-1' } });
      const result = await probe({
        Host: fake.host,
        Port: fake.port,
        DirectConnection: true,
        ...credentials,
      });
      expect(result.status).toBe('Unhealthy');
      expect(result.timedOut).toBe(false);
      expect(result.error?.code).toBe('AUTHENTICATION_FAILED');
      expect(result.error?.message).toContain('Authentication failed.');
      expect(result.error?.message).toContain(named);
      expect(result.error?.message).toContain(`${entryPath}:Password`);
      expect(JSON.stringify(result)).not.toMatch(/not-the-password|mongo-secret-1/);
      expect(fake.commands.some((command) => command.commandName === 'ping')).toBe(false);
    },
  );

  it('reports a command the user may not run as Unhealthy AUTHORIZATION_FAILED', async () => {
    fake = await startMongoDbFakeServer({
      users: { probe: 'mongo-secret-1' },
      commands: { dbStats: () => ({ ok: 1 }) },
    });
    const result = await probe({ Host: fake.host, Port: fake.port, HealthCommand: { dbStats: 1 } });
    expect(result.status).toBe('Unhealthy');
    expect(result.error?.code).toBe('AUTHORIZATION_FAILED');
    expect(result.error?.message).toContain(`${entryPath}:HealthCommand`);
  });

  it('uses a dedicated client per run and leaves no connection open', async () => {
    fake = await startMongoDbFakeServer();
    await probe({ Host: fake.host, Port: fake.port });
    const afterOne = fake.connectionCount;
    await probe({ Host: fake.host, Port: fake.port });
    expect(fake.connectionCount).toBe(afterOne * 2);
    for (let attempt = 0; attempt < 100 && fake.openConnections > 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fake.openConnections).toBe(0);
    expect(
      fake.commands.filter(
        (command) => !['ismaster', 'hello', 'ping', 'endSessions'].includes(command.commandName),
      ),
    ).toEqual([]);
  });
});
