import { describeError, isTlsErrorCode } from './describe-error';
import { tlsHandshakeFailure } from './tls-handshake-failure';

describe('TLS handshake failures', () => {
  it.each([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  ])('recognises %s as a TLS code', (code) => {
    expect(isTlsErrorCode(code)).toBe(true);
    expect(describeError(Object.assign(new Error('handshake'), { code })).message).toMatch(/^TLS handshake/);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', undefined, 42])('does not take %s for a TLS code', (code) => {
    expect(isTlsErrorCode(code)).toBe(false);
  });

  it('keeps the code and names the field that sets the certificate name', () => {
    const error = Object.assign(new Error('self-signed certificate'), {
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    expect(tlsHandshakeFailure(error, 'mqtt.internal:8883', 'Engine:X:Dependencies:0:TlsServerName')).toEqual(
      {
        status: 'Unhealthy',
        description: expect.stringContaining(
          'The TLS handshake with mqtt.internal:8883 failed (self-signed certificate). Check Engine:X:Dependencies:0:TlsServerName',
        ),
        error: {
          code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
          message: expect.stringContaining('NODE_EXTRA_CA_CERTS'),
        },
      },
    );
    expect(tlsHandshakeFailure('boom', 'h:1', 'P').error?.code).toBe('TLS_HANDSHAKE_FAILED');
  });
});
