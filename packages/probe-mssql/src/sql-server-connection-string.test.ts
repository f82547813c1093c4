import { readSqlServerConnectionString } from './sql-server-connection-string';

describe('readSqlServerConnectionString', () => {
  it('reads the ADO.NET keys and their synonyms in any case and spacing', () => {
    expect(
      readSqlServerConnectionString(
        'Server=tcp:db.internal,1444;Database=orders;User Id=health;Password=p;Encrypt=True;TrustServerCertificate=False',
      ),
    ).toEqual({
      host: 'db.internal',
      port: 1444,
      database: 'orders',
      username: 'health',
      password: 'p',
      encrypt: true,
      trustServerCertificate: false,
    });
    expect(
      readSqlServerConnectionString(
        'data source=db;initial catalog=sales;uid=u;pwd=x;encrypt=no;Trust Server Certificate=yes',
      ),
    ).toEqual({
      host: 'db',
      database: 'sales',
      username: 'u',
      password: 'x',
      encrypt: false,
      trustServerCertificate: true,
    });
  });

  it('keeps quoted values intact, semicolons included', () => {
    expect(readSqlServerConnectionString("Server=db;User Id=u;Password='a;b''c'").password).toBe("a;b'c");
  });

  it('reads a named instance, the local server spellings and Encrypt=strict (TDS 8)', () => {
    expect(readSqlServerConnectionString('Server=db\\REPORTING;Encrypt=strict')).toEqual({
      host: 'db',
      instanceName: 'REPORTING',
      encrypt: 'strict',
    });
    expect(readSqlServerConnectionString('Server=(local)').host).toBe('localhost');
    expect(readSqlServerConnectionString('Server=.,1500')).toEqual({ host: 'localhost', port: 1500 });
  });

  it('reads a sqlserver:// URL', () => {
    expect(readSqlServerConnectionString('sqlserver://health:s%3Bcret@db:1450/orders?encrypt=false')).toEqual(
      {
        host: 'db',
        port: 1450,
        database: 'orders',
        username: 'health',
        password: 's;cret',
        encrypt: false,
      },
    );
  });

  it.each([
    ['Server=db,99999', 'the port after the comma in Server must be 1-65535'],
    ['Server=db;Encrypt=maybe', 'Encrypt must be true or false'],
    ['postgres://db/orders', 'a URL must use the sqlserver:// or mssql:// scheme'],
    ['Server=db;Password="open', 'never closed'],
  ])('rejects %s without repeating it', (text, reason) => {
    expect(() => readSqlServerConnectionString(text)).toThrow(
      expect.objectContaining({
        code: 'CONNECTION_STRING_INVALID',
        message: expect.stringContaining(reason),
      }),
    );
  });
});
