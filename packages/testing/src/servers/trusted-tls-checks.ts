import type { DependencyHealthEntry } from '@corekit/abstractions';

/** What `itProbesOverTrustedTls` needs from a probe's trusted-TLS child file. */
export interface TrustedTlsChecks {
  /** The TLS port the parent test passed in the environment; a test fails when it is not a port. */
  readonly port: number;
  /** The name the server certificate is issued for (the probe's TlsServerName). */
  readonly serverName: string;
  /** Matches the description of a Healthy entry reached over TLS (`/answered PINGREQ over TLS$/`). */
  readonly healthyDescription: RegExp;
  /**
   * Probes one entry with TLS on, aimed at 127.0.0.1:port with the server's credentials; `serverName` sets
   * TlsServerName when given, `password` replaces the good password when given.
   */
  probe(tls: { serverName?: string; password?: string }): Promise<DependencyHealthEntry>;
}

/**
 * The three checks every TLS-capable probe runs in a child process that trusts the server's self-signed
 * certificate (see `runJestTrustingCertificate`): Healthy over TLS with TlsServerName; refused with
 * ERR_TLS_CERT_ALTNAME_INVALID when the IP host does not match the certificate; AUTHENTICATION_FAILED for a
 * wrong password over TLS. The parent expects `3 passed`.
 */
export function itProbesOverTrustedTls(checks: TrustedTlsChecks): void {
  it('is Healthy over TLS when the certificate is trusted and carries TlsServerName', async () => {
    expect(checks.port).toBeGreaterThan(0);
    const entry = await checks.probe({ serverName: checks.serverName });
    expect(entry).toMatchObject({ status: 'Healthy', data: { tls: true } });
    expect(entry.description).toMatch(checks.healthyDescription);
  });

  it('checks the certificate name: without TlsServerName an IP host does not match it', async () => {
    const entry = await checks.probe({});
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('is Unhealthy with AUTHENTICATION_FAILED for a wrong password over TLS', async () => {
    const entry = await checks.probe({ serverName: checks.serverName, password: 'wrong-tls-pass' });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
  });
}
