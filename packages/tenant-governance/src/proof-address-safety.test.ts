import type { LookupFunction } from 'node:net';
import type { DeliveryOptionsInput } from './delivery-options';
import { startDelivery } from './delivery-test-support';
import { startProofServers } from './proof-test-servers';

/** Test domains and the address the test resolver answers for each (one per internal address class). */
const internal: ReadonlyArray<readonly [string, string]> = [
  ['loopback.example.test', '127.0.0.1'],
  ['private.example.test', '10.20.30.40'],
  ['cgnat.example.test', '100.64.0.7'],
  ['metadata.example.test', '169.254.169.254'],
  ['link-local.example.test', 'fe80::1'],
  ['unique-local.example.test', 'fd12:3456::1'],
  ['ipv6-loopback.example.test', '::1'],
  ['mapped-loopback.example.test', '::ffff:127.0.0.1'],
  ['mapped-metadata.example.test', '::ffff:a9fe:a9fe'],
];

let servers: Awaited<ReturnType<typeof startProofServers>>;
beforeAll(async () => {
  servers = await startProofServers(['public.example.test', ...internal.map(([name]) => name)]);
});
afterAll(() => servers.close());

/** A resolver from a table, counting its calls per name; an unknown name is NXDOMAIN. */
function tableLookup(answers: (name: string, call: number) => string | undefined) {
  const calls = new Map<string, number>();
  const lookup: LookupFunction = (hostname, options, callback) => {
    const call = (calls.get(hostname) ?? 0) + 1;
    calls.set(hostname, call);
    const address = answers(hostname, call);
    if (!address) {
      callback(Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return { lookup, calls };
}

async function start(
  domains: readonly string[],
  lookup: LookupFunction,
  options: NonNullable<DeliveryOptionsInput['DomainVerification']> = {},
) {
  const run = await startDelivery(
    { DomainVerification: { ChallengeLifetimeSeconds: 3600, CollectionTimeoutSeconds: 2, ...options } },
    { extensions: { ca: servers.certificates.caCert, httpFilePort: servers.filePort, lookup } },
  );
  servers.serveProofsFrom((path) => run.domains.httpProofFile(path));
  for (const domainName of domains) await run.governance.declareDomain({ tenantId: 'acme', domainName });
  return run;
}

it.each(internal)(
  'refuses to fetch the HTTP file proof of %s (resolving to %s) without connecting: address-not-allowed',
  async (domainName, address) => {
    const { lookup } = tableLookup((name) => (name === domainName ? address : undefined));
    const run = await start([domainName], lookup);
    try {
      await run.domains.issueChallenge({ tenantId: 'acme', domainName, method: 'http-file' });
      servers.fileRequests.length = 0;
      expect(await run.domains.verify('acme', domainName)).toMatchObject({
        outcome: 'collection-failed',
        reason: 'address-not-allowed',
        challengeStatus: 'issued',
        domainStatus: 'pending-verification',
      });
      expect(servers.fileRequests).toEqual([]);
    } finally {
      await run.engine.stop();
    }
  },
);

it('refuses a domain when any of its addresses is internal', async () => {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    const addresses = [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, 4);
  };
  const run = await start(['public.example.test'], lookup);
  try {
    await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'public.example.test',
      method: 'http-file',
    });
    expect(await run.domains.verify('acme', 'public.example.test')).toMatchObject({
      outcome: 'collection-failed',
      reason: 'address-not-allowed',
    });
  } finally {
    await run.engine.stop();
  }
});

it('fetches from an allow-listed internal address, resolving once and connecting to the checked address', async () => {
  // A rebinding resolver: the checked answer is loopback (allowed), any later answer the metadata address.
  const resolver = tableLookup((name, call) =>
    name === 'loopback.example.test' ? (call === 1 ? '127.0.0.1' : '169.254.169.254') : undefined,
  );
  const run = await start(['loopback.example.test'], resolver.lookup, {
    HttpFileAllowedInternalAddresses: ['127.0.0.0/8'],
  });
  try {
    const { plan } = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'loopback.example.test',
      method: 'http-file',
    });
    servers.fileOverrides.set('loopback.example.test', (path) =>
      path === plan.httpFile!.path
        ? { status: 302, location: `${plan.httpFile!.path}?again` }
        : { status: 200, body: plan.httpFile!.body },
    );
    servers.fileRequests.length = 0;
    expect(await run.domains.verify('acme', 'loopback.example.test')).toMatchObject({
      outcome: 'verified',
      domainStatus: 'verified',
    });
    // Two requests (the redirect and its target) on one lookup, both to the address that was checked.
    expect(servers.fileRequests).toEqual([
      `loopback.example.test${plan.httpFile!.path}`,
      `loopback.example.test${plan.httpFile!.path}?again`,
    ]);
    expect(resolver.calls.get('loopback.example.test')).toBe(1);
  } finally {
    servers.fileOverrides.clear();
    await run.engine.stop();
  }
});

it('answers dns-lookup-failed when the domain does not resolve, and refuses a malformed allow-list entry', async () => {
  const run = await start(['public.example.test'], tableLookup(() => undefined).lookup);
  try {
    await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'public.example.test',
      method: 'http-file',
    });
    expect(await run.domains.verify('acme', 'public.example.test')).toMatchObject({
      outcome: 'collection-failed',
      reason: 'dns-lookup-failed',
    });
  } finally {
    await run.engine.stop();
  }
  await expect(
    startDelivery({ DomainVerification: { HttpFileAllowedInternalAddresses: ['localhost'] } }),
  ).rejects.toThrow(/HttpFileAllowedInternalAddresses/);
});
