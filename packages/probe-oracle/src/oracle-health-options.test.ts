import { itRefusesEachOptions } from '@corekit/testing/configuration-refusals';
import { probeRegistration } from '@corekit/testing/probe-registration';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addOracleHealth } from './add-oracle-health';
import {
  oracleConnectString,
  oracleHealthOptionsSchema,
  type OracleHealthOptions,
} from './oracle-health-options';

const path = 'Engine:Observability:DependencyHealth:Oracle';

const { optionsError } = probeRegistration<OracleHealthOptions>(addOracleHealth, 'ora');
const registrationError = (dependencies: OracleHealthOptions['Dependencies']) =>
  optionsError({ Dependencies: dependencies });

describe('Oracle configuration', () => {
  it('defaults Port 1521 and HealthQuery SELECT 1 FROM DUAL, and builds an Easy Connect string from the fields', () => {
    const section = oracleHealthOptionsSchema.parse({
      Dependencies: [
        { Id: 'ora', Host: 'db.internal', ServiceName: 'ORDERS', Username: 'health', Password: 'p' },
      ],
    });
    expect(section.Dependencies[0]).toMatchObject({
      Port: 1521,
      HealthQuery: 'SELECT 1 FROM DUAL',
      Required: true,
      TimeoutSeconds: 5,
    });
    expect(oracleConnectString(section.Dependencies[0]!)).toBe('db.internal:1521/ORDERS');
    expect(oracleConnectString({ Host: '::1', Port: 1522, ServiceName: 'ORDERS' })).toBe('[::1]:1522/ORDERS');
  });

  it('binds from environment variables', () => {
    const { builder } = createTestEngineBuilder({
      environment: {
        Engine__Observability__DependencyHealth__Oracle__Dependencies__0__Id: 'ora',
        Engine__Observability__DependencyHealth__Oracle__Dependencies__0__ConnectionString:
          'db.internal/ORDERS',
        Engine__Observability__DependencyHealth__Oracle__Dependencies__0__Username: 'health',
        Engine__Observability__DependencyHealth__Oracle__Dependencies__0__Password: 'env-secret-12',
      },
    });
    addOracleHealth(builder);
    const engine = builder.build();
    expect(engine.dependencies()).toEqual([expect.objectContaining({ id: 'ora', kind: 'Oracle' })]);
    expect(JSON.stringify(engine.snapshot())).not.toContain('env-secret-12');
  });

  itRefusesEachOptions(
    registrationError,
    [
      [
        'neither ConnectionString nor Host',
        [{ Id: 'ora', Username: 'u', Password: 'p' }],
        `${path}:Dependencies:0:ConnectionString is required (or Host with ServiceName)`,
      ],
      [
        'both ConnectionString and Host',
        [{ Id: 'ora', ConnectionString: 'a/S', Host: 'b', ServiceName: 'S', Username: 'u', Password: 'p' }],
        `${path}:Dependencies:0:Host must not be set together with ConnectionString`,
      ],
      [
        'Host without ServiceName',
        [{ Id: 'ora', Host: 'db', Username: 'u', Password: 'p' }],
        `${path}:Dependencies:0:ServiceName is required with Host`,
      ],
      [
        'credentials in ConnectionString',
        [{ Id: 'ora', ConnectionString: 'scott/tiger@db:1521/ORDERS', Username: 'u', Password: 'p' }],
        `${path}:Dependencies:0:ConnectionString must not carry credentials`,
      ],
      [
        'an unbalanced descriptor',
        [{ Id: 'ora', ConnectionString: '(DESCRIPTION=(ADDRESS=(HOST=db)', Username: 'u', Password: 'p' }],
        `${path}:Dependencies:0:ConnectionString has unbalanced parentheses`,
      ],
      [
        'no Username',
        [{ Id: 'ora', Host: 'db', ServiceName: 'S', Password: 'p' }],
        `${path}:Dependencies:0:Username is required`,
      ],
      [
        'no Password',
        [{ Id: 'ora', Host: 'db', ServiceName: 'S', Username: 'u' }],
        `${path}:Dependencies:0:Password`,
      ],
      [
        'a placeholder Password',
        [{ Id: 'ora', Host: 'db', ServiceName: 'S', Username: 'u', Password: '<ORACLE_PASSWORD>' }],
        `${path}:Dependencies:0:Password still holds the placeholder`,
      ],
      [
        'a port out of range',
        [{ Id: 'ora', Host: 'db', ServiceName: 'S', Username: 'u', Password: 'p', Port: 99999 }],
        `${path}:Dependencies:0:Port must be a port number (1-65535)`,
      ],
      [
        'a negative timeout',
        [{ Id: 'ora', Host: 'db', ServiceName: 'S', Username: 'u', Password: 'p', TimeoutSeconds: -3 }],
        `${path}:Dependencies:0:TimeoutSeconds must be a positive integer`,
      ],
    ],
    ['tiger'],
  );
});
