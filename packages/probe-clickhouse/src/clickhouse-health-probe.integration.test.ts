import { probeRunner } from '@corekit/testing/probe-runner';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addClickHouseHealth } from './add-clickhouse-health';
import type { ClickHouseHealthOptions } from './clickhouse-health-options';
import {
  clickHousePassword,
  clickHouseUrl,
  clickHouseUser,
  ensureClickHouse,
} from './clickhouse-test-server';

const server = new URL(clickHouseUrl);
const host = server.hostname;
const port = Number(server.port || 8123);

const { probeOnce } = probeRunner<ClickHouseHealthOptions>(addClickHouseHealth);

describe('addClickHouseHealth against a real ClickHouse server', () => {
  beforeAll(() => ensureClickHouse());

  it('is Healthy with Host/Port and the default user without a password', async () => {
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'analytics', Host: host, Port: port }] });
    expect(entry).toMatchObject({
      status: 'Healthy',
      kind: 'ClickHouse',
      data: { rowCount: 1, target: `http://${host}:${port}/default` },
    });
  });

  it('is Healthy with a password user given in a key=value or URL connection string, and never shows the password', async () => {
    const keyValue = `Host=${host};Port=${port};Database=system;Username=${clickHouseUser};Password=${clickHousePassword}`;
    const url = `http://${clickHouseUser}:${encodeURIComponent(clickHousePassword)}@${host}:${port}/system`;
    const first = await probeOnce({ Dependencies: [{ Id: 'a', ConnectionString: keyValue }] });
    const second = await probeOnce({ Dependencies: [{ Id: 'b', ConnectionString: url }] });
    for (const run of [first, second]) {
      expect(run.entry.status).toBe('Healthy');
      expect(run.entry.data.target).toBe(`http://${host}:${port}/system`);
      expect(
        JSON.stringify([run.engine.dependencies(), run.engine.snapshot(), run.logger.records]),
      ).not.toContain(clickHousePassword);
    }
  });

  it('is Unhealthy with AUTHENTICATION_FAILED for a wrong password, naming Username and Password', async () => {
    const { entry, engine, logger } = await probeOnce({
      Dependencies: [
        { Id: 'analytics', Host: host, Port: port, Username: clickHouseUser, Password: 'not-the-password-5' },
      ],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toMatch(/Check Username and Password/);
    expect(JSON.stringify([engine.dependencies(), engine.snapshot(), logger.records])).not.toContain(
      'not-the-password-5',
    );
  });

  it('is Unhealthy with UNKNOWN_DATABASE for a database that does not exist', async () => {
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'analytics', Host: host, Port: port, Database: 'no_such_database_42' }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('UNKNOWN_DATABASE');
    expect(entry.error?.message).toContain('no_such_database_42');
  });

  it('runs a custom HealthQuery, and reports a failing one as HEALTH_QUERY_FAILED', async () => {
    const custom = await probeOnce({
      Dependencies: [
        { Id: 'analytics', Host: host, Port: port, HealthQuery: 'SELECT number FROM system.numbers LIMIT 3' },
      ],
    });
    expect(custom.entry).toMatchObject({ status: 'Healthy', data: { rowCount: 3 } });
    const broken = await probeOnce({
      Dependencies: [
        { Id: 'analytics', Host: host, Port: port, HealthQuery: 'SELECT * FROM system.no_such_table_7' },
      ],
    });
    expect(broken.entry.status).toBe('Unhealthy');
    expect(broken.entry.error?.code).toBe('HEALTH_QUERY_FAILED');
  });

  it('logs the columnar analytics event ids (3152 healthy, 3153 unhealthy)', async () => {
    const { builder, logger } = createTestEngineBuilder();
    addClickHouseHealth(builder, {
      Dependencies: [
        { Id: 'up', Host: host, Port: port },
        { Id: 'down', Host: host, Port: port, Database: 'no_such_database_42' },
      ],
    });
    await builder.build().refreshDependencies();
    expect(
      logger.records
        .filter((record) => record.eventId === 3152 || record.eventId === 3153)
        .map((record) => [record.dependencyId, record.eventId])
        .sort(),
    ).toEqual([
      ['down', 3153],
      ['up', 3152],
    ]);
  });
});
