import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngineBuilder } from '@corekit/engine-core';
import { captureLogger } from '@corekit/testing/capture-logger';
import { refusedPort } from '@corekit/testing/network-helpers';
import { addPostgresHealth } from './add-postgres-health';
import { resolvePostgresConnection } from './postgres-connection-settings';
import { postgresHealthOptionsSchema, type PostgresHealthOptions } from './postgres-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-postgres-unit-'));

function entryOf(dependency: Record<string, unknown>) {
  return postgresHealthOptionsSchema.parse({ Dependencies: [{ Id: 'db', ...dependency }] }).Dependencies[0];
}

function registrationError(options: PostgresHealthOptions): Error & { code?: string } {
  const builder = createEngineBuilder({ contentRoot, environment: {}, logger: captureLogger() });
  try {
    addPostgresHealth(builder, options);
  } catch (error) {
    return error as Error;
  }
  throw new Error('addPostgresHealth accepted the options');
}

describe('PostgreSQL connection settings', () => {
  it('reads every part of a URL connection string, with libpq spellings', () => {
    const settings = resolvePostgresConnection(
      entryOf({
        ConnectionString:
          'postgresql://probe:s%3Bcret@db.internal:6432/orders?sslmode=verify-full&sslrootcert=/etc/ca.pem&application_name=health',
      }),
    );
    expect(settings).toEqual({
      host: 'db.internal',
      port: 6432,
      database: 'orders',
      username: 'probe',
      password: 's;cret',
      sslMode: 'VerifyFull',
      sslRootCertificate: '/etc/ca.pem',
      applicationName: 'health',
    });
  });

  it('reads a key=value connection string, ignores pooling keys, and lets the separate fields win', () => {
    const settings = resolvePostgresConnection(
      entryOf({
        ConnectionString:
          'Server=db1;Port=5433;Database=orders;User Id=app;Password="p;w";SSL Mode=Require;Pooling=false;Timeout=15',
        Host: 'db2',
        Password: 'from-the-environment',
        SslMode: 'disable',
      }),
    );
    expect(settings).toEqual({
      host: 'db2',
      port: 5433,
      database: 'orders',
      username: 'app',
      password: 'from-the-environment',
      sslMode: 'Disable',
    });
  });

  it('defaults the port to 5432, the database to the user name and SslMode to Prefer', () => {
    expect(resolvePostgresConnection(entryOf({ Host: 'db', Username: 'reporting' }))).toEqual({
      host: 'db',
      port: 5432,
      database: 'reporting',
      username: 'reporting',
      sslMode: 'Prefer',
    });
    expect(entryOf({ Host: 'db', Username: 'u' }).HealthQuery).toBe('SELECT 1');
  });

  it.each([
    [{ Username: 'u' }, 'Dependencies:0:Host', /is required/],
    [{ Host: 'db' }, 'Dependencies:0:Username', /is required/],
    [
      { ConnectionString: 'Host=db;Username=u;Frobnicate=yes' },
      'Dependencies:0:ConnectionString',
      /unsupported key "frobnicate"/,
    ],
    [
      { ConnectionString: 'mysql://u@db/x' },
      'Dependencies:0:ConnectionString',
      /postgresql:\/\/ or postgres:\/\//,
    ],
    [
      { ConnectionString: 'Host=db;Username=u;Password=<DB_PASSWORD>' },
      'Dependencies:0:ConnectionString',
      /placeholder/,
    ],
    [
      { ConnectionString: 'Host=db;Username=u;SslMode=sometimes' },
      'Dependencies:0:ConnectionString',
      /SslMode/,
    ],
    [{ ConnectionString: 'Host=db;Username=u;Port=http' }, 'Dependencies:0:ConnectionString', /Port/],
    [
      { ConnectionString: 'Host=db;Username=u;Password="open' },
      'Dependencies:0:ConnectionString',
      /never closed/,
    ],
    [
      { Host: 'db', Username: 'u', SslMode: 'sometimes' },
      'Dependencies:0:SslMode',
      /Disable, Allow, Prefer, Require, VerifyCA, VerifyFull/,
    ],
    [{ Host: 'db', Username: 'u', Password: '<SECRET>' }, 'Dependencies:0:Password', /placeholder/],
    [{ Host: 'db', Username: 'u', HealthQuery: '  ' }, 'Dependencies:0:HealthQuery', /SQL statement/],
  ])('refuses %j with CONFIGURATION_INVALID naming the key path', (dependency, key, why) => {
    const error = registrationError({ Dependencies: [{ Id: 'db', ...dependency } as never] });
    expect(error.code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toContain(`Engine:Observability:DependencyHealth:PostgreSql:${key}`);
    expect(error.message).toMatch(why);
    expect(error.message).not.toContain('DB_PASSWORD>;');
  });

  it('keeps a password that only appears inside the ConnectionString out of every output', async () => {
    const port = await refusedPort();
    const logger = captureLogger();
    const builder = createEngineBuilder({ contentRoot, environment: {}, logger });
    addPostgresHealth(builder, {
      Dependencies: [
        {
          Id: 'db',
          ConnectionString: `Host=127.0.0.1;Port=${port};Username=app;Password="quoted;pass""word"`,
        },
      ],
    });
    const engine = builder.build();
    await engine.refreshDependencies();
    expect(engine.dependencies()[0]).toMatchObject({
      status: 'Unhealthy',
      error: { code: 'ECONNREFUSED' },
      data: { target: `127.0.0.1:${port}/app` },
    });
    const published = JSON.stringify([
      engine.dependencies(),
      engine.snapshot(),
      engine.diagnostics([]),
      logger.records,
    ]);
    expect(published).not.toContain('quoted;pass"word');
  });
});
