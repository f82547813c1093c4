import { redactText, redactValue, secretsInConnectionString, stripUrlCredentials } from './redaction';

describe('secret redaction', () => {
  it('finds passwords in URLs (raw and decoded), key=value strings and token query parameters', () => {
    expect(secretsInConnectionString('postgres://app:p%40ss@db/x')).toEqual(['p%40ss', 'p@ss']);
    expect(secretsInConnectionString('Host=db;Username=app;Password="a;b";Pwd=c')).toEqual(['a;b', 'c']);
    expect(secretsInConnectionString('http://consul:8500/?token=tok-1&dc=eu')).toEqual(['tok-1']);
    expect(secretsInConnectionString('http://consul:8500/v1/status/leader')).toEqual([]);
  });

  it('replaces every secret, longest first, and URL credentials, in text and nested values', () => {
    expect(redactText('pass and password', ['pass', 'password'])).toBe('*** and ***');
    expect(stripUrlCredentials('see https://u:p@h/x and redis://:p@r')).toBe(
      'see https://***@h/x and redis://***@r',
    );
    expect(redactValue({ a: ['x-secret-y'], b: { c: 'secret' }, d: 3 }, ['secret'])).toEqual({
      a: ['x-***-y'],
      b: { c: '***' },
      d: 3,
    });
  });
});

describe('redactValue on errors and deep values', () => {
  it('reduces an Error to its name and redacted message, dropping the stack and driver fields', () => {
    const error = Object.assign(new TypeError('login failed for hunter22 at postgres://u:pw@db/x'), {
      connectionString: 'postgres://u:pw@db/x',
    });
    expect(redactValue({ error }, ['hunter22'])).toEqual({
      error: { name: 'TypeError', message: 'login failed for *** at postgres://***@db/x' },
    });
  });

  it('strips URL credentials even when no secret is registered', () => {
    expect(redactValue(['amqp://guest:guest@mq:5672'], [])).toEqual(['amqp://***@mq:5672']);
  });

  it('replaces values nested beyond the depth limit instead of copying them unread', () => {
    let nested: unknown = 'hunter22';
    for (let level = 0; level < 12; level++) nested = { level: nested };
    expect(JSON.stringify(redactValue(nested, []))).not.toContain('hunter22');
  });
});
