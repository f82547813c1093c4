import { redactText, redactValue, secretsInConnectionString, stripUrlCredentials } from './secret-redaction';

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
