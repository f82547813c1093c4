import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A throw-away certificate authority and one leaf certificate it signed, all PEM. Tests only. */
export interface TestCertificateAuthority {
  readonly caCert: string;
  readonly leafCert: string;
  /** The leaf's private key (PKCS#8 for RSA, SEC1 for P-256). */
  readonly leafKeyPem: string;
}

export interface TestCertificateAuthorityOptions {
  /** Subject alternative names of the leaf (its common name is the first); 127.0.0.1 is always added. */
  readonly dnsNames: readonly string[];
  /** Common name of the CA; default `Test Root`. */
  readonly caName?: string;
  /** RSA 2048 (what SNS signing certificates use) or P-256; default P-256. */
  readonly keyType?: 'rsa' | 'p256';
  /** The leaf's keyUsage extension; default `digitalSignature`. */
  readonly leafKeyUsage?: string;
  /** The leaf's extendedKeyUsage extension; default `serverAuth` (`clientAuth` for a client certificate). */
  readonly leafExtendedKeyUsage?: string;
}

/**
 * Generates a CA and a leaf it signed for `dnsNames` and 127.0.0.1 with the `openssl` command line tool,
 * valid one day (the CA two). Nothing is written outside a temporary directory removed afterwards.
 */
export function createTestCertificateAuthority(
  options: TestCertificateAuthorityOptions,
): TestCertificateAuthority {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-test-ca-'));
  const file = (name: string) => path.join(directory, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const generateKey = (name: string) =>
    options.keyType === 'rsa'
      ? openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', file(name))
      : openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file(name));
  try {
    generateKey('ca.key');
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      file('ca.key'),
      '-days',
      '2',
      '-subj',
      `/CN=${options.caName ?? 'Test Root'}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-out',
      file('ca.pem'),
    );
    generateKey('leaf.key');
    const [commonName] = options.dnsNames;
    openssl('req', '-new', '-key', file('leaf.key'), '-subj', `/CN=${commonName}`, '-out', file('leaf.csr'));
    const alternativeNames = [...options.dnsNames.map((name) => `DNS:${name}`), 'IP:127.0.0.1'].join(',');
    writeFileSync(
      file('leaf.ext'),
      `basicConstraints=CA:FALSE\nkeyUsage=${options.leafKeyUsage ?? 'digitalSignature'}\nextendedKeyUsage=${options.leafExtendedKeyUsage ?? 'serverAuth'}\nsubjectAltName=${alternativeNames}\n`,
    );
    openssl(
      'x509',
      '-req',
      '-in',
      file('leaf.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file('leaf.ext'),
      '-out',
      file('leaf.pem'),
    );
    return {
      caCert: readFileSync(file('ca.pem'), 'utf8'),
      leafCert: readFileSync(file('leaf.pem'), 'utf8'),
      leafKeyPem: readFileSync(file('leaf.key'), 'utf8'),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
