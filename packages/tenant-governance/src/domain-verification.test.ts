import https from 'node:https';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';
import { deliveryEventIds } from './delivery-event-ids';
import type { DeliveryOptionsInput } from './delivery-options';
import { startDelivery } from './delivery-test-support';
import { createTestCertificates } from './test-ca';

const certificates = createTestCertificates([
  'localhost',
  'dns.example.test',
  'web.example.test',
  'elsewhere.test',
]);
/** TXT records the local DoH server answers, by name. */
const txt = new Map<string, string[]>();
/** Per-host answers of the local file server; the default serves the verifier's own proof files. */
type FileAnswer = { status: number; body?: string; location?: string };
const fileOverrides = new Map<string, (path: string) => FileAnswer>();
let proofFile: ((path: string) => Promise<{ body: string } | undefined>) | undefined;
const dohRequests: string[] = [];

function listen(server: https.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

const doh = https.createServer(
  { key: certificates.leafKey, cert: certificates.leafCert },
  (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url!, 'https://localhost');
      if (url.pathname === '/resolve') {
        dohRequests.push('json');
        const name = url.searchParams.get('name')!;
        const records = txt.get(name);
        response.setHeader('content-type', 'application/dns-json');
        response.end(
          JSON.stringify({
            Status: records ? 0 : 3,
            Answer: (records ?? []).map((value) => ({
              name,
              type: 16,
              TTL: 60,
              data: `"${value.slice(0, 30)}" "${value.slice(30)}"`,
            })),
          }),
        );
        return;
      }
      const wire =
        request.method === 'POST'
          ? Buffer.concat(chunks)
          : Buffer.from(url.searchParams.get('dns')!, 'base64url');
      dohRequests.push(request.method === 'POST' ? 'wire-post' : 'wire');
      const query = dnsPacket.decode(wire);
      const name = query.questions![0].name;
      const records = txt.get(name);
      response.setHeader('content-type', 'application/dns-message');
      response.end(
        dnsPacket.encode({
          type: 'response',
          id: query.id,
          flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (records ? 0 : 3),
          questions: query.questions,
          answers: (records ?? []).map((value) => ({ type: 'TXT' as const, name, ttl: 60, data: [value] })),
        }),
      );
    });
  },
);

const files = https.createServer(
  { key: certificates.leafKey, cert: certificates.leafCert },
  (request, response) => {
    const host = request.headers.host!.split(':')[0];
    const override = fileOverrides.get(host);
    if (override) {
      const answer = override(request.url!);
      response.writeHead(answer.status, answer.location ? { location: answer.location } : {});
      response.end(answer.body ?? '');
      return;
    }
    void proofFile!(request.url!).then((file) => {
      response.writeHead(file ? 200 : 404, { 'content-type': 'text/plain' });
      response.end(file?.body ?? 'not found');
    });
  },
);

let dohPort = 0;
let filePort = 0;
beforeAll(async () => {
  dohPort = await listen(doh);
  filePort = await listen(files);
});
afterAll(async () => {
  await new Promise((resolve) => doh.close(resolve));
  await new Promise((resolve) => files.close(resolve));
});
beforeEach(() => {
  txt.clear();
  fileOverrides.clear();
});

async function start(options: NonNullable<DeliveryOptionsInput['DomainVerification']> = {}) {
  const run = await startDelivery(
    {
      DomainVerification: {
        DnsOverHttpsResolverUrl: `https://localhost:${dohPort}/${options.DnsOverHttpsFormat === 'json' ? 'resolve' : 'dns-query'}`,
        ChallengeLifetimeSeconds: 3600,
        ...options,
      },
    },
    {
      extensions: {
        ca: certificates.caCert,
        httpFilePort: filePort,
        // Every proof host is this machine; the DoH resolver is reached by its own URL.
        lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options.all
            ? callback(null, [{ address: '127.0.0.1', family: 4 }])
            : callback(null, '127.0.0.1', 4)) as never,
      },
    },
  );
  proofFile = (path) => run.domains.httpProofFile(path);
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
      txt.set(plan.dnsTxt!.name, ['unrelated=1', plan.dnsTxt!.value]);
      dohRequests.length = 0;
      const result = await run.domains.verify('acme', 'dns.example.test');
      expect(result).toMatchObject({
        outcome: 'verified',
        domainStatus: 'verified',
        challengeStatus: 'verified',
        method: 'dns-txt',
      });
      expect(dohRequests).toEqual([format]);
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
    fileOverrides.set('web.example.test', (path) =>
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
    // Wrong DNS token: refused, the domain fails.
    const { plan } = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'dns.example.test',
      method: 'dns-txt',
    });
    txt.set(plan.dnsTxt!.name, ['core-domain-verification=not-the-token']);
    expect(await run.domains.verify('acme', 'dns.example.test')).toMatchObject({
      outcome: 'proof-mismatch',
      reason: 'token-mismatch',
      domainStatus: 'failed',
      challengeStatus: 'refused',
    });
    // Wrong HTTP token.
    fileOverrides.set('web.example.test', () => ({ status: 200, body: 'someone-else' }));
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
    fileOverrides.set('web.example.test', (path) => ({
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
    fileOverrides.set('web.example.test', () => ({ status: 200, body: 'x'.repeat(5000) }));
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
    txt.set(late.plan.dnsTxt!.name, [late.plan.dnsTxt!.value]);
    run.advance(3601);
    expect(await run.domains.verify('acme', 'dns.example.test')).toMatchObject({
      outcome: 'challenge-expired',
      domainStatus: 'expired',
      challengeStatus: 'expired',
    });
    expect(run.logger.withEventId(deliveryEventIds.domainVerificationRefused)).toHaveLength(2);
    expect(run.logger.withEventId(deliveryEventIds.domainProofCollectionFailed)).toHaveLength(2);
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
    txt.set(dns.plan.dnsTxt!.name, [dns.plan.dnsTxt!.value]);
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
