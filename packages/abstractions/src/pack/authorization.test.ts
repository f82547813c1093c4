import { authorizeBehaviorCall, type AuthorizationDecision } from './authorization';

const request = { method: 'POST', path: '/rpc', headers: { authorization: 'Bearer x' } };
const guarded = { id: 'vault.get', authorization: { mode: 'required' as const, policy: 'vault.read' } };

describe('authorizeBehaviorCall', () => {
  it('never asks for a behavior without a requirement, and asks with the policy and behavior id otherwise', async () => {
    const asked: unknown[] = [];
    const authorizer = (input: unknown) => {
      asked.push(input);
      return true;
    };
    expect(await authorizeBehaviorCall(authorizer, { id: 'open.get' }, request)).toBeNull();
    expect(
      await authorizeBehaviorCall(
        authorizer,
        { id: 'open.list', authorization: { mode: 'anonymous' } },
        request,
      ),
    ).toBeNull();
    expect(asked).toEqual([]);
    expect(await authorizeBehaviorCall(authorizer, guarded, request)).toEqual({
      subject: null,
      policy: 'vault.read',
      claims: {},
    });
    expect(asked).toEqual([{ ...request, policy: 'vault.read', operationId: 'vault.get' }]);
  });

  it('maps every refusal to an OperationError: no authorizer and unauthenticated 401-kind, the rest forbidden', async () => {
    await expect(authorizeBehaviorCall(undefined, guarded, request)).rejects.toMatchObject({
      kind: 'unauthenticated',
      code: 'BEHAVIOR_UNAUTHENTICATED',
    });
    const cases: Array<[() => AuthorizationDecision, string]> = [
      [() => ({ outcome: 'unauthenticated' }), 'unauthenticated'],
      [() => ({ outcome: 'forbidden', reason: 'no' }), 'forbidden'],
      [() => false, 'forbidden'],
      [
        () => {
          throw new Error('broken hook');
        },
        'forbidden',
      ],
    ];
    for (const [authorizer, kind] of cases) {
      await expect(authorizeBehaviorCall(authorizer, guarded, request)).rejects.toMatchObject({ kind });
    }
    const principal = await authorizeBehaviorCall(
      () => ({ outcome: 'allowed', principal: { subject: 'reader-1' } }),
      guarded,
      request,
    );
    expect(principal).toEqual({ subject: 'reader-1', policy: 'vault.read', claims: {} });
  });
});
