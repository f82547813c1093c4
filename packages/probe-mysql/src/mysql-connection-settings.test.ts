import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngineBuilder } from '@corekit/engine-core';
import { captureLogger } from '@corekit/testing/capture-logger';
import { refusedPort } from '@corekit/testing/network-helpers';
import { addMySqlHealth } from './add-mysql-health';
import { resolveMySqlConnection } from './mysql-connection-settings';
import { mySqlHealthOptionsSchema, type MySqlHealthOptions } from './mysql-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-mysql-unit-'));

function entryOf(dependency: Record<string, unknown>) {
  return mySqlHealthOptionsSchema.parse({ Dependencies: [{ Id: 'db', ...dependency }] }).Dependencies[0];
}

function registrationError(options: MySqlHealthOptions): Error & { code?: string } {
  const builder = createEngineBuilder({ contentRoot, environment: {}, logger: captureLogger() });
  try {
    addMySqlHealth(builder, options);
  } catch (error) {
    return error as Error;
  }
  throw new Error('addMySqlHealth accepted the options');
}

describe('MySQL connection settings', () => {
  it('reads a URL connection string with the mysql client spellings', () => {
    expect(
      resolveMySqlConnection(
        entryOf({
          ConnectionString:
            'mysql://probe:p%40ss@db.internal:3307/orders?ssl-mode=VERIFY_IDENTITY&ssl-ca=/etc/ca.pem',
        }),
      ),
    ).toEqual({
      host: 'db.internal',
      port: 3307,
      database: 'orders',
      username: 'probe',
      password: 'p@ss',
      sslMode: 'VerifyFull',
      sslRootCertificate: '/etc/ca.pem',
      allowPublicKeyRetrieval: false,
    });
  });

  it('reads a MySqlConnector key=value string, ignores pooling keys, and lets the separate fields win', () => {
    const settings = resolveMySqlConnection(
      entryOf({
        ConnectionString:
          'Data Source=db1;Port=3310;Initial Catalog=orders;Uid=app;Pwd=one;SslMode=Required;AllowPublicKeyRetrieval=True;Pooling=false;Connection Timeout=3',
        Host: 'db2',
        Password: 'from-the-environment',
        SslMode: 'disabled',
      }),
    );
    expect(settings).toEqual({
      host: 'db2',
      port: 3310,
      database: 'orders',
      username: 'app',
      password: 'from-the-environment',
      sslMode: 'None',
      allowPublicKeyRetrieval: true,
    });
  });

  it('defaults the port to 3306, SslMode to Preferred, no database, AllowPublicKeyRetrieval false and SELECT 1', () => {
    const entry = entryOf({ Host: 'db', Username: 'app' });
    expect(resolveMySqlConnection(entry)).toEqual({
      host: 'db',
      port: 3306,
      username: 'app',
      sslMode: 'Preferred',
      allowPublicKeyRetrieval: false,
    });
    expect(entry.HealthQuery).toBe('SELECT 1');
  });

  it.each([
    [{ Username: 'u' }, 'Dependencies:0:Host', /is required/],
    [{ Host: 'db' }, 'Dependencies:0:Username', /is required/],
    [
      { ConnectionString: 'Server=db;Uid=u;TreatTinyAsBoolean=false' },
      'Dependencies:0:ConnectionString',
      /unsupported key "treattinyasboolean"/,
    ],
    [
      { ConnectionString: 'postgres://u@db/x' },
      'Dependencies:0:ConnectionString',
      /mysql:\/\/ or mariadb:\/\//,
    ],
    [
      { ConnectionString: 'Server=db;Uid=u;Pwd=<MYSQL_PASSWORD>' },
      'Dependencies:0:ConnectionString',
      /placeholder/,
    ],
    [{ ConnectionString: 'Server=db;Uid=u;SslMode=sometimes' }, 'Dependencies:0:ConnectionString', /SslMode/],
    [
      { ConnectionString: 'Server=db;Uid=u;AllowPublicKeyRetrieval=maybe' },
      'Dependencies:0:ConnectionString',
      /AllowPublicKeyRetrieval/,
    ],
    [
      { Host: 'db', Username: 'u', SslMode: 'Prefer' },
      'Dependencies:0:SslMode',
      /None, Preferred, Required, VerifyCA, VerifyFull/,
    ],
    [
      { Host: 'db', Username: 'u', AllowPublicKeyRetrieval: 'yes' },
      'Dependencies:0:AllowPublicKeyRetrieval',
      /true or false/,
    ],
    [{ Host: 'db', Username: 'u', Password: '<SECRET>' }, 'Dependencies:0:Password', /placeholder/],
  ])('refuses %j with CONFIGURATION_INVALID naming the key path', (dependency, key, why) => {
    const error = registrationError({ Dependencies: [{ Id: 'db', ...dependency } as never] });
    expect(error.code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toContain(`Engine:Observability:DependencyHealth:MySql:${key}`);
    expect(error.message).toMatch(why);
  });

  it('keeps a password that only appears inside the ConnectionString out of every output', async () => {
    const port = await refusedPort();
    const logger = captureLogger();
    const builder = createEngineBuilder({ contentRoot, environment: {}, logger });
    addMySqlHealth(builder, {
      Dependencies: [
        { Id: 'db', ConnectionString: `Server=127.0.0.1;Port=${port};Uid=app;Pwd='semi;colon''quote'` },
      ],
    });
    const engine = builder.build();
    await engine.refreshDependencies();
    expect(engine.dependencies()[0]).toMatchObject({
      status: 'Unhealthy',
      error: { code: 'ECONNREFUSED' },
      data: { target: `127.0.0.1:${port}` },
    });
    const published = JSON.stringify([
      engine.dependencies(),
      engine.snapshot(),
      engine.diagnostics([]),
      logger.records,
    ]);
    expect(published).not.toContain("semi;colon'quote");
  });
});
