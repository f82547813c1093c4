import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { pollUntil } from '@corekit/testing/poll-until';
import { expectRecoveryAcrossRestart } from '@corekit/testing/probe-restart';
import { probeRunner } from '@corekit/testing/probe-runner';
import { databaseLoginFromUrl, realService } from '@corekit/testing/real-service';
import { startMariaDbServer, type MariaDbServerProcess } from '@corekit/testing/servers/mariadb-server';
import { startTcpProxy } from '@corekit/testing/servers/tcp-proxy';
import { createSelfSignedCertificate } from '@corekit/testing/servers/tls-test-server';
import { addMySqlHealth } from './add-mysql-health';
import type { MySqlHealthOptions } from './mysql-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-mysql-'));
const mySqlUrl = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const sharedServer = databaseLoginFromUrl(mySqlUrl, { port: 3306, username: 'root', database: 'test' });
const { probeOnce, engineWith } = probeRunner<MySqlHealthOptions>(addMySqlHealth, { contentRoot });

async function sql<T>(connectionUrl: string, text: string): Promise<T[]> {
  const connection = await mysql.createConnection(connectionUrl);
  try {
    return (await connection.query(text))[0] as T[];
  } finally {
    await connection.end();
  }
}

describe('addMySqlHealth against the MariaDB server on this machine', () => {
  const mariaDb = realService('MySQL/MariaDB', mySqlUrl, 'MYSQL_URL');

  mariaDb.it(
    'is Healthy with a URL connection string and reports the server version, logging event 3128',
    async () => {
      const [{ version }] = await sql<{ version: string }>(mySqlUrl, 'SELECT VERSION() AS version');
      const { entry, logger } = await probeOnce({
        Dependencies: [{ Id: 'orders-db', ConnectionString: mySqlUrl }],
      });
      expect(entry).toMatchObject({ kind: 'MySql', status: 'Healthy', error: null });
      expect(entry.data).toMatchObject({
        target: `${sharedServer.Host}:${sharedServer.Port}/${sharedServer.Database}`,
        rowCount: 1,
      });
      expect(version.startsWith(String(entry.data.serverVersion).replace(/^5\.5\.5-/, ''))).toBe(true);
      expect(logger.withEventId(3128)).toHaveLength(1);
    },
  );

  mariaDb.it(
    'uses one connection per run under SslMode Preferred, even when the server offers no TLS',
    async () => {
      const [{ Value: sslOffered }] = await sql<{ Value: string }>(
        mySqlUrl,
        "SHOW VARIABLES LIKE 'have_ssl'",
      );
      const proxy = await startTcpProxy({ host: sharedServer.Host, port: sharedServer.Port });
      try {
        const { entry } = await probeOnce({
          Dependencies: [
            { Id: 'db', ...sharedServer, Host: proxy.host, Port: proxy.port, SslMode: 'Preferred' },
          ],
        });
        expect(entry).toMatchObject({ status: 'Healthy', data: { tls: sslOffered === 'YES' } });
        expect(proxy.acceptedConnections).toBe(1);
        const open = await pollUntil(
          async () => proxy.openConnections,
          (count) => count === 0,
          { timeoutMs: 2000, intervalMs: 20 },
        );
        expect(open).toBe(0);
      } finally {
        await proxy.close();
      }
    },
  );

  mariaDb.it('is Healthy with a key=value connection string and the separate fields', async () => {
    const { engine } = await probeOnce({
      Dependencies: [
        { Id: 'fields', ...sharedServer, SslMode: 'None' },
        {
          Id: 'key-value',
          ConnectionString: `Server=${sharedServer.Host};Port=${sharedServer.Port};Database=${sharedServer.Database};User Id=${sharedServer.Username};SslMode=DISABLED;Pooling=false`,
        },
      ],
    });
    expect(engine.dependencies().map((entry) => [entry.id, entry.status])).toEqual([
      ['fields', 'Healthy'],
      ['key-value', 'Healthy'],
    ]);
  });

  mariaDb.it(
    'is Unhealthy with AUTHENTICATION_FAILED for a wrong password and for an unknown user',
    async () => {
      const { engine, logger } = await probeOnce({
        Dependencies: [
          { Id: 'wrong-password', ...sharedServer, Password: 'definitely-not-the-password' },
          { Id: 'unknown-user', ...sharedServer, Username: 'no_such_user_corekit' },
        ],
      });
      for (const entry of engine.dependencies()) {
        expect(entry.status).toBe('Unhealthy');
        expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
        expect(entry.error?.message).toMatch(
          /Access denied for user .*Check Engine:Observability:DependencyHealth:MySql:Dependencies:\d:Username/,
        );
      }
      expect(JSON.stringify([engine.dependencies(), logger.records])).not.toContain(
        'definitely-not-the-password',
      );
    },
  );

  mariaDb.it('is Unhealthy with DATABASE_NOT_FOUND for an unknown database', async () => {
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'db', ...sharedServer, Database: 'no_such_database_corekit' }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('DATABASE_NOT_FOUND');
    expect(entry.error?.message).toMatch(/Unknown database 'no_such_database_corekit'\. Check .*:Database/);
  });

  mariaDb.it('runs the configured HealthQuery and reports its failure as HEALTH_QUERY_FAILED', async () => {
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'db', ...sharedServer, HealthQuery: 'SELECT * FROM no_such_table_corekit' }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('HEALTH_QUERY_FAILED');
    expect(entry.error?.message).toMatch(
      /no_such_table_corekit' doesn't exist \(ER_NO_SUCH_TABLE 1146\)\. Check .*:HealthQuery/,
    );
  });

  mariaDb.it(
    'is Unhealthy with TLS_NOT_SUPPORTED when SslMode Required meets a server without TLS',
    async () => {
      const [{ Value: sslOffered }] = await sql<{ Value: string }>(
        mySqlUrl,
        "SHOW VARIABLES LIKE 'have_ssl'",
      );
      if (sslOffered === 'YES') {
        console.warn('the server at MYSQL_URL offers TLS; the TLS_NOT_SUPPORTED case needs one without');
        return;
      }
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'db', ...sharedServer, SslMode: 'Required' }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('TLS_NOT_SUPPORTED');
    },
  );
});

describe('addMySqlHealth against a private MariaDB server that requires TLS', () => {
  const password = 'private-maria-pw-3Qe';
  const certificate = createSelfSignedCertificate('localhost');
  const caFile = path.join(contentRoot, 'ca.pem');
  let server: MariaDbServerProcess;
  beforeAll(async () => {
    writeFileSync(caFile, certificate.cert);
    server = await startMariaDbServer({ users: { probe: password }, certificate, requireTls: true });
  });
  afterAll(() => server.close());

  const login = () => ({
    Host: '127.0.0.1',
    Port: server.port,
    Username: 'probe',
    Password: password,
    Database: 'test',
  });
  const adminUrl = () => `mysql://probe:${password}@127.0.0.1:${server.port}/test`;

  it.each(['Required', 'Preferred'] as const)('is Healthy over TLS with SslMode %s', async (sslMode) => {
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'db', ...login(), SslMode: sslMode }] });
    expect(entry).toMatchObject({ status: 'Healthy', data: { tls: true } });
  });

  it('is Unhealthy under SslMode None (MariaDB answers access denied), with a hint to check SslMode', async () => {
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'db', ...login(), SslMode: 'None' }] });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toContain(
      'whether the account requires TLS (Engine:Observability:DependencyHealth:MySql:Dependencies:0:SslMode)',
    );
  });

  it('verifies the chain with SslRootCertificate under VerifyCA, and the host name too under VerifyFull', async () => {
    const { engine } = await probeOnce({
      Dependencies: [
        { Id: 'verify-ca', ...login(), SslMode: 'VerifyCA', SslRootCertificate: caFile },
        {
          Id: 'verify-full-by-name',
          ...login(),
          Host: 'localhost',
          SslMode: 'VerifyFull',
          SslRootCertificate: caFile,
        },
        {
          Id: 'verify-full-by-address',
          ...login(),
          SslMode: 'VERIFY_IDENTITY' as never,
          SslRootCertificate: caFile,
        },
        { Id: 'verify-ca-untrusted', ...login(), SslMode: 'VerifyCA' },
      ],
    });
    const results = Object.fromEntries(
      engine
        .dependencies()
        .map((entry) => [
          entry.id,
          entry.status === 'Healthy' ? 'Healthy' : `${entry.error?.code}: ${entry.error?.message}`,
        ]),
    );
    expect(results['verify-ca']).toBe('Healthy');
    expect(results['verify-full-by-name']).toBe('Healthy');
    expect(results['verify-full-by-address']).toMatch(/^TLS_HANDSHAKE_FAILED: .*(altnames|IP)/);
    expect(results['verify-ca-untrusted']).toMatch(/^TLS_HANDSHAKE_FAILED: .*self[- ]signed/i);
  });

  it('leaves no session of the probe account on the server after many runs', async () => {
    const { engine } = engineWith({
      Dependencies: [{ Id: 'db', ...login(), Username: 'probe', SslMode: 'Required' }],
    });
    for (let run = 0; run < 25; run++) await engine.refreshDependencies();
    expect(engine.dependencies()[0].status).toBe('Healthy');
    // The query's own session is the one left.
    const sessions = await pollUntil(
      async () =>
        (
          await sql<{ count: number }>(
            `${adminUrl()}?ssl={"rejectUnauthorized":false}`,
            "SELECT COUNT(*) AS count FROM information_schema.PROCESSLIST WHERE USER = 'probe'",
          )
        )[0].count,
      (count) => count === 1,
    );
    expect(sessions).toBe(1);
  });

  it('turns Unhealthy on the next refresh after the server stops, and Healthy again after a restart', async () => {
    const { engine, logger } = engineWith({ Dependencies: [{ Id: 'db', ...login(), SslMode: 'Required' }] });
    await expectRecoveryAcrossRestart({
      engine,
      logger,
      server,
      healthyEventId: 3128,
      unhealthyEventId: 3129,
    });
  });
});
