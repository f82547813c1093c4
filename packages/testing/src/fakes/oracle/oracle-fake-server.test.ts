import oracledb from 'oracledb';

import { startOracleFakeServer, type OracleFakeServer } from './oracle-fake-server';

async function connect(connectString: string) {
  const connection = await oracledb.getConnection({ user: 'health', password: 'fake-oracle-password', connectString, connectTimeout: 2 });
  await connection.close();
}

describe('Oracle fake listener with the real oracledb thin driver', () => {
  let server: OracleFakeServer;
  afterEach(async () => {
    await server.close();
  });

  it('refuses an unregistered service with TNS-12514, which the driver reports as NJS-518', async () => {
    server = await startOracleFakeServer();
    await expect(connect(`127.0.0.1:${server.port}/FREEPDB1`)).rejects.toMatchObject({
      code: 'NJS-518',
      message: expect.stringContaining(`Service "FREEPDB1" is not registered with the listener at host 127.0.0.1 port ${server.port}`),
    });
    expect(server.received.services).toEqual(['FREEPDB1']);
    expect(server.received.versions).toEqual([319]);
    expect(server.received.connectDescriptors[0]).toContain('(SERVICE_NAME=FREEPDB1)');
  });

  it('refuses an unknown SID with TNS-12505 (NJS-519)', async () => {
    server = await startOracleFakeServer();
    await expect(connect(`(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT=${server.port}))(CONNECT_DATA=(SID=ORCL)))`)).rejects.toMatchObject({ code: 'NJS-519' });
    expect(server.received.services).toEqual(['ORCL']);
  });

  it('reads connect data longer than the CONNECT packet holds from the DATA packet that follows', async () => {
    server = await startOracleFakeServer({ refuseWith: 12519 });
    const longService = `HEALTH_${'X'.repeat(200)}`;
    await expect(connect(`127.0.0.1:${server.port}/${longService}`)).rejects.toMatchObject({ code: 'NJS-511', message: expect.stringContaining('ORA-12519') });
    expect(server.received.services).toEqual([longService]);
  });
});
