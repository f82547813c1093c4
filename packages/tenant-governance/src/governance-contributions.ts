import { CoreError } from '@corekit/abstractions';
import type { ModuleContribution } from './governance-seed';
import type { GovernanceContribution } from './tenant-governance';

/**
 * The records modules contribute before the engine starts (`TenantGovernance.contribute`), seeded at start
 * with the configured ones. Refuses a contribution naming an unknown tenant (GOVERNANCE_CONTRIBUTION_INVALID,
 * the tenant ids listed) and any contribution once closed (GOVERNANCE_ALREADY_STARTED).
 */
export class GovernanceContributions {
  private readonly contributions: ModuleContribution[] = [];
  private closed = false;

  constructor(private readonly isKnownTenant: (tenantId: string) => boolean) {}

  add(moduleId: string, contribution: GovernanceContribution): void {
    if (this.closed) {
      throw new CoreError(
        'GOVERNANCE_ALREADY_STARTED',
        'Governance contributions must be made before the engine starts',
      );
    }
    const tenants = [
      ...(contribution.memberships ?? []),
      ...(contribution.actions ?? []),
      ...(contribution.domains ?? []),
    ].map((item) => item.tenantId);
    const unknown = tenants.filter((tenantId) => !this.isKnownTenant(tenantId));
    if (unknown.length > 0) {
      throw new CoreError(
        'GOVERNANCE_CONTRIBUTION_INVALID',
        `Module ${moduleId} contributed records for unknown tenant(s) ${[...new Set(unknown)].join(', ')}`,
      );
    }
    this.contributions.push({ moduleId, contribution });
  }

  /** Refuses further contributions (the service started). */
  close(): void {
    this.closed = true;
  }

  /** Whether the service started: commands run only then. */
  get isClosed(): boolean {
    return this.closed;
  }

  list(): readonly ModuleContribution[] {
    return this.contributions;
  }
}
