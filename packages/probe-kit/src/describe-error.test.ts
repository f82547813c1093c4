import net from 'node:net';
import { CoreError } from '@corekit/abstractions';
import { describeError } from './describe-error';

function refusedError(): Promise<Error> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => {
        const socket = net.connect(port, '127.0.0.1');
        socket.on('error', (error) => resolve(error));
      });
    });
  });
}

describe('describeError', () => {
  it('keeps ECONNREFUSED from a real refused connection and names the address', async () => {
    const described = describeError(await refusedError());
    expect(described.code).toBe('ECONNREFUSED');
    expect(described.message).toMatch(
      /^Connection refused by 127\.0\.0\.1:\d+: nothing listens there\. Check that the service is running/,
    );
  });

  it('finds a socket code that a driver kept only in its message text', () => {
    expect(describeError(new Error('connect ECONNREFUSED 10.1.2.3:9200'))).toEqual({
      code: 'ECONNREFUSED',
      message: expect.stringContaining('Connection refused by 10.1.2.3:9200'),
    });
    expect(describeError(new Error('getaddrinfo ENOTFOUND search.internal')).code).toBe('ENOTFOUND');
  });

  it('reads the code of an AggregateError (IPv4 and IPv6 attempts) from its first coded error', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED ::1:1'), {
      code: 'ECONNREFUSED',
      address: '::1',
      port: 1,
    });
    expect(describeError(new AggregateError([inner], 'all failed'))).toMatchObject({
      code: 'ECONNREFUSED',
      message: expect.stringContaining('[::1]:1'),
    });
  });

  it('maps aborts to ABORTED and HTTP 401/403 to AUTHENTICATION_FAILED', () => {
    expect(describeError(new CoreError('ABORTED', 'x')).code).toBe('ABORTED');
    expect(describeError(Object.assign(new Error('aborted'), { name: 'AbortError' })).code).toBe('ABORTED');
    expect(describeError(Object.assign(new Error('Response Error'), { statusCode: 401 }))).toEqual({
      code: 'AUTHENTICATION_FAILED',
      message: expect.stringContaining('(HTTP 401)'),
    });
  });

  it('keeps TLS certificate codes and explains them', () => {
    const error = Object.assign(new Error('self-signed certificate'), {
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    expect(describeError(error)).toEqual({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      message: expect.stringContaining('TLS handshake'),
    });
  });

  it('strips credentials from URLs in messages, and handles values that are not errors', () => {
    expect(describeError(new Error('failed to GET http://admin:hunter2@db:1/x')).message).toBe(
      'failed to GET http://***@db:1/x',
    );
    expect(describeError('plain text')).toEqual({
      code: 'PROBE_FAILED',
      message: 'The check failed: plain text',
    });
    expect(describeError(Object.assign(new Error('boom'), { code: 'E_CUSTOM' }))).toEqual({
      code: 'E_CUSTOM',
      message: 'boom',
    });
  });
});
