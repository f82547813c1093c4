import { GovernanceContributions } from './governance-contributions';

const known = new Set(['acme', 'globex']);
const contributions = () => new GovernanceContributions((tenantId) => known.has(tenantId));

describe('GovernanceContributions', () => {
  it('keeps the contributions in the order they were made, with their module', () => {
    const book = contributions();
    book.add('billing', { domains: [{ tenantId: 'acme', domainName: 'billing.example.test' }] });
    book.add('support', { memberships: [{ tenantId: 'globex', principalId: 'bot', roles: ['viewer'] }] });
    expect(book.list().map((item) => item.moduleId)).toEqual(['billing', 'support']);
  });

  it('refuses a contribution naming an unknown tenant, listing each unknown tenant once, and keeps nothing of it', () => {
    const book = contributions();
    expect(() =>
      book.add('billing', {
        memberships: [{ tenantId: 'nowhere', principalId: 'p', roles: ['member'] }],
        actions: [
          { id: 'a', tenantId: 'nowhere', kind: 'approval', subjectKind: 'tenant', title: 'T' },
          { id: 'b', tenantId: 'elsewhere', kind: 'approval', subjectKind: 'tenant', title: 'T' },
        ],
        domains: [{ tenantId: 'acme', domainName: 'ok.example.test' }],
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'GOVERNANCE_CONTRIBUTION_INVALID',
        message: 'Module billing contributed records for unknown tenant(s) nowhere, elsewhere',
      }),
    );
    expect(book.list()).toEqual([]);
  });

  it('refuses every contribution once closed (the service started), and says it is closed', () => {
    const book = contributions();
    expect(book.isClosed).toBe(false);
    book.close();
    expect(book.isClosed).toBe(true);
    expect(() => book.add('late', {})).toThrow(
      expect.objectContaining({ code: 'GOVERNANCE_ALREADY_STARTED' }),
    );
  });
});
