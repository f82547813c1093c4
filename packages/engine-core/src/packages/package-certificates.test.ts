import { X509Certificate } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { snapshotDocumentSchema, type PackageRecord } from '@corekit/abstractions';
import { manualClock } from '../clock';
import { testBuilder } from '../testing-support/engine-fixtures';
import { requiredReason } from './module-packages';
import { signPackageDirectory } from './package-signature';
import { temporaryDirectory, wasImported, writeModulePackage } from './testing-support/package-fixtures';
import {
  createTestCertificates,
  type IssuedCertificate,
  type TestCertificates,
} from './testing-support/test-certificates';

// Certificates are generated with the openssl command-line tool at test time; no private key is committed.
const temporary = temporaryDirectory('corekit-certificates-');
const markers = path.join(temporary.path, 'markers');
mkdirSync(markers);
let certificates: TestCertificates;
let scenario = 0;
const day = 24 * 60 * 60 * 1000;

beforeAll(() => {
  certificates = createTestCertificates(path.join(temporary.path, 'pki'));
});
afterAll(() => temporary.remove());

const thumbprintOf = (pem: string) => new X509Certificate(pem).fingerprint256.replace(/:/g, '');

/** Stages one package signed with `signer`'s key and certificate (plus intermediates) into a fresh directory. */
async function stageSigned(name: string, signer: IssuedCertificate, chain: IssuedCertificate[] = []) {
  const staging = path.join(temporary.path, `scenario-${++scenario}`);
  const spec = { name: `${name}-${scenario}`, markerDirectory: markers };
  const directory = writeModulePackage(staging, spec);
  await signPackageDirectory(directory, {
    privateKey: signer.privateKey,
    certificate: signer.pem,
    certificateChain: chain.map((item) => item.pem),
  });
  return { staging, spec, id: spec.name };
}

async function startWith(staging: string, trust: Record<string, unknown>, now = Date.now()) {
  const clock = manualClock(now);
  const fixture = testBuilder({
    clock,
    configuration: { Engine: { Discovery: { PackageDirectories: [staging] }, Trust: trust } },
  });
  const engine = fixture.builder.build();
  await engine.start();
  const record = engine.packages()[0] as PackageRecord & { certificateChain: Array<{ subject: string }> };
  return { engine, record };
}

const trustRoot = () => ({ TrustedSignatureCertificateAuthorities: [certificates.root.pem] });

describe('certificate-chain trust (Engine:Trust:TrustedSignatureCertificateAuthorities)', () => {
  it('loads a package whose signing certificate chains through an intermediate to a trusted authority', async () => {
    const item = await stageSigned('chained', certificates.codeSigning, [certificates.intermediate]);
    const { engine, record } = await startWith(item.staging, trustRoot());
    expect(record).toMatchObject({
      outcome: 'loaded',
      verification: 'trusted-certificate-chain',
      certificateThumbprint: thumbprintOf(certificates.codeSigning.pem),
      certificateThumbprintAlgorithm: 'sha256',
      certificateSubject: 'CN=Corekit Test Signer',
      signatureAlgorithm: 'ecdsa-sha256',
      reasons: [],
    });
    expect(record.certificateChain.map((link) => link.subject)).toEqual([
      'CN=Corekit Test Signer',
      'CN=Corekit Test Intermediate CA',
      'CN=Corekit Test Root CA',
    ]);
    expect(wasImported(item.spec)).toBe(true);

    const snapshot = snapshotDocumentSchema.parse(engine.snapshot());
    expect(snapshot.packages[0]).toMatchObject({
      verification: 'trusted-certificate-chain',
      certificateThumbprint: record.certificateThumbprint,
    });
    expect(snapshot.trustPolicy).toMatchObject({
      verificationMode: 'trusted-certificate-chain',
      certificateThumbprintAlgorithm: 'sha256',
      trustedSignatureCertificateAuthorities: [
        { subject: 'CN=Corekit Test Root CA', certificateThumbprint: thumbprintOf(certificates.root.pem) },
      ],
      verifications: [
        {
          id: item.id,
          outcome: 'loaded',
          verification: 'trusted-certificate-chain',
          certificateThumbprint: record.certificateThumbprint,
        },
      ],
    });
    const entry = engine.runtimeStory().timeline.find((candidate) => candidate.kind === 'package')!;
    expect(entry.details).toMatchObject({
      verification: 'trusted-certificate-chain',
      certificateThumbprint: record.certificateThumbprint,
    });
    await engine.stop();
  });

  it('loads an Ed25519 certificate issued by the trusted authority directly', async () => {
    const item = await stageSigned('direct', certificates.directCodeSigning);
    const { engine, record } = await startWith(item.staging, trustRoot());
    expect(record).toMatchObject({
      outcome: 'loaded',
      verification: 'trusted-certificate-chain',
      signatureAlgorithm: 'ed25519',
    });
    await engine.stop();
  });

  it('rejects an expired signing certificate and never imports the package', async () => {
    const item = await stageSigned('expired', certificates.expired);
    const { engine, record } = await startWith(item.staging, trustRoot());
    expect(record).toMatchObject({ outcome: 'rejected', verification: 'untrusted-signer' });
    expect(record.reasons).toContain(
      'the signing certificate CN=Corekit Expired Signer expired at 2020-01-02T00:00:00.000Z',
    );
    expect(wasImported(item.spec)).toBe(false);
    await engine.stop();
  });

  it('judges validity dates by the engine clock: after the end date and before the start date are both rejected', async () => {
    const item = await stageSigned('clocked', certificates.directCodeSigning);
    const later = await startWith(item.staging, trustRoot(), Date.now() + 31 * day);
    expect(later.record.outcome).toBe('rejected');
    expect(later.record.reasons.join(' ')).toMatch(
      /the signing certificate CN=Corekit Direct Signer expired at/,
    );
    await later.engine.stop();
    const earlier = await startWith(item.staging, trustRoot(), Date.now() - 2 * day);
    expect(earlier.record.outcome).toBe('rejected');
    expect(earlier.record.reasons.join(' ')).toMatch(/is not valid before/);
    await earlier.engine.stop();
    expect(wasImported(item.spec)).toBe(false);
  });

  it('rejects a certificate issued by an authority that is not trusted', async () => {
    const item = await stageSigned('wrong-authority', certificates.otherCodeSigning);
    const { engine, record } = await startWith(item.staging, trustRoot());
    expect(record.outcome).toBe('rejected');
    expect(record.reasons).toEqual([
      'the signing certificate does not chain to an authority in Engine:Trust:TrustedSignatureCertificateAuthorities (last issuer: CN=Untrusted Root CA)',

      requiredReason,
    ]);
    expect(wasImported(item.spec)).toBe(false);
    await engine.stop();
  });

  it('rejects a chain whose intermediate the package does not carry', async () => {
    const item = await stageSigned('no-intermediate', certificates.codeSigning);
    const { engine, record } = await startWith(item.staging, trustRoot());
    expect(record.outcome).toBe('rejected');
    expect(record.reasons[0]).toMatch(/does not chain to an authority/);
    await engine.stop();
  });

  it('rejects a certificate that is not allowed for code signing', async () => {
    const item = await stageSigned('server-only', certificates.serverOnly);
    const { engine, record } = await startWith(item.staging, trustRoot());
    expect(record.outcome).toBe('rejected');
    expect(record.reasons).toEqual([
      'the signing certificate is not allowed for code signing: its extended key usage (1.3.6.1.5.5.7.3.1) does not include 1.3.6.1.5.5.7.3.3',

      requiredReason,
    ]);
    expect(wasImported(item.spec)).toBe(false);
    await engine.stop();
  });
});

describe('pinned signing certificates (Engine:Trust:TrustedSignatureCertificates)', () => {
  it('loads a package signed with a pinned certificate given by thumbprint', async () => {
    const item = await stageSigned('pinned', certificates.directCodeSigning);
    const thumbprint = new X509Certificate(certificates.directCodeSigning.pem).fingerprint256;
    const { engine, record } = await startWith(item.staging, { TrustedSignatureCertificates: [thumbprint] });
    expect(record).toMatchObject({ outcome: 'loaded', verification: 'trusted-certificate-chain' });
    await engine.stop();
  });

  it('with authorities and pinned certificates both set, a certificate must chain and be pinned', async () => {
    const item = await stageSigned('not-pinned', certificates.directCodeSigning);
    const { engine, record } = await startWith(item.staging, {
      ...trustRoot(),
      TrustedSignatureCertificates: [certificates.codeSigning.pem],
    });
    expect(record.outcome).toBe('rejected');
    expect(record.reasons).toEqual([
      `the signing certificate ${thumbprintOf(certificates.directCodeSigning.pem)} is not listed in Engine:Trust:TrustedSignatureCertificates`,

      requiredReason,
    ]);
    await engine.stop();
  });

  it('refuses an authority that is not a CA certificate, naming the key path', () => {
    const builder = testBuilder({
      configuration: {
        Engine: { Trust: { TrustedSignatureCertificateAuthorities: [certificates.serverOnly.pem] } },
      },
    }).builder;
    expect(() => builder.build()).toThrow(
      /Engine:Trust:TrustedSignatureCertificateAuthorities:0 must be a PEM or base64 DER CA certificate/,
    );
  });
});
