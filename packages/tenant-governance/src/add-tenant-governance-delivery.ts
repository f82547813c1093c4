import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import { governanceContextKey, tenantGovernanceRegistrationKey } from './add-tenant-governance';
import type { DeliveryDispatcher } from './delivery-dispatcher';
import { deliveryEventIdNames, deliveryEventIds } from './delivery-event-ids';
import { deliveryOptionsSchema, type DeliveryOptions, type DeliveryOptionsInput } from './delivery-options';
import {
  addDeliveryJobs,
  createDeliveryParts,
  deliveryLifecycleHooks,
  openDeliveryStores,
  type DeliveryParts,
  type DeliveryStores,
} from './delivery-parts';
import { deliveryPosture } from './delivery-posture';
import { tenantGovernanceDeliveryRegistrationKey } from './delivery-registration-names';
import {
  governanceDeliveryPostureKey,
  invitationDeliveryDispatcherKey,
  invitationSenderRegistryKey,
} from './delivery-seams';
import type { DeliveryStatusBook } from './delivery-status-book';
import { invitationDeliveryStatusKey } from './delivery-status-types';
import { domainVerificationKey } from './domain-verification-types';
import type { DomainVerifier, DomainVerifierExtensions } from './domain-verifier';
import type { GovernanceContext } from './governance-context';
import { governanceSectionPath } from './governance-options';
import { invitationDeliveryRetryRunnerKey, type RetryRunner } from './retry-runner';
import type { SenderRegistry } from './sender-registry';
import { tenantGovernanceKey } from './tenant-governance';

export { deliveryStoreNames, tenantGovernanceDeliveryRegistrationKey } from './delivery-registration-names';

/** Code-only options: a clock for tests, and the TLS trust and address lookup of proof collection. */
export interface TenantGovernanceDeliveryExtensions extends DomainVerifierExtensions {
  readonly now?: () => Date;
}

/** What `addTenantGovernanceDelivery` answers (each part is also provided under its typed key). */
export interface TenantGovernanceDelivery {
  readonly senders: SenderRegistry;
  readonly dispatcher: DeliveryDispatcher;
  readonly retryRunner: RetryRunner;
  readonly status: DeliveryStatusBook;
  readonly domains: DomainVerifier;
  readonly settings: DeliveryOptions;
}

/**
 * Registers invitation delivery and domain-ownership verification on top of `addTenantGovernance`: the
 * sender registry, the dispatcher, the retry queue and runner (with its job), delivery-status
 * reconciliation with the observation store, domain verification with its polling job, the delivery
 * fields of the governance surfaces and event ids 4530-4549 and 4552-4557. Binds the delivery keys of
 * `Engine:MultiTenancy:Governance` (spec 2.4 and `DomainVerification`).
 */
export function addTenantGovernanceDelivery(
  builder: EngineBuilder,
  options?: DeliveryOptionsInput,
  extensions: TenantGovernanceDeliveryExtensions = {},
): TenantGovernanceDelivery {
  const governance = builder.resolve(tenantGovernanceKey);
  const context = builder.resolve(governanceContextKey);
  if (!governance || !context || !builder.hasRegistration(tenantGovernanceRegistrationKey)) {
    throw new CoreError(
      'GOVERNANCE_NOT_REGISTERED',
      'addTenantGovernanceDelivery needs addTenantGovernance first on the same builder',
    );
  }
  builder.claimRegistration({
    packageName: '@corekit/tenant-governance',
    entry: 'addTenantGovernanceDelivery',
    key: tenantGovernanceDeliveryRegistrationKey,
  });
  const settings = builder.configuration.bind(governanceSectionPath, deliveryOptionsSchema, options);
  const now = extensions.now ?? context.now;
  const stores = openDeliveryStores(builder, settings, context.settings.MaxRecordsPerStore, now);
  const parts = createDeliveryParts(builder, { settings, context, governance, stores, now, extensions });
  addDeliveryJobs(builder, settings, parts);
  provideDeliveryParts(builder, parts, settings, stores, context);
  builder.addEventIds({
    component: 'Tenant governance',
    ranges: [
      [4530, 4549],
      [4552, 4557],
    ],
    names: deliveryEventIdNames,
  });
  builder.addLifecycleHooks(deliveryLifecycleHooks(builder, stores, parts.queue));
  builder.logger.log({
    level: 'info',
    eventId: deliveryEventIds.deliveryRegistered,
    category: 'tenant-governance.delivery',
    message: `Invitation delivery registered (retry queue ${settings.EnableInvitationDeliveryRetryQueue ? 'enabled' : 'disabled'}, DNS TXT ${parts.domains.dnsEnabled ? 'enabled' : 'disabled'})`,
  });
  const { senders, dispatcher, retryRunner, status, domains } = parts;
  return { senders, dispatcher, retryRunner, status, domains, settings };
}

/** Provides each part under its typed key, and the delivery fields of the governance surfaces. */
function provideDeliveryParts(
  builder: EngineBuilder,
  parts: DeliveryParts,
  settings: DeliveryOptions,
  stores: DeliveryStores,
  context: GovernanceContext,
): void {
  builder.provide(invitationSenderRegistryKey, parts.senders);
  builder.provide(invitationDeliveryDispatcherKey, parts.dispatcher);
  builder.provide(invitationDeliveryRetryRunnerKey, parts.retryRunner);
  builder.provide(invitationDeliveryStatusKey, parts.status);
  builder.provide(domainVerificationKey, parts.domains);
  builder.provide(
    governanceDeliveryPostureKey,
    deliveryPosture({
      ...parts,
      settings,
      queueStore: stores.queue,
      observationStore: stores.observations,
      freshness: () => context.sharedState.freshness(),
    }),
  );
}
