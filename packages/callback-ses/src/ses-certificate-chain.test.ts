import { execFileSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createTestCertificateAuthority,
  type TestCertificateAuthority,
  type TestIntermediateAuthority,
} from '@corekit/testing/servers/test-certificate-authority';
import { SigningCertificates } from './signing-certificates';
import { otherTopic, sesCallbackFixture } from './test-support/ses-callback-fixture';
import {
  createSnsTestPki,
  loopbackLookup,
  notification,
  sesEvent,
  startSnsTestServer,
} from './test-support/sns-test-pki';

const snsNames = ['sns.amazonaws.com', 'sns.us-east-1.amazonaws.com'];

/** A signing chain of the case: root, intermediates, leaf for the SNS host names (RSA, like SNS). */
function chain(
  name: string,
  intermediates: readonly TestIntermediateAuthority[],
  leafKeyUsage = 'digitalSignature',
): TestCertificateAuthority {
  return createTestCertificateAuthority({
    caName: `${name} Root`,
    dnsNames: snsNames,
    keyType: 'rsa',
    leafKeyUsage,
    intermediates,
  });
}

/** What `openssl verify` says of the chain (the reference the library is compared with). */
function opensslVerifies(authority: TestCertificateAuthority): boolean {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-ses-chain-'));
  try {
    writeFileSync(path.join(directory, 'root.pem'), authority.caCert);
    writeFileSync(path.join(directory, 'untrusted.pem'), authority.intermediateCerts.join(''));
    writeFileSync(path.join(directory, 'leaf.pem'), authority.leafCert);
    execFileSync(
      'openssl',
      [
        'verify',
        '-CAfile',
        path.join(directory, 'root.pem'),
        ...(authority.intermediateCerts.length > 0
          ? ['-untrusted', path.join(directory, 'untrusted.pem')]
          : []),
        path.join(directory, 'leaf.pem'),
      ],
      { stdio: 'pipe' },
    );
    return true;
  } catch {
    return false;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const bundle = (authority: TestCertificateAuthority) =>
  [authority.leafCert, ...authority.intermediateCerts].join('');

const chains = {
  valid: chain('Valid', [{ name: 'Valid Intermediate' }]),
  permittedElsewhere: chain('Constrained', [
    { name: 'Sub-CA for example.org', nameConstraints: 'critical,permitted;DNS:example.org' },
  ]),
  excludedHere: chain('Excluded', [
    { name: 'Sub-CA excluding AWS', nameConstraints: 'critical,excluded;DNS:amazonaws.com' },
  ]),
  pathTooLong: chain('Path', [{ name: 'Path Zero', pathLength: 0 }, { name: 'Path Below' }]),
  intermediateCannotSign: chain('Usage', [{ name: 'Not a signer', keyUsage: 'critical,digitalSignature' }]),
  leafCannotSign: chain('Leaf', [{ name: 'Leaf Intermediate' }], 'keyEncipherment'),
};

const server = createSnsTestPki('Chain Server Root');
let files: Awaited<ReturnType<typeof startSnsTestServer>>;
beforeAll(async () => {
  files = await startSnsTestServer(
    server,
    Object.fromEntries(Object.entries(chains).map(([name, value]) => [`/${name}.pem`, bundle(value)])),
  );
});
afterAll(async () => files.close());

function certificates(now = new Date()) {
  return new SigningCertificates({
    validateChain: true,
    transport: {
      ca: [server.caCert, ...Object.values(chains).map((value) => value.caCert)],
      lookup: loopbackLookup,
      port: files.port,
    },
    now: () => now,
    timeoutMs: 5000,
  });
}
const url = (name: keyof typeof chains) => new URL(`https://sns.us-east-1.amazonaws.com/${name}.pem`);

describe('SNS signing certificate path validation (RFC 5280, against openssl verify)', () => {
  it('openssl verify accepts the valid chain and the leaf of the wrong key usage, refuses the others', () => {
    expect(opensslVerifies(chains.valid)).toBe(true);
    expect(opensslVerifies(chains.leafCannotSign)).toBe(true);
    for (const name of [
      'permittedElsewhere',
      'excludedHere',
      'pathTooLong',
      'intermediateCannotSign',
    ] as const) {
      expect([name, opensslVerifies(chains[name])]).toEqual([name, false]);
    }
  });

  it('accepts the valid chain through an intermediate', async () => {
    const answer = await certificates().get(url('valid'));
    expect(answer).toBeInstanceOf(X509Certificate);
    expect((answer as X509Certificate).raw.equals(new X509Certificate(chains.valid.leafCert).raw)).toBe(true);
  });

  it.each([
    ['permittedElsewhere', 'name-constraints'],
    ['excludedHere', 'name-constraints'],
    ['pathTooLong', 'path-length'],
    ['intermediateCannotSign', 'chain-untrusted'],
    ['leafCannotSign', 'wrong-key-usage'],
  ] as const)('refuses %s (%s)', async (name, refusal) => {
    expect(await certificates().get(url(name))).toBe(refusal);
  });

  it('refuses the chain when the leaf has expired or is not yet valid', async () => {
    const day = 86_400_000;
    expect(await certificates(new Date(Date.now() + 1.5 * day)).get(url('valid'))).toBe('expired');
    expect(await certificates(new Date(Date.now() - day)).get(url('valid'))).toBe('expired');
  });
});

describe('SNS callback with a name-constrained signing chain', () => {
  const ses = sesCallbackFixture();

  it('answers 401 CALLBACK_CERTIFICATE_INVALID to a notification signed by a leaf a sub-CA could not issue', async () => {
    const constrained = chains.permittedElsewhere;
    const invitationId = await ses.start(
      {},
      {
        transport: {
          ca: [ses.pki.caCert, server.caCert, constrained.caCert, chains.valid.caCert],
          lookup: loopbackLookup,
          port: files.port,
        },
      },
    );
    const record = sesEvent('Delivery', { tenantId: 'acme', invitationId });
    const forged = notification(record, createPrivateKey(constrained.leafKeyPem), {
      SigningCertURL: 'https://sns.us-east-1.amazonaws.com/permittedElsewhere.pem',
      TopicArn: otherTopic,
    });
    const before = await ses.test.snapshot();
    expect(await ses.post(forged)).toMatchObject({ status: 401, code: 'CALLBACK_CERTIFICATE_INVALID' });
    expect(await ses.test.snapshot()).toBe(before);
    const valid = notification(record, createPrivateKey(chains.valid.leafKeyPem), {
      SigningCertURL: 'https://sns.us-east-1.amazonaws.com/valid.pem',
    });
    expect(await ses.post(valid)).toMatchObject({ status: 200, body: { accepted: 1 } });
  });
});
