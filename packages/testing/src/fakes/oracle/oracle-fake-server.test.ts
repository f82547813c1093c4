import oracledb from 'oracledb';

import { startOracleFakeServer, type OracleFakeServer } from './oracle-fake-server';

async function connect(connectString: string, password = 'health-password') {
  const connection = await oracledb.getConnection({
    user: 'health',
    password,
    connectString,
    connectTimeout: 2,
  });
  try {
    const result = await connection.execute('SELECT 1 FROM DUAL');
    return { rows: result.rows, version: connection.oracleServerVersionString };
  } finally {
    await connection.close();
  }
}

describe('Oracle fake database with the real oracledb thin driver', () => {
  let server: OracleFakeServer;
  afterEach(async () => {
    await server.close();
  });

  it('accepts a registered service, logs in with O5LOGON and answers SELECT 1 FROM DUAL', async () => {
    server = await startOracleFakeServer();
    await expect(connect(server.connectString)).resolves.toEqual({ rows: [[1]], version: '19.0.0.0.0' });
    expect(server.received.versions).toEqual([319]);
    expect(server.received.connectDescriptors[0]).toContain('(SERVICE_NAME=FREEPDB1)');
    expect(server.received.logins).toEqual([{ username: 'health', accepted: true }]);
    expect(server.received.queries).toEqual(['SELECT 1 FROM DUAL']);
  });

  it('refuses a wrong password with ORA-01017', async () => {
    server = await startOracleFakeServer();
    await expect(connect(server.connectString, 'wrong-password')).rejects.toMatchObject({
      code: 'ORA-01017',
      message: expect.stringContaining('ORA-01017: invalid credential or not authorized; logon denied'),
    });
    expect(server.received.logins).toEqual([{ username: 'health', accepted: false }]);
  });

  it('returns configured rows of numbers and strings, and a configured query failure', async () => {
    server = await startOracleFakeServer({
      result: {
        columns: ['N', 'BANNER'],
        rows: [
          [-1234567, 'Oracle Database 19c'],
          [0, 'second'],
        ],
      },
    });
    await expect(connect(server.connectString)).resolves.toMatchObject({
      rows: [
        [-1234567, 'Oracle Database 19c'],
        [0, 'second'],
      ],
    });
    await server.close();
    server = await startOracleFakeServer({
      queryFailure: { code: 942, message: 'ORA-00942: table or view does not exist' },
    });
    await expect(connect(server.connectString)).rejects.toMatchObject({ code: 'ORA-00942' });
  });

  it('closes every connection once the driver has logged off', async () => {
    server = await startOracleFakeServer();
    await connect(server.connectString);
    for (let attempt = 0; attempt < 100 && server.openConnections() > 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.openConnections()).toBe(0);
  });

  it('refuses an unregistered service with TNS-12514, which the driver reports as NJS-518', async () => {
    server = await startOracleFakeServer();
    await expect(connect(`127.0.0.1:${server.port}/ORDERS`)).rejects.toMatchObject({
      code: 'NJS-518',
      message: expect.stringContaining(
        `Service "ORDERS" is not registered with the listener at host 127.0.0.1 port ${server.port}`,
      ),
    });
    expect(server.received.services).toEqual(['ORDERS']);
  });

  it('refuses an unknown SID with TNS-12505 (NJS-519)', async () => {
    server = await startOracleFakeServer();
    await expect(
      connect(
        `(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT=${server.port}))(CONNECT_DATA=(SID=ORCL)))`,
      ),
    ).rejects.toMatchObject({ code: 'NJS-519' });
    expect(server.received.services).toEqual(['ORCL']);
  });

  it('reads connect data longer than the CONNECT packet holds from the DATA packet that follows', async () => {
    server = await startOracleFakeServer({ refuseWith: 12519 });
    const longService = `HEALTH_${'X'.repeat(200)}`;
    await expect(connect(`127.0.0.1:${server.port}/${longService}`)).rejects.toMatchObject({
      code: 'NJS-511',
      message: expect.stringContaining('ORA-12519'),
    });
    expect(server.received.services).toEqual([longService]);
  });
});
