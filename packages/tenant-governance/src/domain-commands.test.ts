import { declareDomain, listDomains, removeDomain } from './domain-commands';
import { startGovernance } from './test-support';

type Started = Awaited<ReturnType<typeof startGovernance>>;
let current: Started | undefined;
afterEach(async () => {
  await current?.engine.stop();
  current = undefined;
});
const refusal = (kind: string, code: string) => expect.objectContaining({ kind, code });

describe('domain commands', () => {
  it('declare normalizes the name, writes a runtime record in status declared and audits it', async () => {
    current = await startGovernance();
    const { context } = current;
    const declared = await declareDomain(context, {
      tenantId: 'acme',
      domainName: 'Shop.Example.TEST.',
      actor: 'admin-1',
    });
    expect(declared).toMatchObject({
      tenantId: 'acme',
      domainName: 'shop.example.test',
      status: 'declared',
      origin: 'runtime',
      sourceModuleId: null,
      verificationMethod: null,
    });
    const [entry] = (await context.audit.list()).map((record) => record.value);
    expect(entry).toMatchObject({
      command: 'declare-domain',
      recordKind: 'domain',
      recordId: declared.domainId,
      toStatus: 'declared',
      actor: 'admin-1',
    });
    expect(context.applied.get('declare-domain')).toBe(1);
  });

  it('refuses a malformed name, an unknown tenant and a name any tenant declared already', async () => {
    current = await startGovernance();
    const { context } = current;
    await expect(declareDomain(context, { tenantId: 'acme', domainName: 'not a domain' })).rejects.toEqual(
      refusal('invalid-input', 'DOMAIN_INVALID'),
    );
    await expect(
      declareDomain(context, { tenantId: 'nowhere', domainName: 'a.example.test' }),
    ).rejects.toEqual(refusal('not-found', 'TENANT_NOT_FOUND'));
    await declareDomain(context, { tenantId: 'acme', domainName: 'taken.example.test' });
    await expect(
      declareDomain(context, { tenantId: 'globex', domainName: 'TAKEN.example.test' }),
    ).rejects.toEqual(refusal('conflict', 'DOMAIN_ALREADY_DECLARED'));
    expect(context.refused.get('declare-domain')).toBe(3);
  });

  it("lists each tenant's own domains; remove refuses another tenant's domain and removes the tenant's own", async () => {
    current = await startGovernance();
    const { context } = current;
    await declareDomain(context, { tenantId: 'acme', domainName: 'one.example.test' });
    await declareDomain(context, { tenantId: 'globex', domainName: 'two.example.test' });
    expect((await listDomains(context, 'acme')).map((domain) => domain.domainName)).toEqual([
      'one.example.test',
    ]);
    await expect(removeDomain(context, { tenantId: 'acme', domainName: 'two.example.test' })).rejects.toEqual(
      refusal('not-found', 'DOMAIN_NOT_FOUND'),
    );
    await removeDomain(context, { tenantId: 'globex', domainName: 'Two.Example.test' });
    expect(await listDomains(context, 'globex')).toEqual([]);
    const removal = (await context.audit.list()).map((record) => record.value).at(-1);
    expect(removal).toMatchObject({ command: 'remove-domain', fromStatus: 'declared', toStatus: 'removed' });
  });
});
