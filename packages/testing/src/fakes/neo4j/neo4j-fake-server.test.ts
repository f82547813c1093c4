import neo4j from 'neo4j-driver';

import { startNeo4jFakeServer, type Neo4jFakeServer } from './neo4j-fake-server';

async function eventually(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

const credentials = { username: 'neo4j', password: 'fake-neo4j-password' };

async function runReturnOne(uri: string, password: string, database?: string) {
  const driver = neo4j.driver(uri, neo4j.auth.basic(credentials.username, password), {
    maxConnectionPoolSize: 1,
    connectionTimeout: 2000,
    logging: { level: 'error', logger: () => undefined },
  });
  try {
    const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
    try {
      const result = await session.run('RETURN 1');
      return result.records.map((record) => record.get(0).toNumber());
    } finally {
      await session.close();
    }
  } finally {
    await driver.close();
  }
}

describe('Neo4j fake server with the real neo4j-driver', () => {
  let server: Neo4jFakeServer;

  beforeEach(async () => {
    server = await startNeo4jFakeServer({ credentials, databases: ['neo4j', 'system', 'movies'] });
  });

  afterEach(async () => {
    await server.close();
  });

  it('answers RETURN 1 over bolt:// after HELLO and LOGON, and sees GOODBYE on close', async () => {
    await expect(runReturnOne(server.uri, credentials.password)).resolves.toEqual([1]);
    await eventually(() => server.received.messages.includes('GOODBYE'));
    expect(server.received.versions).toEqual(['5.4']);
    expect(server.received.principals).toEqual(['neo4j']);
    expect(server.received.messages).toEqual(
      expect.arrayContaining(['HELLO', 'LOGON', 'RUN', 'PULL', 'GOODBYE']),
    );
    expect(server.received.runs).toEqual([{ query: 'RETURN 1', database: null, mode: 'r' }]);
  });

  it('records the database the session selected', async () => {
    await runReturnOne(server.uri, credentials.password, 'movies');
    expect(server.received.runs.map((run) => run.database)).toEqual(['movies']);
  });

  it('answers ROUTE for the neo4j:// scheme and runs the query on the routed reader', async () => {
    await expect(
      runReturnOne(`neo4j://127.0.0.1:${server.port}`, credentials.password, 'movies'),
    ).resolves.toEqual([1]);
    expect(server.received.routes).toEqual([{ database: 'movies' }]);
    expect(server.received.runs.map((run) => run.database)).toEqual(['movies']);
  });

  it('refuses wrong credentials with Neo.ClientError.Security.Unauthorized', async () => {
    await expect(runReturnOne(server.uri, 'wrong-password')).rejects.toMatchObject({
      code: 'Neo.ClientError.Security.Unauthorized',
    });
  });

  it('fails an unknown database with DatabaseNotFound', async () => {
    await expect(runReturnOne(server.uri, credentials.password, 'nothere')).rejects.toMatchObject({
      code: 'Neo.ClientError.Database.DatabaseNotFound',
    });
  });

  it('leaves no connection open after the driver closes', async () => {
    await runReturnOne(server.uri, credentials.password);
    await eventually(() => server.openConnections() === 0);
    expect(server.openConnections()).toBe(0);
  });
});
