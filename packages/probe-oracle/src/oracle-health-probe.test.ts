import {
  startOracleFakeServer,
  type OracleFakeServer,
  type OracleFakeServerOptions,
} from '@corekit/testing/fakes/oracle/oracle-fake-server';
import { pollUntil } from '@corekit/testing/poll-until';
import { transitionEventIds } from '@corekit/testing/probe-restart';
import { probeRunner } from '@corekit/testing/probe-runner';
import { addOracleHealth } from './add-oracle-health';
import type { OracleHealthOptions } from './oracle-health-options';
import { realOracle } from './real-oracle';

// Behaviour tests with the real oracledb thin driver. By default the upstream is the Oracle fake of
// @corekit/testing (listener, O5LOGON, execute), which also records what reached the wire. With
// ORACLE_CONNECTION_STRING set (see real-oracle.ts) the first group runs against that database instead.
const entryPath = 'Engine:Observability:DependencyHealth:Oracle:Dependencies:0';
const fakePassword = 'oracle-probe-password-58';

interface Upstream {
  readonly fake?: OracleFakeServer;
  readonly fields: { Host: string; Port: number; ServiceName: string; Username: string; Password: string };
  close(): Promise<void>;
}

async function startUpstream(options: OracleFakeServerOptions = {}): Promise<Upstream> {
  const real = realOracle();
  if (real) {
    return {
      fields: {
        Host: real.host,
        Port: real.port,
        ServiceName: real.serviceName,
        Username: real.username,
        Password: real.password,
      },
      close: async () => undefined,
    };
  }
  const fake = await startOracleFakeServer({
    credentials: { username: 'health', password: fakePassword },
    services: ['FREEPDB1', 'ORDERS'],
    ...options,
  });
  return {
    fake,
    fields: {
      Host: fake.host,
      Port: fake.port,
      ServiceName: 'ORDERS',
      Username: 'health',
      Password: fakePassword,
    },
    close: () => fake.close(),
  };
}

const { probeOnce, engineWith } = probeRunner<OracleHealthOptions>(addOracleHealth);

describe('addOracleHealth', () => {
  let upstream: Upstream;
  afterEach(async () => {
    await upstream?.close();
  });

  it('connects to Host:Port/ServiceName, logs in and runs HealthQuery on one dedicated connection', async () => {
    upstream = await startUpstream();
    const { entry } = await probeOnce({ Dependencies: [{ Id: 'ora', ...upstream.fields }] });
    expect(entry).toMatchObject({ status: 'Healthy', kind: 'Oracle', error: null });
    expect(entry.data).toMatchObject({
      rows: 1,
      serverVersion: expect.stringMatching(/^\d+\./),
      target: `${upstream.fields.Host}:${upstream.fields.Port}/${upstream.fields.ServiceName}`,
    });
    if (upstream.fake) {
      expect(upstream.fake.received.connections).toBe(1);
      expect(upstream.fake.received.services).toEqual(['ORDERS']);
      expect(upstream.fake.received.logins).toEqual([{ username: 'health', accepted: true }]);
      expect(upstream.fake.received.queries).toEqual(['SELECT 1 FROM DUAL']);
    }
  });

  it('is Unhealthy with AUTHENTICATION_FAILED and ORA-01017 when the password is refused, never showing it', async () => {
    upstream = await startUpstream();
    const wrong = 'definitely-not-the-password-71';
    const { entry, engine, logger } = await probeOnce({
      Dependencies: [{ Id: 'ora', ...upstream.fields, Password: wrong }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toContain('ORA-01017');
    expect(entry.error?.message).toContain(`${entryPath}:Username and ${entryPath}:Password`);
    expect(JSON.stringify([engine.dependencies(), engine.snapshot(), logger.records])).not.toContain(wrong);
  });

  it('is Unhealthy with SERVICE_NOT_REGISTERED (TNS-12514, NJS-518) naming ServiceName for a service the listener does not know', async () => {
    upstream = await startUpstream();
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'ora', ...upstream.fields, ServiceName: 'NOSUCHSERVICE' }],
    });
    expect(entry.error).toEqual({
      code: 'SERVICE_NOT_REGISTERED',
      message: expect.stringContaining('Service "NOSUCHSERVICE" is not registered with the listener'),
    });
    expect(entry.error?.message).toContain(`${entryPath}:ServiceName`);
    expect(entry.error?.message).not.toContain('CONNECTION_ID');
  });

  it('is Unhealthy with QUERY_FAILED naming HealthQuery when the query fails', async () => {
    upstream = await startUpstream({
      queryFailure: { code: 942, message: 'ORA-00942: table or view does not exist' },
    });
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'ora', ...upstream.fields, HealthQuery: 'SELECT 1 FROM health_table_missing' }],
    });
    expect(entry.error).toEqual({ code: 'QUERY_FAILED', message: expect.stringContaining('ORA-00942') });
    expect(entry.error?.message).toContain(`${entryPath}:HealthQuery`);
  });
});

describe('addOracleHealth against the fake only', () => {
  let fake: OracleFakeServer;
  afterEach(async () => {
    await fake.close();
  });

  it('destroys the socket of a session whose query never answers when the run times out', async () => {
    fake = await startOracleFakeServer({
      credentials: { username: 'health', password: fakePassword },
      hangOnQuery: true,
    });
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'ora',
          ConnectionString: fake.connectString,
          Username: 'health',
          Password: fakePassword,
          TimeoutSeconds: 1,
        },
      ],
    });
    expect(entry).toMatchObject({ status: 'Unhealthy', timedOut: true });
    expect(fake.received.queries).toEqual(['SELECT 1 FROM DUAL']);
    const open = await pollUntil(
      async () => fake.openConnections(),
      (count) => count === 0,
      { timeoutMs: 2000, intervalMs: 20 },
    );
    expect(open).toBe(0);
  });

  it('sends a descriptor ConnectionString as given and reports an unknown SID (TNS-12505) naming ConnectionString', async () => {
    fake = await startOracleFakeServer();
    const descriptor = `(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT=${fake.port}))(CONNECT_DATA=(SID=ORCL)))`;
    const { entry } = await probeOnce({
      Dependencies: [{ Id: 'ora', ConnectionString: descriptor, Username: 'health', Password: fakePassword }],
    });
    expect(entry.error).toEqual({
      code: 'SERVICE_NOT_REGISTERED',
      message: expect.stringContaining('SID "ORCL" is not registered'),
    });
    expect(entry.error?.message).toContain(`${entryPath}:ConnectionString`);
    expect(entry.data).toMatchObject({ target: `127.0.0.1:${fake.port}/ORCL` });
    expect(fake.received.connectDescriptors[0]).toContain('(SID=ORCL)');
  });

  it("is Unhealthy with LISTENER_REFUSED and the ORA code for the listener's other refusals", async () => {
    fake = await startOracleFakeServer({ refuseWith: 12519 });
    const { entry } = await probeOnce({
      Dependencies: [
        { Id: 'ora', ConnectionString: fake.connectString, Username: 'health', Password: fakePassword },
      ],
    });
    expect(entry.error).toEqual({ code: 'LISTENER_REFUSED', message: expect.stringContaining('ORA-12519') });
  });

  it('logs the relational type D event ids (3144 healthy, 3145 unhealthy) on status changes', async () => {
    fake = await startOracleFakeServer({ credentials: { username: 'health', password: fakePassword } });
    const { engine, logger } = engineWith({
      Dependencies: [
        { Id: 'ora', ConnectionString: fake.connectString, Username: 'health', Password: fakePassword },
      ],
    });
    await engine.refreshDependencies();
    await fake.close();
    await engine.refreshDependencies();
    expect(transitionEventIds(logger, 3144, 3145)).toEqual([3144, 3145]);
  });
});
