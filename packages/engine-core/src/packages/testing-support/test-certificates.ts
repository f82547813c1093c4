import { execFileSync } from 'node:child_process';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A certificate and its private key, generated at test time; nothing here is ever committed. */
export interface IssuedCertificate {
  readonly pem: string;
  readonly privateKey: KeyObject;
}

export interface TestCertificates {
  readonly root: IssuedCertificate;
  readonly intermediate: IssuedCertificate;
  /** EC P-256 code-signing certificate issued by the intermediate. */
  readonly codeSigning: IssuedCertificate;
  /** Ed25519 code-signing certificate issued by the root directly. */
  readonly directCodeSigning: IssuedCertificate;
  /** Issued by the root for TLS servers (extended key usage serverAuth), not for code signing. */
  readonly serverOnly: IssuedCertificate;
  /** Code signing, issued by the root, valid from 2020-01-01 to 2020-01-02 only. */
  readonly expired: IssuedCertificate;
  /** A second, untrusted authority and a code-signing certificate it issued. */
  readonly otherRoot: IssuedCertificate;
  readonly otherCodeSigning: IssuedCertificate;
}

const caConfiguration = `[ ca ]
default_ca = test_ca
[ test_ca ]
database = ./index.txt
new_certs_dir = ./issued
serial = ./serial
default_md = sha256
policy = any_policy
unique_subject = no
copy_extensions = none
[ any_policy ]
commonName = supplied
[ intermediate_authority ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ code_signing ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = codeSigning
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ server_only ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

function openssl(directory: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: directory, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** `YYYYMMDDHHMMSSZ` as `openssl ca -startdate/-enddate` take it. */
function opensslDate(epochMilliseconds: number): string {
  return new Date(epochMilliseconds)
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Generates a small PKI with the `openssl` command-line tool into `directory`: two roots, an intermediate,
 * and leaf certificates for each trust case. Takes a few hundred milliseconds.
 */
export function createTestCertificates(directory: string, now = Date.now()): TestCertificates {
  mkdirSync(path.join(directory, 'issued'), { recursive: true });
  writeFileSync(path.join(directory, 'ca.cnf'), caConfiguration);
  writeFileSync(path.join(directory, 'index.txt'), '');
  writeFileSync(path.join(directory, 'serial'), '1000\n');
  const read = (name: string): IssuedCertificate => ({
    pem: readFileSync(path.join(directory, `${name}.pem`), 'utf8'),
    privateKey: createPrivateKey(readFileSync(path.join(directory, `${name}.key`))),
  });
  const key = (name: string, algorithm: 'ec' | 'ed25519') =>
    algorithm === 'ec'
      ? openssl(
          directory,
          'genpkey',
          '-algorithm',
          'EC',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-out',
          `${name}.key`,
        )
      : openssl(directory, 'genpkey', '-algorithm', 'ed25519', '-out', `${name}.key`);
  const root = (name: string, subject: string) => {
    key(name, 'ec');
    openssl(
      directory,
      'req',
      '-x509',
      '-key',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '3650',
      '-subj',
      `/CN=${subject}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    return read(name);
  };
  const issue = (
    name: string,
    subject: string,
    issuer: string,
    extensions: string,
    algorithm: 'ec' | 'ed25519',
    from: number,
    to: number,
  ) => {
    key(name, algorithm);
    openssl(
      directory,
      'req',
      '-new',
      '-key',
      `${name}.key`,
      '-subj',
      `/CN=${subject}`,
      '-out',
      `${name}.csr`,
    );
    openssl(
      directory,
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-cert',
      `${issuer}.pem`,
      '-keyfile',
      `${issuer}.key`,
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.pem`,
      '-startdate',
      opensslDate(from),
      '-enddate',
      opensslDate(to),
      '-extensions',
      extensions,
      '-notext',
    );
    return read(name);
  };
  const day = 24 * 60 * 60 * 1000;
  const validFrom = now - day;
  const validTo = now + 30 * day;
  return {
    root: root('root', 'Corekit Test Root CA'),
    intermediate: issue(
      'intermediate',
      'Corekit Test Intermediate CA',
      'root',
      'intermediate_authority',
      'ec',
      validFrom,
      now + 3650 * day,
    ),
    codeSigning: issue(
      'code-signing',
      'Corekit Test Signer',
      'intermediate',
      'code_signing',
      'ec',
      validFrom,
      validTo,
    ),
    directCodeSigning: issue(
      'direct-code-signing',
      'Corekit Direct Signer',
      'root',
      'code_signing',
      'ed25519',
      validFrom,
      validTo,
    ),
    serverOnly: issue('server-only', 'Corekit TLS Server', 'root', 'server_only', 'ec', validFrom, validTo),
    expired: issue(
      'expired',
      'Corekit Expired Signer',
      'root',
      'code_signing',
      'ed25519',
      Date.parse('2020-01-01T00:00:00Z'),
      Date.parse('2020-01-02T00:00:00Z'),
    ),
    otherRoot: root('other-root', 'Untrusted Root CA'),
    otherCodeSigning: issue(
      'other-code-signing',
      'Untrusted Signer',
      'other-root',
      'code_signing',
      'ec',
      validFrom,
      validTo,
    ),
  };
}
