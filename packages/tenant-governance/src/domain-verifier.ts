import { randomBytes, randomUUID } from 'node:crypto';
import {
  OperationError,
  type StoreMirror,
  type JobHandle,
  type KeyedStore,
  type Logger,
} from '@corekit/abstractions';
import { deliveryEventIds } from './delivery-event-ids';
import type { DomainVerificationOptions } from './delivery-options';
import type {
  DomainProofChallenge,
  PollingPassResult,
  ProofMethod,
  ProofPublicationPlan,
  TenantDomainVerification,
  VerificationOutcome,
  VerificationResult,
} from './domain-verification-types';
import { domainKey, type GovernanceContext } from './governance-context';
import type { TenantDomainRecord } from './governance-records';
import type { ProofTransport } from './proof-collectors';
import { collectProof, publicationPlanFor } from './proof-evaluation';

export type DomainVerifierExtensions = ProofTransport;

/** Polling state for the surface (per process). */
export interface PollingState {
  runCount: number;
  latestOutcome: string | null;
  latestCompletedAtUtc: string | null;
}

/**
 * The verification workflow over the governance domain store and a challenge store (one live challenge
 * per domain). Logs carry the tenant, the method and the outcome, never the domain name or the token.
 */
export class DomainVerifier implements TenantDomainVerification {
  readonly polling: PollingState = { runCount: 0, latestOutcome: null, latestCompletedAtUtc: null };
  job: JobHandle<PollingPassResult> | undefined;
  readonly httpFilePathPrefix: string;
  /**
   * The read copy of the challenges the surface counts come from: one of the governance `SharedStateMirrors`
   * (loaded at start, following the change feed of a shared store); it takes this process's writes at once.
   */
  private readonly mirror: StoreMirror<DomainProofChallenge>;

  constructor(
    private readonly context: GovernanceContext,
    readonly options: DomainVerificationOptions,
    private readonly challenges: KeyedStore<DomainProofChallenge>,
    private readonly logger: Logger,
    private readonly now: () => Date,
    private readonly transport: ProofTransport,
  ) {
    this.httpFilePathPrefix = options.HttpFilePathPrefix;
    this.mirror = context.sharedState.mirror(challenges);
  }

  get dnsEnabled(): boolean {
    return Boolean(this.options.DnsOverHttpsResolverUrl) && this.options.EnableDnsTxtCollection !== false;
  }

  /** Live HTTP-file challenges (issued, not expired) in the read copy. */
  get publishedHttpProofCount(): number {
    const now = this.now().toISOString();
    return this.mirror
      .values()
      .filter(
        (challenge) =>
          challenge.method === 'http-file' && challenge.status === 'issued' && challenge.expiresAtUtc > now,
      ).length;
  }

  /** Reads every challenge into the copy (a shared store's copy otherwise follows the change feed). */
  load(): Promise<void> {
    return this.mirror.load();
  }

  private async putChallenge(challenge: DomainProofChallenge): Promise<void> {
    const result = await this.challenges.put(domainKey(challenge.domainName), challenge);
    if (result.written) this.mirror.remember(result.record);
  }

  private async deleteChallenge(domainName: string): Promise<void> {
    if (await this.challenges.delete(domainKey(domainName))) this.mirror.forget(domainKey(domainName));
  }

  private async domain(tenantId: string, domainName: string) {
    const name = domainName.trim().toLowerCase().replace(/\.$/, '');
    const record = await this.context.domains.get(domainKey(name));
    if (!record || record.tenantId !== tenantId) {
      throw new OperationError('not-found', 'DOMAIN_NOT_FOUND', 'The tenant has not declared this domain');
    }
    return record;
  }

  private async setDomain(
    record: TenantDomainRecord & { version: number },
    change: Partial<TenantDomainRecord>,
  ) {
    const updatedAtUtc = this.now().toISOString();
    await this.context.domains.write(
      domainKey(record.domainName),
      { ...record, ...change, updatedAtUtc },
      record.version,
    );
  }

  private plan(challenge: DomainProofChallenge): ProofPublicationPlan {
    return publicationPlanFor(challenge, this.options);
  }

  private assertMethod(method: ProofMethod): void {
    const enabled = method === 'dns-txt' ? this.dnsEnabled : this.options.EnableHttpFileCollection;
    if (!enabled) {
      throw new OperationError('conflict', 'PROOF_METHOD_DISABLED', `Proof method ${method} is not enabled`);
    }
  }

  async issueChallenge(request: { tenantId: string; domainName: string; method: ProofMethod }) {
    this.assertMethod(request.method);
    const domain = await this.domain(request.tenantId, request.domainName);
    const issued = this.now();
    const challenge: DomainProofChallenge = {
      challengeId: randomUUID(),
      tenantId: domain.tenantId,
      domainName: domain.domainName,
      method: request.method,
      token: randomBytes(32).toString('base64url'),
      issuedAtUtc: issued.toISOString(),
      expiresAtUtc: new Date(issued.getTime() + this.options.ChallengeLifetimeSeconds * 1000).toISOString(),
      status: 'issued',
      attemptCount: 0,
      lastOutcome: null,
      lastReason: null,
      lastCheckedAtUtc: null,
    };
    await this.putChallenge(challenge);
    await this.setDomain(domain, {
      status: 'pending-verification',
      verificationMethod: null,
      verifiedAtUtc: null,
    });
    this.logger.log({
      level: 'info',
      eventId: deliveryEventIds.domainChallengeIssued,
      category: 'tenant-governance.domains',
      message: `Domain proof challenge issued (tenant ${domain.tenantId}, method ${request.method})`,
      tenantId: domain.tenantId,
      method: request.method,
    });
    return { challenge, plan: this.plan(challenge) };
  }

  async getChallenge(tenantId: string, domainName: string) {
    const domain = await this.domain(tenantId, domainName);
    return (await this.challenges.get(domainKey(domain.domainName)))?.value;
  }

  async publicationPlan(tenantId: string, domainName: string) {
    const challenge = await this.getChallenge(tenantId, domainName);
    if (!challenge)
      throw new OperationError('not-found', 'CHALLENGE_NOT_FOUND', 'No challenge was issued for this domain');
    return this.plan(challenge);
  }

  async httpProofFile(requestPath: string) {
    if (!requestPath.startsWith(this.options.HttpFilePathPrefix)) return undefined;
    const challengeId = requestPath.slice(this.options.HttpFilePathPrefix.length);
    if (!/^[0-9a-f-]{36}$/.test(challengeId)) return undefined;
    const now = this.now().toISOString();
    const found = (await this.challenges.list()).find(
      (record) => record.value.challengeId === challengeId,
    )?.value;
    if (!found || found.method !== 'http-file' || found.status !== 'issued' || found.expiresAtUtc <= now)
      return undefined;
    return { body: found.token, contentType: 'text/plain' as const };
  }

  async verify(tenantId: string, domainName: string): Promise<VerificationResult> {
    const domain = await this.domain(tenantId, domainName);
    const stored = await this.challenges.get(domainKey(domain.domainName));
    if (!stored)
      throw new OperationError('not-found', 'CHALLENGE_NOT_FOUND', 'No challenge was issued for this domain');
    return this.check(domain, stored.value);
  }

  private async check(domain: TenantDomainRecord & { version: number }, challenge: DomainProofChallenge) {
    const checkedAt = this.now();
    const checkedAtUtc = checkedAt.toISOString();
    let result: { outcome: VerificationOutcome; reason: string | null };
    if (challenge.status !== 'issued') {
      result = {
        outcome:
          challenge.status === 'verified'
            ? 'verified'
            : challenge.status === 'expired'
              ? 'challenge-expired'
              : 'proof-mismatch',
        reason: 'challenge-closed',
      };
    } else if (challenge.expiresAtUtc <= checkedAtUtc) {
      result = { outcome: 'challenge-expired', reason: 'challenge-expired' };
    } else {
      result = await collectProof(challenge, this.options, this.transport, this.dnsEnabled);
    }
    const open = challenge.status === 'issued';
    const challengeStatus: DomainProofChallenge['status'] = !open
      ? challenge.status
      : result.outcome === 'verified'
        ? 'verified'
        : result.outcome === 'proof-mismatch'
          ? 'refused'
          : result.outcome === 'challenge-expired'
            ? 'expired'
            : 'issued';
    let domainStatus = domain.status;
    if (open) {
      await this.putChallenge({
        ...challenge,
        status: challengeStatus,
        attemptCount: challenge.attemptCount + 1,
        lastOutcome: result.outcome,
        lastReason: result.reason,
        lastCheckedAtUtc: checkedAtUtc,
      });
      const change: Partial<TenantDomainRecord> | null =
        challengeStatus === 'verified'
          ? { status: 'verified', verificationMethod: challenge.method, verifiedAtUtc: checkedAtUtc }
          : challengeStatus === 'refused'
            ? { status: 'failed' }
            : challengeStatus === 'expired'
              ? { status: 'expired' }
              : null;
      if (change) {
        await this.setDomain(domain, change);
        domainStatus = change.status!;
      }
    }
    this.log(domain.tenantId, challenge.method, result.outcome, result.reason);
    return { ...result, method: challenge.method, domainStatus, challengeStatus, checkedAtUtc };
  }

  private log(tenantId: string, method: ProofMethod, outcome: VerificationOutcome, reason: string | null) {
    const eventId =
      outcome === 'verified'
        ? deliveryEventIds.domainVerified
        : outcome === 'challenge-expired'
          ? deliveryEventIds.domainChallengeExpired
          : outcome === 'collection-failed' || outcome === 'proof-missing'
            ? deliveryEventIds.domainProofCollectionFailed
            : deliveryEventIds.domainVerificationRefused;
    this.logger.log({
      level: outcome === 'verified' ? 'info' : 'warn',
      eventId,
      category: 'tenant-governance.domains',
      message: `Domain verification ${outcome}${reason ? ` (${reason})` : ''} (tenant ${tenantId}, method ${method})`,
      tenantId,
      method,
      outcome,
      reason,
    });
  }

  async verifyPending(batchSize = this.options.BackgroundPollingBatchSize): Promise<PollingPassResult> {
    const live = (await this.challenges.list())
      .map((record) => record.value)
      .filter((challenge) => challenge.status === 'issued')
      .sort((a, b) => ((a.lastCheckedAtUtc ?? '') < (b.lastCheckedAtUtc ?? '') ? -1 : 1))
      .slice(0, batchSize);
    const outcomes: Record<string, number> = {};
    for (const challenge of live) {
      const domain = await this.context.domains.get(domainKey(challenge.domainName));
      if (!domain || domain.tenantId !== challenge.tenantId) {
        await this.deleteChallenge(challenge.domainName);
        outcomes['domain-removed'] = (outcomes['domain-removed'] ?? 0) + 1;
        continue;
      }
      const result = await this.check(domain, challenge);
      outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
    }
    return { checked: live.length, outcomes };
  }

  /** The background polling job's run. */
  async pollPass(): Promise<PollingPassResult> {
    try {
      const result = await this.verifyPending();
      this.polling.latestOutcome = 'completed';
      this.logger.log({
        level: 'info',
        eventId: deliveryEventIds.domainPollingPassCompleted,
        category: 'tenant-governance.domains',
        message: `Domain proof polling pass: ${result.checked} challenge(s) checked`,
        checked: result.checked,
        outcomes: result.outcomes,
      });
      return result;
    } catch (error) {
      this.polling.latestOutcome = 'failed';
      throw error;
    } finally {
      this.polling.runCount++;
      this.polling.latestCompletedAtUtc = this.now().toISOString();
    }
  }
}
