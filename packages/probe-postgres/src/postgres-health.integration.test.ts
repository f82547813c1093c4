import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pollUntil } from '@corekit/testing/poll-until';
import { expectRecoveryAcrossRestart } from '@corekit/testing/probe-restart';
import { probeRunner } from '@corekit/testing/probe-runner';
import { databaseLoginFromUrl, realService } from '@corekit/testing/real-service';
import { startPostgresServer, type PostgresServerProcess } from '@corekit/testing/servers/postgres-server';
import { createSelfSignedCertificate } from '@corekit/testing/servers/tls-test-server';
import { addPostgresHealth } from './add-postgres-health';
import type { PostgresHealthOptions } from './postgres-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-postgres-'));
const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sharedServer = databaseLoginFromUrl(postgresUrl, {
  port: 5432,
  username: 'postgres',
  database: 'test',
});
const { probeOnce, engineWith } = probeRunner<PostgresHealthOptions>(addPostgresHealth, { contentRoot });

async function sql<T>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('addPostgresHealth against the PostgreSQL server on this machine', () => {
  const postgres = realService('PostgreSQL', postgresUrl, 'POSTGRES_URL');

  postgres.it(
    'is Healthy with a URL connection string, reports the server version, and falls back to plain TCP under Prefer',
    async () => {
      const [{ server_version: version }] = await sql<{ server_version: string }>('SHOW server_version');
      const { entry, logger } = await probeOnce({
        Dependencies: [{ Id: 'orders-db', ConnectionString: postgresUrl }],
      });
      expect(entry).toMatchObject({ kind: 'PostgreSql', status: 'Healthy', error: null });
      expect(entry.data).toEqual({
        target: `${sharedServer.Host}:${sharedServer.Port}/${sharedServer.Database}`,
        serverVersion: version,
        tls: false,
        rowCount: 1,
      });
      expect(logger.withEventId(3122)).toHaveLength(1);
    },
  );

  postgres.it('is Healthy with the separate fields and a key=value connection string', async () => {
    const { engine } = await probeOnce({
      Dependencies: [
        { Id: 'fields', ...sharedServer, SslMode: 'Disable' },
        {
          Id: 'key-value',
          ConnectionString: `Host=${sharedServer.Host};Port=${sharedServer.Port};Database=${sharedServer.Database};Username=${sharedServer.Username};SSL Mode=disable;Pooling=false`,
        },
      ],
    });
    expect(engine.dependencies().map((entry) => [entry.id, entry.status])).toEqual([
      ['fields', 'Healthy'],
      ['key-value', 'Healthy'],
    ]);
  });

  postgres.it(
    'runs the configured HealthQuery and reports its failure as HEALTH_QUERY_FAILED with the server message',
    async () => {
      const { entry, logger } = await probeOnce({
        Dependencies: [{ Id: 'db', ...sharedServer, HealthQuery: 'SELECT 1 / 0' }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('HEALTH_QUERY_FAILED');
      expect(entry.error?.message).toContain('division by zero (SQLSTATE 22012)');
      expect(entry.error?.message).toContain(
        'Engine:Observability:DependencyHealth:PostgreSql:Dependencies:0:HealthQuery',
      );
      expect(logger.withEventId(3123)).toHaveLength(1);
    },
  );

  postgres.it('is Unhealthy with DATABASE_NOT_FOUND for an unknown database', async () => {
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'db', ...sharedServer, Database: 'no_such_database_corekit' }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('DATABASE_NOT_FOUND');
    expect(entry.error?.message).toMatch(
      /database "no_such_database_corekit" does not exist\. Check Engine:Observability:DependencyHealth:PostgreSql:Dependencies:0:Database/,
    );
  });

  postgres.it('is Unhealthy with AUTHENTICATION_FAILED for an unknown role', async () => {
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'db', ...sharedServer, Username: 'no_such_role_corekit' }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toMatch(
      /role "no_such_role_corekit" does not exist\. Check .*:Username and .*:Password/,
    );
  });

  postgres.it(
    'is Unhealthy with TLS_NOT_SUPPORTED when SslMode Require meets a server without TLS',
    async () => {
      const [{ ssl }] = await sql<{ ssl: string }>('SHOW ssl');
      if (ssl === 'on') {
        console.warn(
          'the PostgreSQL server at POSTGRES_URL has ssl on; the TLS_NOT_SUPPORTED case needs one without TLS',
        );
        return;
      }
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'db', ...sharedServer, SslMode: 'Require' }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.error?.code).toBe('TLS_NOT_SUPPORTED');
      expect(entry.error?.message).toMatch(/SslMode Require requires it/);
    },
  );

  postgres.it('leaves no session open on the server after many runs', async () => {
    const applicationName = `corekit-leak-${process.pid}`;
    const { engine } = engineWith({
      Dependencies: [
        {
          Id: 'db',
          ConnectionString: `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}application_name=${applicationName}`,
        },
      ],
    });
    for (let run = 0; run < 25; run++) await engine.refreshDependencies();
    expect(engine.dependencies()[0].status).toBe('Healthy');
    const sessions = await pollUntil(
      async () =>
        (
          await sql<{ count: number }>(
            `SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = '${applicationName}'`,
          )
        )[0].count,
      (count) => count === 0,
    );
    expect(sessions).toBe(0);
  });
});

describe('addPostgresHealth against a private PostgreSQL cluster with SCRAM and TLS only', () => {
  const password = 'private-cluster-pw-5Kd';
  const certificate = createSelfSignedCertificate('localhost');
  const caFile = path.join(contentRoot, 'ca.pem');
  let server: PostgresServerProcess;
  beforeAll(async () => {
    writeFileSync(caFile, certificate.cert);
    server = await startPostgresServer({ password, certificate, requireTls: true });
  });
  afterAll(() => server.close());

  const login = () => ({
    Host: '127.0.0.1',
    Port: server.port,
    Username: 'postgres',
    Password: password,
    Database: 'postgres',
  });
  const authorizedLines = () =>
    server
      .output()
      .split('\n')
      .filter((line) => line.includes('connection authorized'));

  it.each(['Require', 'Prefer', 'Allow'] as const)(
    'is Healthy over TLS with SslMode %s, and the server logs the session as SSL',
    async (sslMode) => {
      const before = authorizedLines().length;
      const { entry } = await probeOnce({ Dependencies: [{ Id: 'db', ...login(), SslMode: sslMode }] });
      expect(entry).toMatchObject({ status: 'Healthy', data: { tls: true } });
      const lines = authorizedLines().slice(before);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/user=postgres database=postgres SSL enabled/);
    },
  );

  it('is Unhealthy with TLS_REQUIRED under SslMode Disable, naming the key to change', async () => {
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'db', ...login(), SslMode: 'Disable' }] });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('TLS_REQUIRED');
    expect(entry.error?.message).toContain(
      'Engine:Observability:DependencyHealth:PostgreSql:Dependencies:0:SslMode',
    );
  });

  it('verifies the certificate chain with SslRootCertificate under VerifyCA, and the host name too under VerifyFull', async () => {
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
        { Id: 'verify-full-by-address', ...login(), SslMode: 'VerifyFull', SslRootCertificate: caFile },
        { Id: 'verify-ca-untrusted', ...login(), SslMode: 'VerifyCA' },
        {
          Id: 'missing-root-file',
          ...login(),
          SslMode: 'VerifyCA',
          SslRootCertificate: path.join(contentRoot, 'missing.pem'),
        },
      ],
    });
    const results = Object.fromEntries(
      engine
        .dependencies()
        .map((entry) => [entry.id, entry.status === 'Healthy' ? 'Healthy' : entry.error?.code]),
    );
    expect(results).toEqual({
      'verify-ca': 'Healthy',
      'verify-full-by-name': 'Healthy',
      'verify-full-by-address': 'ERR_TLS_CERT_ALTNAME_INVALID',
      'verify-ca-untrusted': 'DEPTH_ZERO_SELF_SIGNED_CERT',
      'missing-root-file': 'CERTIFICATE_FILE_UNREADABLE',
    });
  });

  it.each([
    [
      'a wrong password',
      { Password: 'not-the-password' },
      /password authentication failed for user "postgres"/,
    ],
    [
      'no password',
      { Password: undefined },
      /asks for a password and none is configured\. Set Engine:Observability:DependencyHealth:PostgreSql:Dependencies:0:Password/,
    ],
  ])('is Unhealthy with AUTHENTICATION_FAILED for %s', async (_case, credentials, message) => {
    const { entry, engine, logger } = await probeOnce({
      Dependencies: [{ Id: 'db', ...login(), SslMode: 'Require', ...credentials }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toMatch(message);
    expect(JSON.stringify([engine.dependencies(), logger.records])).not.toContain('not-the-password');
  });

  it('turns Unhealthy on the next refresh after the server stops, and Healthy again after a restart', async () => {
    const { engine, logger } = engineWith({ Dependencies: [{ Id: 'db', ...login(), SslMode: 'Require' }] });
    await expectRecoveryAcrossRestart({
      engine,
      logger,
      server,
      healthyEventId: 3122,
      unhealthyEventId: 3123,
    });
  });
});
