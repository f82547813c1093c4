import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A throw-away certificate authority and one leaf certificate it signed. Tests only. */
export interface TestCertificates {
  readonly caCert: string;
  readonly leafKey: string;
  readonly leafCert: string;
}

/**
 * Generates a P-256 test CA and a leaf for `dnsNames` and 127.0.0.1 (subject alternative names) with the `openssl`
 * command line tool, valid one day. Nothing is written outside a temporary directory removed afterwards.
 */
export function createTestCertificates(dnsNames: readonly string[]): TestCertificates {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'governance-ca-'));
  const file = (name: string) => path.join(directory, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file('ca.key'));
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      file('ca.key'),
      '-days',
      '1',
      '-subj',
      '/CN=Governance Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-out',
      file('ca.pem'),
    );
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file('leaf.key'));
    openssl('req', '-new', '-key', file('leaf.key'), '-subj', `/CN=${dnsNames[0]}`, '-out', file('leaf.csr'));
    writeFileSync(
      file('leaf.ext'),
      `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${dnsNames.map((name) => `DNS:${name}`).join(',')},IP:127.0.0.1\n`,
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
      leafKey: readFileSync(file('leaf.key'), 'utf8'),
      leafCert: readFileSync(file('leaf.pem'), 'utf8'),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
