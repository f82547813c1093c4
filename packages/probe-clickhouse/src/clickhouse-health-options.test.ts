import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addClickHouseHealth } from './add-clickhouse-health';
import { resolveClickHouseTarget } from './clickhouse-health-options';

const prefix = 'Engine:Observability:DependencyHealth:ClickHouse:Dependencies:0';

describe('ClickHouse probe options', () => {
  it('merges a connection string with the separate fields, the fields winning', () => {
    expect(
      resolveClickHouseTarget({ ConnectionString: 'https://reader:p%40ss@ch.example.com/analytics' }),
    ).toEqual({
      protocol: 'https',
      host: 'ch.example.com',
      port: 8443,
      database: 'analytics',
      username: 'reader',
      password: 'p@ss',
    });
    expect(
      resolveClickHouseTarget({
        ConnectionString: 'Host=ch;Port=9123;Protocol=https;User=reader;Pwd=x',
        Database: 'logs',
        Port: 8124,
      }),
    ).toEqual({
      protocol: 'https',
      host: 'ch',
      port: 8124,
      database: 'logs',
      username: 'reader',
      password: 'x',
    });
    expect(resolveClickHouseTarget({ Host: 'ch' })).toEqual({
      protocol: 'http',
      host: 'ch',
      port: 8123,
      database: 'default',
      username: 'default',
      password: '',
    });
  });

  it.each([
    [{ Id: 'x' }, `${prefix}:Host is required when ConnectionString is not set`],
    [{ Id: 'x', ConnectionString: 'Port=8123' }, `${prefix}:ConnectionString names no host`],
    [
      { Id: 'x', Host: 'ch', Password: '<CLICKHOUSE_PASSWORD>' },
      `${prefix}:Password still holds the placeholder`,
    ],
    [{ Id: 'x', Host: 'ch', Port: 70000 }, `${prefix}:Port must be a port number`],
    [{ Id: 'x', Host: 'ch', TimeoutSeconds: 0 }, `${prefix}:TimeoutSeconds must be a positive integer`],
  ])('fails at registration for %j with the key path', (entry, message) => {
    const builder = createTestEngineBuilder().builder;
    expect(() => addClickHouseHealth(builder, { Dependencies: [entry as never] })).toThrow(
      expect.objectContaining({ code: 'CONFIGURATION_INVALID', message: expect.stringContaining(message) }),
    );
  });

  it('registers the connection string password as a secret, so a log record naming it is redacted', () => {
    const { builder, logger } = createTestEngineBuilder();
    addClickHouseHealth(builder, {
      Dependencies: [{ Id: 'x', ConnectionString: 'Host=ch;Password=kv-secret-value' }],
    });
    builder.logger.log({ level: 'info', eventId: 3152, message: 'connecting with kv-secret-value' });
    expect(logger.text()).not.toContain('kv-secret-value');
  });
});
