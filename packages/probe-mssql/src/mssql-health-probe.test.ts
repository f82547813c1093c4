import {
  startMssqlFakeServer,
  type MssqlFakeServer,
  type MssqlFakeServerOptions,
} from '@corekit/testing/fakes/mssql/mssql-fake-server';
import { pollUntil } from '@corekit/testing/poll-until';
import { transitionEventIds } from '@corekit/testing/probe-restart';
import { probeRunner } from '@corekit/testing/probe-runner';
import { addMssqlHealth } from './add-mssql-health';
import type { MssqlHealthOptions } from './mssql-health-options';
import { realSqlServer } from './real-sql-server';

// Behaviour tests with the real tedious driver. By default the upstream is the TDS fake of @corekit/testing,
// which also records what reached the wire (the LOGIN7 fields and every batch). With MSSQL_CONNECTION_STRING
// set (see real-sql-server.ts) they run against that server, asserting only what a real server shows.
const entryPath = 'Engine:Observability:DependencyHealth:SqlServer:Dependencies:0';
const fakePassword = 'mssql-probe-password-64';

interface Upstream {
  readonly fake?: MssqlFakeServer;
  /** Entry fields that reach the upstream with valid credentials. */
  readonly fields: {
    Host: string;
    Port: number;
    Username: string;
    Password: string;
    Encrypt: boolean;
    TrustServerCertificate: boolean;
  };
  /** A database the login can open. */
  readonly database: string;
  close(): Promise<void>;
}

async function startUpstream(options: MssqlFakeServerOptions = {}): Promise<Upstream> {
  const real = realSqlServer();
  if (real) {
    return {
      fields: {
        Host: real.host ?? '127.0.0.1',
        Port: real.port ?? 1433,
        Username: real.username ?? 'sa',
        Password: real.password ?? '',
        Encrypt: real.encrypt !== false,
        TrustServerCertificate: real.trustServerCertificate ?? false,
      },
      database: real.database ?? 'master',
      close: async () => undefined,
    };
  }
  const fake = await startMssqlFakeServer({
    credentials: { userName: 'health', password: fakePassword },
    databases: ['master', 'orders'],
    ...options,
  });
  return {
    fake,
    fields: {
      Host: fake.host,
      Port: fake.port,
      Username: 'health',
      Password: fakePassword,
      Encrypt: false,
      TrustServerCertificate: false,
    },
    database: 'orders',
    close: () => fake.close(),
  };
}

const { probeOnce, engineWith } = probeRunner<MssqlHealthOptions>(addMssqlHealth);

describe('addMssqlHealth', () => {
  let upstream: Upstream;
  afterEach(async () => {
    await upstream?.close();
  });

  it('logs in on one dedicated connection, opens the Database and runs HealthQuery as a SQL batch', async () => {
    upstream = await startUpstream();
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'sql', ...upstream.fields, Database: upstream.database }],
    });
    expect(entry).toMatchObject({ status: 'Healthy', kind: 'SqlServer', error: null });
    expect(entry.data).toMatchObject({
      database: upstream.database,
      rows: 1,
      target: `${upstream.fields.Host}:${upstream.fields.Port}/${upstream.database}`,
    });
    if (upstream.fake) {
      expect(upstream.fake.received.connections).toBe(1);
      expect(upstream.fake.received.logins).toEqual([
        { userName: 'health', database: 'orders', appName: 'corekit-probe-mssql', serverName: '127.0.0.1' },
      ]);
      expect(upstream.fake.received.batches.at(-1)).toBe('SELECT 1');
    }
  });

  it('takes what ConnectionString sets and fills the rest from the fields (here the password)', async () => {
    upstream = await startUpstream();
    const { Host, Port, Username, Password, Encrypt, TrustServerCertificate } = upstream.fields;
    const connectionString = `Data Source=tcp:${Host},${Port};Initial Catalog=${upstream.database};UID=${Username};Encrypt=${Encrypt};TrustServerCertificate=${TrustServerCertificate}`;
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'sql',
          ConnectionString: connectionString,
          Password,
          Database: 'ignored-because-the-string-sets-one',
        },
      ],
    });
    expect(entry.status).toBe('Healthy');
    expect(entry.data).toMatchObject({ database: upstream.database });
    if (upstream.fake)
      expect(upstream.fake.received.logins[0]).toMatchObject({ userName: 'health', database: 'orders' });
  });

  it('is Unhealthy with AUTHENTICATION_FAILED, error 18456 and the key paths when the login is refused, never showing the password', async () => {
    upstream = await startUpstream();
    const wrong = 'definitely-not-the-password-17';
    const { entry, engine, logger } = await probeOnce({
      Dependencies: [{ Id: 'sql', ...upstream.fields, Password: wrong }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toContain(
      `error 18456: Login failed for user '${upstream.fields.Username}'.`,
    );
    expect(entry.error?.message).toContain(`${entryPath}:Username and ${entryPath}:Password`);
    expect(JSON.stringify([engine.dependencies(), engine.snapshot(), logger.records])).not.toContain(wrong);
  });

  it('is Unhealthy with DATABASE_UNAVAILABLE and error 4060 for a database the login cannot open', async () => {
    upstream = await startUpstream();
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'sql', ...upstream.fields, Database: 'nosuchdatabase' }],
    });
    expect(entry.error).toEqual({
      code: 'DATABASE_UNAVAILABLE',
      message: expect.stringContaining('error 4060: Cannot open database "nosuchdatabase"'),
    });
    expect(entry.error?.message).toContain(`${entryPath}:Database`);
  });

  it('is Unhealthy with QUERY_FAILED and the server error number when HealthQuery fails', async () => {
    upstream = await startUpstream({
      queryFailure: { number: 208, message: "Invalid object name 'health_table_missing'." },
    });
    const { entry } = await probeOnce({
      Dependencies: [
        { Id: 'sql', ...upstream.fields, HealthQuery: 'SELECT TOP 1 1 FROM health_table_missing' },
      ],
    });
    expect(entry.error).toEqual({
      code: 'QUERY_FAILED',
      message: expect.stringContaining("error 208: Invalid object name 'health_table_missing'."),
    });
    expect(entry.error?.message).toContain(`${entryPath}:HealthQuery`);
  });
});

describe('addMssqlHealth against the fake only', () => {
  let fake: MssqlFakeServer;
  afterEach(async () => {
    await fake.close();
  });

  it('is Unhealthy with ENCRYPTION_NOT_SUPPORTED when Encrypt is true (the default) and the server cannot encrypt', async () => {
    fake = await startMssqlFakeServer();
    const { entry } = await probeOnce({
      Dependencies: [
        { Id: 'sql', Host: fake.host, Port: fake.port, Username: 'health', Password: fakePassword },
      ],
    });
    expect(entry.error).toEqual({
      code: 'ENCRYPTION_NOT_SUPPORTED',
      message: expect.stringContaining(`${entryPath}:Encrypt`),
    });
    expect(fake.received.preloginEncryption).toEqual([1]);
    expect(fake.received.batches.filter((batch) => !batch.startsWith('set '))).toEqual([]);
  });

  it('times out a query the server never answers and closes the connection', async () => {
    fake = await startMssqlFakeServer({ hangOnQuery: true });
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'sql',
          Host: fake.host,
          Port: fake.port,
          Username: 'health',
          Password: fakePassword,
          Encrypt: false,
          TimeoutSeconds: 1,
        },
      ],
    });
    expect(entry).toMatchObject({ status: 'Unhealthy', timedOut: true });
    expect(fake.received.batches.at(-1)).toBe('SELECT 1');
    const open = await pollUntil(
      async () => fake.openConnections(),
      (count) => count === 0,
      { timeoutMs: 2000, intervalMs: 20 },
    );
    expect(open).toBe(0);
  });

  it('logs the relational type B event ids (3126 healthy, 3127 unhealthy) on status changes', async () => {
    fake = await startMssqlFakeServer();
    const { engine, logger } = engineWith({
      Dependencies: [
        {
          Id: 'sql',
          Host: fake.host,
          Port: fake.port,
          Username: 'health',
          Password: fakePassword,
          Encrypt: false,
        },
      ],
    });
    await engine.refreshDependencies();
    await fake.close();
    await engine.refreshDependencies();
    expect(transitionEventIds(logger, 3126, 3127)).toEqual([3126, 3127]);
  });
});
