import { governanceEventIds } from './governance-event-ids';
import { executeAdministrationRequest } from './administration-execution';
import { startGovernance } from './test-support';

type Started = Awaited<ReturnType<typeof startGovernance>>;
let current: Started | undefined;
afterEach(async () => {
  await current?.engine.stop();
  current = undefined;
});

describe('administration request execution', () => {
  it('runs an invitation command and a membership command by their command name', async () => {
    current = await startGovernance();
    const { context } = current;
    const invited = await executeAdministrationRequest(context, {
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'user',
      inviteeId: 'user-1',
      roles: ['member'],
    });
    expect(invited).toMatchObject({ command: 'invite', outcome: 'applied', membership: null });
    const added = await executeAdministrationRequest(context, {
      command: 'add-member',
      tenantId: 'acme',
      principalId: 'user-2',
      roles: ['viewer'],
    });
    expect(added).toMatchObject({
      command: 'add-member',
      invitation: null,
      membership: { status: 'active' },
    });
  });

  it('refuses invalid input with the issues, counts it under invalid and logs a known command name or unknown', async () => {
    current = await startGovernance();
    const { context, logger } = current;
    await expect(
      executeAdministrationRequest(context, { command: 'invite', tenantId: 'acme', secret: 'x' }),
    ).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'GOVERNANCE_REQUEST_INVALID',
      details: { errors: expect.arrayContaining([expect.objectContaining({ path: 'inviteeKind' })]) },
    });
    await expect(executeAdministrationRequest(context, { command: 'take-over' })).rejects.toMatchObject({
      code: 'GOVERNANCE_REQUEST_INVALID',
    });
    await expect(executeAdministrationRequest(context, null)).rejects.toMatchObject({
      code: 'GOVERNANCE_REQUEST_INVALID',
    });
    expect(context.refused.get('invalid')).toBe(3);
    expect(logger.withEventId(governanceEventIds.commandRefused).map((record) => record.command)).toEqual([
      'invite',
      'unknown',
      'unknown',
    ]);
    expect(logger.text()).not.toContain('take-over');
  });
});
