import {
  connectionStringSetting,
  normalizeConnectionStringKey,
  parseConnectionString,
  validateConnectionString,
} from './connection-string';

describe('parseConnectionString', () => {
  it('reads the parts of a URL connection string, decoding escapes, with query parameters as settings', () => {
    const parsed = parseConnectionString(
      'postgres://app%40eu:p%3Ass%2Fw@db.internal:6432/orders%20db?sslmode=require&Application_Name=probe',
    );
    expect(parsed.form).toBe('url');
    expect(parsed.scheme).toBe('postgres');
    expect(Object.fromEntries(parsed.settings)).toEqual({
      host: 'db.internal',
      port: '6432',
      database: 'orders db',
      username: 'app@eu',
      password: 'p:ss/w',
      sslmode: 'require',
      applicationname: 'probe',
    });
  });

  it('reads an IPv6 URL host without brackets and leaves absent parts out', () => {
    const parsed = parseConnectionString('mysql://[::1]');
    expect(Object.fromEntries(parsed.settings)).toEqual({ host: '::1' });
  });

  it('reads key=value pairs with normalized keys, quoted values, doubled quotes and stray semicolons', () => {
    const parsed = parseConnectionString(
      ' Host = db ; Port=5432;;SSL Mode=VerifyFull; Password="a;b""c" ; User_Id=\'o\'\'neil\';',
    );
    expect(parsed.form).toBe('key-value');
    expect(Object.fromEntries(parsed.settings)).toEqual({
      host: 'db',
      port: '5432',
      sslmode: 'VerifyFull',
      password: 'a;b"c',
      userid: "o'neil",
    });
  });

  it('keeps = inside an unquoted value and lets a later duplicate key win', () => {
    const parsed = parseConnectionString('Password=abc==;Host=a;host=b');
    expect(parsed.settings.get('password')).toBe('abc==');
    expect(parsed.settings.get('host')).toBe('b');
  });

  it.each([
    ['', /empty/],
    ['Host=db;garbage;Port=1', /key=value/],
    ['=x', /empty key/],
    ['Password="unterminated', /never closed/],
    ['Password="x" y;Host=a', /followed by ;/],
    ['postgres://user:pa ss@h:99999/db', /URL/],
  ])('rejects %j with CONNECTION_STRING_INVALID and a message that does not repeat it', (text, why) => {
    let caught: unknown;
    try {
      parseConnectionString(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'CONNECTION_STRING_INVALID', message: expect.stringMatching(why) });
    if (text.includes('unterminated')) expect((caught as Error).message).not.toContain('unterminated');
  });

  it('finds the first alias present, treating empty values as absent', () => {
    const parsed = parseConnectionString('Server=;Data Source=db1;Host=db2');
    expect(connectionStringSetting(parsed, ['server', 'Data Source', 'host'])).toBe('db1');
    expect(connectionStringSetting(parsed, ['port'])).toBeUndefined();
    expect(normalizeConnectionStringKey('Allow-Public_Key Retrieval')).toBe('allowpublickeyretrieval');
  });
});

describe('validateConnectionString', () => {
  const rules = {
    schemes: ['postgresql', 'postgres'],
    knownKeys: new Set(['host', 'port', 'password', 'pooling']),
    supported: 'Host, Port, Password',
  };
  const collect = (text: string | undefined) => {
    const issues: string[] = [];
    const parsed = validateConnectionString(text, rules, (field, message) =>
      issues.push(`${field} ${message}`),
    );
    return { parsed, issues };
  };

  it('accepts known keys and schemes', () => {
    expect(collect('Host=db;Port=5432;Pooling=false').issues).toEqual([]);
    expect(collect('postgres://db:5432').parsed?.form).toBe('url');
    expect(collect(undefined)).toEqual({ parsed: undefined, issues: [] });
  });

  it('reports an unknown key, naming the supported ones, and a foreign scheme', () => {
    expect(collect('Host=db;Flavour=strawberry').issues).toEqual([
      'ConnectionString has the unsupported key "flavour"; supported: Host, Port, Password',
    ]);
    expect(collect('mysql://db:3306').issues).toEqual([
      'ConnectionString must use the postgresql:// or postgres:// scheme, got mysql://',
    ]);
  });
});
