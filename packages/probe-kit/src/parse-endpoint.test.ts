import { parseEndpoint, resolveHttpEndpoint } from './parse-endpoint';

describe('parseEndpoint', () => {
  it.each([
    ['redis', { protocol: 'tcp', host: 'redis', port: 6379, path: '/' }],
    ['redis:6380', { protocol: 'tcp', host: 'redis', port: 6380, path: '/' }],
    ['[::1]:6390', { protocol: 'tcp', host: '::1', port: 6390, path: '/' }],
    ['10.0.0.5', { protocol: 'tcp', host: '10.0.0.5', port: 6379, path: '/' }],
  ])('reads the bare form %s with the default port', (value, expected) => {
    expect(parseEndpoint(value, { protocol: 'tcp', port: 6379 })).toEqual(expected);
  });

  it('reads URLs: scheme ports for http(s), the default port otherwise, decoded credentials, path and query', () => {
    expect(parseEndpoint('https://es.example.com', { protocol: 'http', port: 9200 })).toEqual({
      protocol: 'https',
      host: 'es.example.com',
      port: 443,
      path: '/',
    });
    expect(parseEndpoint('http://u%40x:p%3Ass@h:81/a/b?c=d', { port: 1 })).toEqual({
      protocol: 'http',
      host: 'h',
      port: 81,
      path: '/a/b?c=d',
      username: 'u@x',
      password: 'p:ss',
    });
    expect(parseEndpoint('redis://cache', { port: 6379 })).toMatchObject({ protocol: 'redis', port: 6379 });
  });

  it('rejects an empty or unreadable value with ENDPOINT_INVALID and never repeats it', () => {
    expect(() => parseEndpoint('  ', { port: 1 })).toThrow(
      expect.objectContaining({ code: 'ENDPOINT_INVALID' }),
    );
    let message = '';
    try {
      parseEndpoint('http://user:secret-pw@[bad', { port: 1 });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/not valid/);
    expect(message).not.toContain('secret-pw');
  });
});

describe('resolveHttpEndpoint', () => {
  it('gives a bare base URL the default path, keeps an explicit path, and sets query parameters', () => {
    expect(resolveHttpEndpoint('http://consul:8500', { defaultPath: '/v1/status/leader' }).url).toBe(
      'http://consul:8500/v1/status/leader',
    );
    expect(
      resolveHttpEndpoint('consul', {
        defaultPath: '/v1/status/leader',
        defaultPort: 8500,
        query: { dc: 'eu', skip: undefined },
      }).url,
    ).toBe('http://consul:8500/v1/status/leader?dc=eu');
    expect(
      resolveHttpEndpoint('https://h/custom?x=1', { defaultPath: '/ignored', query: { x: '2' } }).url,
    ).toBe('https://h/custom?x=2');
  });

  it('moves credentials out of the URL', () => {
    expect(resolveHttpEndpoint('http://user:pw@h:1/')).toEqual({
      url: 'http://h:1/',
      username: 'user',
      password: 'pw',
    });
  });

  it('refuses a non-http scheme', () => {
    expect(() => resolveHttpEndpoint('redis://h')).toThrow(
      expect.objectContaining({ code: 'ENDPOINT_INVALID' }),
    );
  });
});
