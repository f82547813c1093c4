// The fake SQL Server of @corekit/testing, exercised with the real tedious driver. It lives here rather than beside
// the fake because tedious needs this package's jest transform settings (see jest.config.cjs).
import { Connection, Request, type ConnectionConfiguration } from 'tedious';

import { startMssqlFakeServer, type MssqlFakeServer } from '@corekit/testing/fakes/mssql/mssql-fake-server';

const credentials = { userName: 'probe', password: 'fake-mssql-password' };

async function eventually(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

async function runBatch(
  server: MssqlFakeServer,
  sql: string,
  password = credentials.password,
): Promise<Record<string, unknown>[]> {
  const configuration: ConnectionConfiguration = {
    server: server.host,
    authentication: { type: 'default', options: { userName: credentials.userName, password } },
    options: {
      port: server.port,
      database: 'health',
      encrypt: false,
      connectTimeout: 2000,
      requestTimeout: 2000,
    },
  };
  const connection = new Connection(configuration);
  try {
    await new Promise<void>((resolve, reject) =>
      connection.connect((error) => (error ? reject(error) : resolve())),
    );
    return await new Promise((resolve, reject) => {
      const rows: Record<string, unknown>[] = [];
      const request = new Request(sql, (error) => (error ? reject(error) : resolve(rows)));
      request.on('row', (columns: { metadata: { colName: string }; value: unknown }[]) =>
        rows.push(Object.fromEntries(columns.map((column) => [column.metadata.colName, column.value]))),
      );
      connection.execSqlBatch(request);
    });
  } finally {
    connection.close();
  }
}

describe('SQL Server fake with the real tedious driver', () => {
  let server: MssqlFakeServer;

  afterEach(async () => {
    await server.close();
  });

  it('answers PRELOGIN, LOGIN7, the session settings and SELECT 1 with one row', async () => {
    server = await startMssqlFakeServer({ credentials });
    await expect(runBatch(server, 'SELECT 1')).resolves.toEqual([{ '': 1 }]);
    expect(server.received.preloginEncryption).toEqual([2]);
    expect(server.received.logins).toEqual([
      { userName: 'probe', database: 'health', appName: 'Tedious', serverName: '127.0.0.1' },
    ]);
    expect(server.received.batches).toHaveLength(2);
    expect(server.received.batches[0]).toMatch(/^set /);
    expect(server.received.batches[1]).toBe('SELECT 1');
  });

  it('returns a named string column when configured', async () => {
    server = await startMssqlFakeServer({
      result: { columns: ['version'], row: ['Microsoft SQL Server 2022'] },
    });
    await expect(runBatch(server, 'SELECT @@VERSION AS version')).resolves.toEqual([
      { version: 'Microsoft SQL Server 2022' },
    ]);
  });

  it('refuses a wrong password with error 18456 "Login failed for user"', async () => {
    server = await startMssqlFakeServer({ credentials });
    await expect(runBatch(server, 'SELECT 1', 'wrong')).rejects.toMatchObject({
      code: 'ELOGIN',
      message: "Login failed for user 'probe'.",
    });
  });

  it('refuses an unknown database with error 4060 before 18456', async () => {
    server = await startMssqlFakeServer({ databases: ['master'] });
    await expect(runBatch(server, 'SELECT 1')).rejects.toMatchObject({ code: 'ELOGIN' });
    expect(server.received.logins[0]?.database).toBe('health');
  });

  it('reports a configured query failure as a request error with its number', async () => {
    server = await startMssqlFakeServer({
      queryFailure: { number: 208, message: "Invalid object name 'nothere'." },
    });
    await expect(runBatch(server, 'SELECT * FROM nothere')).rejects.toMatchObject({
      number: 208,
      message: "Invalid object name 'nothere'.",
    });
  });

  it('leaves no connection open after the driver closes', async () => {
    server = await startMssqlFakeServer();
    await runBatch(server, 'SELECT 1');
    await eventually(() => server.openConnections() === 0);
    expect(server.openConnections()).toBe(0);
  });
});
