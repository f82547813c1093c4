import { requestOrigin } from './browser-sessions';

describe('requestOrigin: where a request made with a browser session comes from', () => {
  const host = { host: '127.0.0.1:8080' };

  it('believes the browser first: Sec-Fetch-Site same-origin is same, cross-site and same-site are cross', () => {
    // A page served with Referrer-Policy: no-referrer sends `Origin: null` on its own POSTs: Sec-Fetch-Site decides.
    expect(requestOrigin({ ...host, 'sec-fetch-site': 'same-origin', origin: 'null' })).toBe('same');
    expect(requestOrigin({ ...host, 'sec-fetch-site': 'cross-site', origin: 'http://127.0.0.1:8080' })).toBe(
      'cross',
    );
    expect(requestOrigin({ ...host, 'sec-fetch-site': 'same-site' })).toBe('cross');
  });

  it('without Sec-Fetch-Site compares Origin, else Referer, with the host (X-Forwarded-Host behind a proxy)', () => {
    expect(requestOrigin({ ...host, origin: 'http://127.0.0.1:8080' })).toBe('same');
    expect(requestOrigin({ ...host, origin: 'https://evil.example' })).toBe('cross');
    expect(requestOrigin({ ...host, origin: 'null' })).toBe('cross');
    expect(requestOrigin({ ...host, referer: 'http://127.0.0.1:8080/engine/console' })).toBe('same');
    expect(
      requestOrigin({ ...host, 'x-forwarded-host': 'ops.example.com', origin: 'https://ops.example.com' }),
    ).toBe('same');
    expect(
      requestOrigin({ ...host, 'x-forwarded-host': 'ops.example.com', origin: 'http://127.0.0.1:8080' }),
    ).toBe('cross');
  });

  it('is unknown for a request with none of these headers (curl): the CSRF token alone decides', () => {
    expect(requestOrigin(host)).toBe('unknown');
    expect(requestOrigin({ ...host, 'sec-fetch-site': 'none' })).toBe('unknown');
  });
});
