import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { createEngineBuilder } from '@corekit/engine-core';
import {
  captureLogger,
  createSelfSignedCertificate,
  requireService,
  startMariaDbServer,
  startTcpProxy,
  type MariaDbServerProcess,
} from '@corekit/testing';
import { addMySqlHealth } from './add-mysql-health';
import type { MySqlHealthOptions } from './mysql-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-mysql-'));
const mySqlUrl = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const url = new URL(mySqlUrl);
const sharedServer = {
  Host: url.hostname,
  Port: Number(url.port || 3306),
  Username: decodeURIComponent(url.username || 'root'),
  ...(url.password ? { Password: decodeURIComponent(url.password) } : {}),
  Database: url.pathname.slice(1) || 'test',
};

async function probeOnce(options: MySqlHealthOptions) {
  const logger = captureLogger();
  const builder = createEngineBuilder({ contentRoot, environment: {}, logger });
  addMySqlHealth(builder, options);
  const engine = builder.build();
  await engine.refreshDependencies();
  return { engine, logger, entry: engine.dependencies()[0] };
}

async function sql<T>(connectionUrl: string, text: string): Promise<T[]> {
  const connection = await mysql.createConnection(connectionUrl);
  try {
    return (await connection.query(text))[0] as T[];
  } finally {
    await connection.end();
  }
}

describe('addMySqlHealth against the MariaDB server on this machine', () => {
  let available = false;
  beforeAll(async () => {
    available = await requireService('MySQL/MariaDB', mySqlUrl, 'MYSQL_URL');
  });

  it('is Healthy with a URL connection string and reports the server version, logging event 3128', async () => {
    if (!available) return;
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
  });

  it('uses one connection per run under SslMode Preferred, even when the server offers no TLS', async () => {
    if (!available) return;
    const [{ Value: sslOffered }] = await sql<{ Value: string }>(mySqlUrl, "SHOW VARIABLES LIKE 'have_ssl'");
    const proxy = await startTcpProxy({ host: sharedServer.Host, port: sharedServer.Port });
    try {
      const { entry } = await probeOnce({
        Dependencies: [
          { Id: 'db', ...sharedServer, Host: proxy.host, Port: proxy.port, SslMode: 'Preferred' },
        ],
      });
      expect(entry).toMatchObject({ status: 'Healthy', data: { tls: sslOffered === 'YES' } });
      expect(proxy.acceptedConnections).toBe(1);
      const deadline = Date.now() + 2000;
      while (proxy.openConnections > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(proxy.openConnections).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('is Healthy with a key=value connection string and the separate fields', async () => {
    if (!available) return;
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

  it('is Unhealthy with AUTHENTICATION_FAILED for a wrong password and for an unknown user', async () => {
    if (!available) return;
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
  });

  it('is Unhealthy with DATABASE_NOT_FOUND for an unknown database', async () => {
    if (!available) return;
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'db', ...sharedServer, Database: 'no_such_database_corekit' }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('DATABASE_NOT_FOUND');
    expect(entry.error?.message).toMatch(/Unknown database 'no_such_database_corekit'\. Check .*:Database/);
  });

  it('runs the configured HealthQuery and reports its failure as HEALTH_QUERY_FAILED', async () => {
    if (!available) return;
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'db', ...sharedServer, HealthQuery: 'SELECT * FROM no_such_table_corekit' }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('HEALTH_QUERY_FAILED');
    expect(entry.error?.message).toMatch(
      /no_such_table_corekit' doesn't exist \(ER_NO_SUCH_TABLE 1146\)\. Check .*:HealthQuery/,
    );
  });

  it('is Unhealthy with TLS_NOT_SUPPORTED when SslMode Required meets a server without TLS', async () => {
    if (!available) return;
    const [{ Value: sslOffered }] = await sql<{ Value: string }>(mySqlUrl, "SHOW VARIABLES LIKE 'have_ssl'");
    if (sslOffered === 'YES') {
      console.warn('the server at MYSQL_URL offers TLS; the TLS_NOT_SUPPORTED case needs one without');
      return;
    }
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'db', ...sharedServer, SslMode: 'Required' }] });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('TLS_NOT_SUPPORTED');
  });
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
    const builder = createEngineBuilder({ contentRoot, environment: {}, logger: captureLogger() });
    addMySqlHealth(builder, {
      Dependencies: [{ Id: 'db', ...login(), Username: 'probe', SslMode: 'Required' }],
    });
    const engine = builder.build();
    for (let run = 0; run < 25; run++) await engine.refreshDependencies();
    expect(engine.dependencies()[0].status).toBe('Healthy');
    let sessions = -1;
    const deadline = Date.now() + 3000;
    while (sessions !== 1 && Date.now() < deadline) {
      // The query's own session is the one left.
      [{ count: sessions }] = await sql<{ count: number }>(
        `${adminUrl()}?ssl={"rejectUnauthorized":false}`,
        "SELECT COUNT(*) AS count FROM information_schema.PROCESSLIST WHERE USER = 'probe'",
      );
    }
    expect(sessions).toBe(1);
  });

  it('turns Unhealthy on the next refresh after the server stops, and Healthy again after a restart', async () => {
    const logger = captureLogger();
    const builder = createEngineBuilder({ contentRoot, environment: {}, logger });
    addMySqlHealth(builder, { Dependencies: [{ Id: 'db', ...login(), SslMode: 'Required' }] });
    const engine = builder.build();
    await engine.refreshDependencies();
    expect(engine.dependencies()[0].status).toBe('Healthy');

    await server.stop();
    await engine.refreshDependencies();
    expect(engine.dependencies()[0]).toMatchObject({
      status: 'Unhealthy',
      timedOut: false,
      error: { code: 'ECONNREFUSED' },
    });

    await server.start();
    await engine.refreshDependencies();
    expect(engine.dependencies()[0].status).toBe('Healthy');
    expect(logger.records.map((record) => record.eventId).filter((id) => id === 3128 || id === 3129)).toEqual(
      [3128, 3129, 3128],
    );
  });
});
