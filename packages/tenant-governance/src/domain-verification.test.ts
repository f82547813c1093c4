import { loopbackLookup } from '@corekit/testing/network-helpers';
import { deliveryEventIds } from './delivery-event-ids';
import type { DeliveryOptionsInput } from './delivery-options';
import { startDelivery } from './delivery-test-support';
import { startProofServers } from './proof-test-servers';

let servers: Awaited<ReturnType<typeof startProofServers>>;
beforeAll(async () => {
  servers = await startProofServers(['localhost', 'dns.example.test', 'web.example.test', 'elsewhere.test']);
});
afterAll(() => servers.close());
beforeEach(() => {
  servers.txt.clear();
  servers.fileOverrides.clear();
});

async function start(options: NonNullable<DeliveryOptionsInput['DomainVerification']> = {}) {
  const run = await startDelivery(
    {
      DomainVerification: {
        DnsOverHttpsResolverUrl: `https://127.0.0.1:${servers.dohPort}/${options.DnsOverHttpsFormat === 'json' ? 'resolve' : 'dns-query'}`,
        ChallengeLifetimeSeconds: 3600,
        // The test hosts resolve to the local proof server on loopback, internal unless allow-listed.
        HttpFileAllowedInternalAddresses: ['127.0.0.1'],
        ...options,
      },
    },
    {
      extensions: { ca: servers.certificates.caCert, httpFilePort: servers.filePort, lookup: loopbackLookup },
    },
  );
  servers.serveProofsFrom((path) => run.domains.httpProofFile(path));
  await run.governance.declareDomain({ tenantId: 'acme', domainName: 'dns.example.test' });
  await run.governance.declareDomain({ tenantId: 'acme', domainName: 'web.example.test' });
  return run;
}

it.each(['wire', 'wire-post', 'json'] as const)(
  'verifies a domain by DNS TXT through the %s DNS-over-HTTPS form',
  async (format) => {
    const run = await start({ DnsOverHttpsFormat: format });
    try {
      const { challenge, plan } = await run.domains.issueChallenge({
        tenantId: 'acme',
        domainName: 'dns.example.test',
        method: 'dns-txt',
      });
      expect(plan.dnsTxt).toEqual({
        name: '_core-domain-verification.dns.example.test',
        value: `core-domain-verification=${challenge.token}`,
      });
      expect(challenge.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await run.domains.verify('acme', 'dns.example.test')).outcome).toBe('proof-missing');
      servers.txt.set(plan.dnsTxt!.name, ['unrelated=1', plan.dnsTxt!.value]);
      servers.dohRequests.length = 0;
      const result = await run.domains.verify('acme', 'dns.example.test');
      expect(result).toMatchObject({
        outcome: 'verified',
        domainStatus: 'verified',
        challengeStatus: 'verified',
        method: 'dns-txt',
      });
      expect(servers.dohRequests).toEqual([format]);
      const [domain] = (await run.governance.listDomains('acme')).filter(
        (d) => d.domainName === 'dns.example.test',
      );
      expect(domain).toMatchObject({ status: 'verified', verificationMethod: 'dns-txt' });
      expect(run.logger.withEventId(deliveryEventIds.domainVerified)).toHaveLength(1);
    } finally {
      await run.engine.stop();
    }
  },
);

it('verifies a domain by HTTP file (served from the proof state), following a same-host redirect', async () => {
  const run = await start();
  try {
    const { plan, challenge } = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'web.example.test',
      method: 'http-file',
    });
    expect(plan.httpFile).toEqual({
      url: `https://web.example.test/.well-known/core-domain-verification/${challenge.challengeId}`,
      path: `/.well-known/core-domain-verification/${challenge.challengeId}`,
      body: challenge.token,
      contentType: 'text/plain',
    });
    expect(await run.domains.httpProofFile(plan.httpFile!.path)).toEqual({
      body: challenge.token,
      contentType: 'text/plain',
    });
    expect(
      await run.domains.httpProofFile(
        '/.well-known/core-domain-verification/00000000-0000-0000-0000-000000000000',
      ),
    ).toBeUndefined();
    expect(
      run.engine.technologySurfaces().find((s) => s.id === 'tenant-domain-ownership')!.metadata,
    ).toMatchObject({
      publishedHttpProofCount: 1,
      dnsTxtCollectionEnabled: true,
      dnsResolverConfigured: true,
      dnsResolverKind: 'dns-over-https-wire',
      verificationWorkflowOwnership: 'companion-owned',
    });
    // Reach the proof through a same-host redirect.
    servers.fileOverrides.set('web.example.test', (path) =>
      path === plan.httpFile!.path
        ? { status: 301, location: 'https://web.example.test/moved' }
        : { status: 200, body: `${challenge.token}\n` },
    );
    const result = await run.domains.verify('acme', 'web.example.test');
    expect(result).toMatchObject({ outcome: 'verified', domainStatus: 'verified', method: 'http-file' });
    // A verified challenge is no longer served.
    expect(await run.domains.httpProofFile(plan.httpFile!.path)).toBeUndefined();
  } finally {
    await run.engine.stop();
  }
});

it('verifies through the proof state served as is by the file server', async () => {
  const run = await start();
  try {
    await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'web.example.test',
      method: 'http-file',
    });
    expect((await run.domains.verify('acme', 'web.example.test')).outcome).toBe('verified');
  } finally {
    await run.engine.stop();
  }
});

it('refuses a wrong token, an expired challenge, a redirect to another host and an oversized body', async () => {
  const run = await start({ MaxResponseBytes: 1024 });
  try {
    // Another DNS verification value (an older one, before propagation): still pending.
    const { plan } = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'dns.example.test',
      method: 'dns-txt',
    });
    servers.txt.set(plan.dnsTxt!.name, ['core-domain-verification=not-the-token']);
    expect(await run.domains.verify('acme', 'dns.example.test')).toMatchObject({
      outcome: 'proof-missing',
      reason: 'other-verification-value',
      domainStatus: 'pending-verification',
      challengeStatus: 'issued',
    });
    // Wrong HTTP token.
    servers.fileOverrides.set('web.example.test', () => ({ status: 200, body: 'someone-else' }));
    await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'web.example.test',
      method: 'http-file',
    });
    expect((await run.domains.verify('acme', 'web.example.test')).outcome).toBe('proof-mismatch');
    // Redirect to another host.
    await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'web.example.test',
      method: 'http-file',
    });
    servers.fileOverrides.set('web.example.test', (path) => ({
      status: 302,
      location: `https://elsewhere.test${path}`,
    }));
    expect(await run.domains.verify('acme', 'web.example.test')).toMatchObject({
      outcome: 'collection-failed',
      reason: 'redirect-to-other-host',
      challengeStatus: 'issued',
      domainStatus: 'pending-verification',
    });
    // Oversized body (streamed, no content-length) and a declared oversized one.
    servers.fileOverrides.set('web.example.test', () => ({ status: 200, body: 'x'.repeat(5000) }));
    expect(await run.domains.verify('acme', 'web.example.test')).toMatchObject({
      outcome: 'collection-failed',
      reason: 'body-too-large',
    });
    servers.fileOverrides.set('web.example.test', () => ({
      status: 200,
      body: 'y'.repeat(5000),
      chunked: true,
    }));
    expect(await run.domains.verify('acme', 'web.example.test')).toMatchObject({
      outcome: 'collection-failed',
      reason: 'body-too-large',
    });
    // Expired challenge: the proof is right but too late.
    const late = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'dns.example.test',
      method: 'dns-txt',
    });
    servers.txt.set(late.plan.dnsTxt!.name, [late.plan.dnsTxt!.value]);
    run.advance(3601);
    expect(await run.domains.verify('acme', 'dns.example.test')).toMatchObject({
      outcome: 'challenge-expired',
      domainStatus: 'expired',
      challengeStatus: 'expired',
    });
    expect(run.logger.withEventId(deliveryEventIds.domainVerificationRefused)).toHaveLength(1);
    expect(run.logger.withEventId(deliveryEventIds.domainProofCollectionFailed)).toHaveLength(4);
    expect(run.logger.withEventId(deliveryEventIds.domainChallengeExpired)).toHaveLength(1);
    // Refusals for undeclared domains.
    await expect(
      run.domains.issueChallenge({ tenantId: 'globex', domainName: 'dns.example.test', method: 'dns-txt' }),
    ).rejects.toMatchObject({
      code: 'DOMAIN_NOT_FOUND',
    });
    // No identifier of a domain or token in the logs.
    expect(run.logger.text()).not.toContain('example.test');
    expect(run.logger.text()).not.toContain(late.challenge.token);
  } finally {
    await run.engine.stop();
  }
});

it('a DNS answer still carrying an older verification value leaves the challenge pending until it expires', async () => {
  const run = await start();
  try {
    const first = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'dns.example.test',
      method: 'dns-txt',
    });
    servers.txt.set(first.plan.dnsTxt!.name, [first.plan.dnsTxt!.value]);
    // A new challenge replaces the first; the resolver still answers the first one's value.
    const second = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'dns.example.test',
      method: 'dns-txt',
    });
    expect(second.plan.dnsTxt!.value).not.toBe(first.plan.dnsTxt!.value);
    for (let check = 0; check < 2; check++) {
      run.advance(600);
      expect(await run.domains.verify('acme', 'dns.example.test')).toMatchObject({
        outcome: 'proof-missing',
        reason: 'other-verification-value',
        challengeStatus: 'issued',
        domainStatus: 'pending-verification',
      });
    }
    // Propagated: both values for a while, then the new one verifies.
    servers.txt.set(first.plan.dnsTxt!.name, [first.plan.dnsTxt!.value, second.plan.dnsTxt!.value]);
    expect(await run.domains.verify('acme', 'dns.example.test')).toMatchObject({
      outcome: 'verified',
      domainStatus: 'verified',
    });
    // Never propagated: the challenge expires, the domain is expired (never failed).
    const third = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'web.example.test',
      method: 'dns-txt',
    });
    servers.txt.set(third.plan.dnsTxt!.name, ['core-domain-verification=an-older-token']);
    expect((await run.domains.verify('acme', 'web.example.test')).domainStatus).toBe('pending-verification');
    run.advance(3601);
    expect(await run.domains.verify('acme', 'web.example.test')).toMatchObject({
      outcome: 'challenge-expired',
      domainStatus: 'expired',
    });
  } finally {
    await run.engine.stop();
  }
});

it('background polling verifies pending challenges in batches and reports its runs', async () => {
  const run = await start({
    EnableBackgroundPolling: true,
    BackgroundPollingIntervalSeconds: 3600,
    BackgroundPollingBatchSize: 1,
  });
  try {
    const dns = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'dns.example.test',
      method: 'dns-txt',
    });
    await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'web.example.test',
      method: 'http-file',
    });
    servers.txt.set(dns.plan.dnsTxt!.name, [dns.plan.dnsTxt!.value]);
    const first = await run.domains.job!.trigger();
    const second = await run.domains.job!.trigger();
    expect([first, second].map((outcome) => outcome.status)).toEqual(['completed', 'completed']);
    const checked = [first, second].map((outcome) =>
      outcome.status === 'completed' ? outcome.result.checked : -1,
    );
    expect(checked).toEqual([1, 1]);
    expect((await run.governance.listDomains('acme')).map((d) => d.status).sort()).toEqual([
      'verified',
      'verified',
    ]);
    expect(
      run.engine.technologySurfaces().find((s) => s.id === 'tenant-domain-ownership')!.metadata,
    ).toMatchObject({
      backgroundPollingEnabled: true,
      backgroundPollingIntervalSeconds: 3600,
      backgroundPollingBatchSize: 1,
      backgroundPollingRunCount: 2,
      backgroundPollingLatestOutcome: 'completed',
      statusBreakdown: { verified: 2 },
      verificationMethodBreakdown: { 'dns-txt': 1, 'http-file': 1 },
    });
    expect(run.logger.withEventId(deliveryEventIds.domainPollingPassCompleted)).toHaveLength(2);
  } finally {
    await run.engine.stop();
  }
});
