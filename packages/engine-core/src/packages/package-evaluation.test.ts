import { requiredReason, trustDecision, verdictFields } from './package-evaluation';
import type { SignatureVerdict } from './signature-verification';

const verdict = (verification: SignatureVerdict['verification'], reasons: string[] = []): SignatureVerdict =>
  ({
    verification,
    reasons,
    signatureAlgorithm: null,
    signingKeyId: null,
    certificateThumbprint: verification === 'trusted-public-key' ? 'ab:cd' : null,
    certificateSubject: null,
    certificateChain: [],
  }) as unknown as SignatureVerdict;

const lenient = { requireSignatureVerification: false };
const strict = { requireSignatureVerification: true };

describe('trustDecision', () => {
  it('rejects an invalid signature whatever the settings', () => {
    expect(
      trustDecision(verdict('invalid', ['bad digest']), lenient, { AllowUnsignedPackages: true }),
    ).toEqual({
      outcome: 'rejected',
      reasons: ['bad digest'],
    });
  });

  it('rejects unsigned and untrusted packages when a trusted signature is required', () => {
    for (const verification of ['unsigned', 'untrusted-signer'] as const) {
      expect(trustDecision(verdict(verification, ['why']), strict, { AllowUnsignedPackages: true })).toEqual({
        outcome: 'rejected',
        reasons: ['why', requiredReason],
      });
    }
  });

  it('denies an unsigned package unless unsigned packages are allowed, then notes why it loads', () => {
    expect(trustDecision(verdict('unsigned'), lenient, { AllowUnsignedPackages: false })).toMatchObject({
      outcome: 'denied',
    });
    expect(
      trustDecision(verdict('unsigned', ['no signature']), lenient, { AllowUnsignedPackages: true }),
    ).toEqual({
      outcome: null,
      notes: [
        'no signature',
        'loaded without a trusted signature because Engine:Trust:RequireSignatureVerification is false',
      ],
    });
  });

  it('lets a package signed by a trusted key load without notes, its thumbprint algorithm filled', () => {
    expect(trustDecision(verdict('trusted-public-key'), strict, { AllowUnsignedPackages: false })).toEqual({
      outcome: null,
      notes: [],
    });
    expect(verdictFields(verdict('trusted-public-key'))).toMatchObject({
      signed: true,
      certificateThumbprintAlgorithm: 'sha256',
    });
    expect(verdictFields(verdict('unsigned'))).toMatchObject({
      signed: false,
      certificateThumbprintAlgorithm: null,
    });
  });
});
