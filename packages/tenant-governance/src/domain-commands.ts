import { randomUUID } from 'node:crypto';
import { normalizeHostName } from '@corekit/tenancy';
import { assertTenant, audit, domainKey, refuse, type GovernanceContext } from './governance-context';
import type { TenantDomainRecord } from './governance-records';

/** A well-formed DNS name: labels of letters, digits and inner hyphens, a top-level label of letters. */
const domainPattern = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A newly declared domain record (status declared, not verified). */
export function domainRecord(
  tenantId: string,
  domainName: string,
  sourceModuleId: string | null,
  stamp: string,
  origin: 'configured' | 'runtime',
): TenantDomainRecord {
  return {
    domainId: randomUUID(),
    tenantId,
    domainName,
    status: 'declared',
    verificationMethod: null,
    verifiedAtUtc: null,
    origin,
    sourceModuleId,
    createdAtUtc: stamp,
    updatedAtUtc: stamp,
  };
}

/**
 * Declares a tenant domain: the name is normalized (lower case, no trailing dot) and must be a well-formed DNS
 * name (400 DOMAIN_INVALID) declared by no tenant yet (409 DOMAIN_ALREADY_DECLARED; a concurrent declaration
 * loses the compare-and-set: 409 GOVERNANCE_VERSION_CONFLICT). Audited as `declare-domain`.
 */
export async function declareDomain(
  context: GovernanceContext,
  request: { tenantId: string; domainName: string; actor?: string },
): Promise<TenantDomainRecord> {
  const { tenantId, actor } = request;
  assertTenant(context, 'declare-domain', tenantId);
  const name = normalizeHostName(request.domainName);
  if (!domainPattern.test(name)) {
    refuse(
      context,
      'declare-domain',
      tenantId,
      'invalid-input',
      'DOMAIN_INVALID',
      'The domain name is not a well-formed DNS name',
    );
  }
  if (await context.domains.get(domainKey(name))) {
    refuse(
      context,
      'declare-domain',
      tenantId,
      'conflict',
      'DOMAIN_ALREADY_DECLARED',
      'The domain is already declared',
    );
  }
  const stamp = context.now().toISOString();
  const written = await context.domains.write(
    domainKey(name),
    domainRecord(tenantId, name, null, stamp, 'runtime'),
    0,
  );
  await audit(context, {
    command: 'declare-domain',
    tenantId,
    recordKind: 'domain',
    recordId: written.domainId,
    fromStatus: null,
    toStatus: 'declared',
    outcome: 'applied',
    actor: actor ?? null,
    correlationId: null,
  });
  return written;
}

/** Removes a domain the tenant declared (404 DOMAIN_NOT_FOUND for another tenant's or none). Audited as `remove-domain`. */
export async function removeDomain(
  context: GovernanceContext,
  request: { tenantId: string; domainName: string; actor?: string },
): Promise<void> {
  const { tenantId, actor } = request;
  assertTenant(context, 'remove-domain', tenantId);
  const key = domainKey(normalizeHostName(request.domainName));
  const current = await context.domains.get(key);
  if (!current || current.tenantId !== tenantId) {
    refuse(
      context,
      'remove-domain',
      tenantId,
      'not-found',
      'DOMAIN_NOT_FOUND',
      'The tenant has not declared this domain',
    );
  }
  await context.domains.delete(key, current.version);
  await audit(context, {
    command: 'remove-domain',
    tenantId,
    recordKind: 'domain',
    recordId: current.domainId,
    fromStatus: current.status,
    toStatus: 'removed',
    outcome: 'applied',
    actor: actor ?? null,
    correlationId: null,
  });
}

/** The domains the tenant declared, from the store. */
export async function listDomains(
  context: GovernanceContext,
  tenantId: string,
): Promise<Array<TenantDomainRecord & { version: number }>> {
  return (await context.domains.list('')).filter((domain) => domain.tenantId === tenantId);
}
