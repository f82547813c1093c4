import { addMultiTenancy } from '@corekit/tenancy';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addTenantGovernance, governanceContextKey } from './add-tenant-governance';
import type { TenantGovernanceOptionsInput } from './governance-options';

/** A started engine with tenancy (acme, globex) and governance, a movable clock and a capture logger. Tests only. */
export async function startGovernance(
  options: TenantGovernanceOptionsInput = {},
  configuration: Record<string, unknown> = {},
) {
  let now = new Date('2030-01-01T00:00:00.000Z');
  const { builder, logger } = createTestEngineBuilder({ configuration });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }, { Id: 'globex' }] });
  const governance = addTenantGovernance(
    builder,
    { InvitationExpirySweepIntervalSeconds: 0, ...options },
    { now: () => now },
  );
  const engine = builder.build();
  await engine.start();
  return {
    engine,
    governance,
    /** The context the service's parts share (for the tests of one part). */
    context: builder.resolve(governanceContextKey)!,
    logger,
    advance(seconds: number) {
      now = new Date(now.getTime() + seconds * 1000);
    },
  };
}
