import { itRefusesEachOptions } from '@corekit/testing/configuration-refusals';
import { probeRegistration } from '@corekit/testing/probe-registration';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addMssqlHealth } from './add-mssql-health';
import { mssqlHealthOptionsSchema, type MssqlHealthOptions } from './mssql-health-options';

const path = 'Engine:Observability:DependencyHealth:SqlServer';

const { optionsError } = probeRegistration<MssqlHealthOptions>(addMssqlHealth, 'sql');
const registrationError = (dependencies: MssqlHealthOptions['Dependencies']) =>
  optionsError({ Dependencies: dependencies });

describe('SqlServer configuration', () => {
  it('defaults Port 1433, Encrypt true, TrustServerCertificate false and HealthQuery SELECT 1', () => {
    const section = mssqlHealthOptionsSchema.parse({
      Dependencies: [{ Id: 'sql', Host: 'db', Username: 'health' }],
    });
    expect(section.Dependencies[0]).toMatchObject({
      Port: 1433,
      Encrypt: true,
      TrustServerCertificate: false,
      HealthQuery: 'SELECT 1',
      Required: true,
      TimeoutSeconds: 5,
    });
  });

  it('binds from environment variables and registers the connection string password as a secret', () => {
    const { builder } = createTestEngineBuilder({
      environment: {
        Engine__Observability__DependencyHealth__SqlServer__Dependencies__0__Id: 'sql',
        Engine__Observability__DependencyHealth__SqlServer__Dependencies__0__ConnectionString:
          'Server=db,1433;User Id=health;Password=env-secret-83',
        Engine__Observability__DependencyHealth__SqlServer__Dependencies__0__Encrypt: 'false',
      },
    });
    addMssqlHealth(builder);
    const engine = builder.build();
    expect(engine.dependencies()).toEqual([expect.objectContaining({ id: 'sql', kind: 'SqlServer' })]);
    expect(JSON.stringify([engine.dependencies(), engine.snapshot()])).not.toContain('env-secret-83');
  });

  itRefusesEachOptions(registrationError, [
    [
      'neither ConnectionString nor Host',
      [{ Id: 'sql', Username: 'u' }],
      `${path}:Dependencies:0:ConnectionString is required (or Host)`,
    ],
    [
      'both ConnectionString and Host',
      [{ Id: 'sql', ConnectionString: 'Server=a;User Id=u', Host: 'b' }],
      `${path}:Dependencies:0:Host must not be set together with ConnectionString`,
    ],
    [
      'a connection string without a server',
      [{ Id: 'sql', ConnectionString: 'Database=x;User Id=u' }],
      `${path}:Dependencies:0:ConnectionString names no server`,
    ],
    [
      'an unreadable connection string',
      [{ Id: 'sql', ConnectionString: 'Server=db;Encrypt=maybe;User Id=u' }],
      `${path}:Dependencies:0:ConnectionString is not valid: Encrypt must be true or false`,
    ],
    [
      'no login anywhere',
      [{ Id: 'sql', Host: 'db' }],
      `${path}:Dependencies:0:Username is required (or User Id in ConnectionString)`,
    ],
    [
      'a port out of range',
      [{ Id: 'sql', Host: 'db', Username: 'u', Port: 0 }],
      `${path}:Dependencies:0:Port must be a port number (1-65535)`,
    ],
    [
      'a non-boolean Encrypt',
      [{ Id: 'sql', Host: 'db', Username: 'u', Encrypt: 'sometimes' as never }],
      `${path}:Dependencies:0:Encrypt must be true or false`,
    ],
    [
      'a placeholder password',
      [{ Id: 'sql', Host: 'db', Username: 'u', Password: '<SQL_PASSWORD>' }],
      `${path}:Dependencies:0:Password still holds the placeholder`,
    ],
    [
      'a zero timeout',
      [{ Id: 'sql', Host: 'db', Username: 'u', TimeoutSeconds: 0 }],
      `${path}:Dependencies:0:TimeoutSeconds must be a positive integer`,
    ],
  ]);

  it('never repeats a connection string in a configuration error, since it may hold the password', () => {
    const error = registrationError([
      { Id: 'sql', ConnectionString: 'Database=x;User Id=u;Password=never-shown-29' },
    ]);
    expect(error.message).toContain(`${path}:Dependencies:0:ConnectionString names no server`);
    expect(error.message).not.toContain('never-shown-29');
  });
});
