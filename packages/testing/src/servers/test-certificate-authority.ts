import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A throw-away certificate authority and one leaf certificate it signed, all PEM. Tests only. */
export interface TestCertificateAuthority {
  /** The self-signed root. */
  readonly caCert: string;
  /** The intermediate CAs, root side first (empty without `intermediates`); the last one signed the leaf. */
  readonly intermediateCerts: readonly string[];
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
  /**
   * Intermediate CAs between the root and the leaf, root side first (each signs the next; the last signs the
   * leaf). Default none: the root signs the leaf.
   */
  readonly intermediates?: readonly TestIntermediateAuthority[];
}

/** One intermediate CA of a test chain (openssl x509v3 extension syntax for the constraints). */
export interface TestIntermediateAuthority {
  /** Common name (distinct per chain). */
  readonly name: string;
  /** basicConstraints `pathlen` (how many CAs may follow it); default unlimited. */
  readonly pathLength?: number;
  /** nameConstraints value, e.g. `critical,permitted;DNS:example.org`; default none. */
  readonly nameConstraints?: string;
  /** keyUsage value; default `critical,keyCertSign,cRLSign`. */
  readonly keyUsage?: string;
}

/**
 * Generates a CA, optional intermediate CAs, and a leaf for `dnsNames` and 127.0.0.1 with the `openssl`
 * command line tool, the leaf valid one day (the CAs two). Nothing is written outside a temporary directory
 * removed afterwards.
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
  const signWith = (issuer: string, csr: string, extensions: string, out: string, days: string) =>
    openssl(
      'x509',
      '-req',
      '-in',
      file(csr),
      '-CA',
      file(`${issuer}.pem`),
      '-CAkey',
      file(`${issuer}.key`),
      '-CAcreateserial',
      '-days',
      days,
      '-extfile',
      file(extensions),
      '-out',
      file(out),
    );
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
      '-addext',
      'subjectKeyIdentifier=hash',
      '-out',
      file('ca.pem'),
    );
    const intermediateCerts: string[] = [];
    let issuer = 'ca';
    for (const [index, intermediate] of (options.intermediates ?? []).entries()) {
      const name = `intermediate-${index}`;
      generateKey(`${name}.key`);
      openssl(
        'req',
        '-new',
        '-key',
        file(`${name}.key`),
        '-subj',
        `/CN=${intermediate.name}`,
        '-out',
        file(`${name}.csr`),
      );
      const constraints = [
        `basicConstraints=critical,CA:TRUE${intermediate.pathLength === undefined ? '' : `,pathlen:${intermediate.pathLength}`}`,
        `keyUsage=${intermediate.keyUsage ?? 'critical,keyCertSign,cRLSign'}`,
        'subjectKeyIdentifier=hash',
        'authorityKeyIdentifier=keyid',
        ...(intermediate.nameConstraints ? [`nameConstraints=${intermediate.nameConstraints}`] : []),
      ];
      writeFileSync(file(`${name}.ext`), `${constraints.join('\n')}\n`);
      signWith(issuer, `${name}.csr`, `${name}.ext`, `${name}.pem`, '2');
      intermediateCerts.push(readFileSync(file(`${name}.pem`), 'utf8'));
      issuer = name;
    }
    generateKey('leaf.key');
    const [commonName] = options.dnsNames;
    openssl('req', '-new', '-key', file('leaf.key'), '-subj', `/CN=${commonName}`, '-out', file('leaf.csr'));
    const alternativeNames = [...options.dnsNames.map((name) => `DNS:${name}`), 'IP:127.0.0.1'].join(',');
    writeFileSync(
      file('leaf.ext'),
      `basicConstraints=CA:FALSE\nkeyUsage=${options.leafKeyUsage ?? 'digitalSignature'}\nextendedKeyUsage=${options.leafExtendedKeyUsage ?? 'serverAuth'}\nsubjectAltName=${alternativeNames}\n`,
    );
    signWith(issuer, 'leaf.csr', 'leaf.ext', 'leaf.pem', '1');
    return {
      caCert: readFileSync(file('ca.pem'), 'utf8'),
      intermediateCerts,
      leafCert: readFileSync(file('leaf.pem'), 'utf8'),
      leafKeyPem: readFileSync(file('leaf.key'), 'utf8'),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
