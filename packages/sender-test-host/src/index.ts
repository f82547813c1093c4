import type { EngineBuilder } from '@corekit/abstractions';
import { addMultiTenancy } from '@corekit/tenancy';
import { addTenantGovernance, addTenantGovernanceDelivery } from '@corekit/tenant-governance';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { createLeakSeeds, engineOutputs, findLeaks, type LeakSeeds } from '@corekit/sender-kit';

/**
 * A started engine with tenancy (tenant `acme`), governance and delivery (retry queue on, no delay) and the
 * senders `register` adds: the host every sender package's provider suite and the end-to-end test run in.
 * Seeds distinctive secrets, template bodies and addresses (`seeds`) for the secret-leak check. Tests only.
 */
export async function startSenderTestHost(
  register: (builder: EngineBuilder, seeds: LeakSeeds) => void,
  options: { seedNames?: readonly string[]; configuration?: Record<string, unknown> } = {},
) {
  const seeds = createLeakSeeds([
    'recipientEmail',
    'inviteeEmail',
    'textBody',
    'htmlBody',
    'subject',
    ...(options.seedNames ?? []),
  ]);
  const { builder, logger } = createTestEngineBuilder({ configuration: options.configuration ?? {} });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
  const governance = addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
  const delivery = addTenantGovernanceDelivery(builder, {
    EnableInvitationDeliveryRetryQueue: true,
    InvitationDeliveryRetryDelaySeconds: 0,
  });
  register(builder, seeds);
  const engine = builder.build();
  await engine.start();
  const recorded: Record<string, unknown> = {};
  let count = 0;
  let invited = 0;
  return {
    engine,
    logger,
    seeds,
    governance,
    delivery,
    /** Templates that carry the seeded subject and bodies (spread into a sender's options). */
    templates: {
      SubjectTemplate: `${seeds.values.subject} {tenantId}`,
      TextBodyTemplate: `${seeds.values.textBody} {invitationId} {roles}`,
      HtmlBodyTemplate: `<p>${seeds.values.htmlBody} {invitationId}</p>`,
    },
    /** A new pending email invitation to the seeded invitee address (see `inviteeOf`); answers its id. */
    /** The invitee address of the `n`th invitation (1-based): the seed, then `<n>.<seed>`. */
    inviteeOf: (n: number) => (n === 1 ? seeds.values.inviteeEmail! : `${n}.${seeds.values.inviteeEmail!}`),
    async invite(metadata?: Record<string, string>): Promise<string> {
      invited++;
      const { invitation } = await governance.execute({
        command: 'invite',
        tenantId: 'acme',
        inviteeKind: 'email',
        inviteeId: invited === 1 ? seeds.values.inviteeEmail! : `${invited}.${seeds.values.inviteeEmail!}`,
        roles: ['member'],
        ...(metadata ? { metadata } : {}),
      });
      return invitation!.invitationId;
    },
    /** Dispatches and keeps the answer for the leak check. */
    async dispatch(
      invitationId: string,
      extra: { channel?: string; metadata?: Record<string, string> } = {},
    ) {
      const result = await delivery.dispatcher.dispatch({ tenantId: 'acme', invitationId, ...extra });
      recorded[`dispatch-${++count}`] = result;
      recorded[`runs-${count}`] = await delivery.dispatcher.runState('acme', invitationId);
      return result;
    },
    /** Retries pending items and keeps the answer for the leak check. */
    async retry() {
      const result = await delivery.retryRunner.retryPending();
      recorded[`retry-${++count}`] = result;
      return result;
    },
    /** Every seeded value found in outcomes, run state, logs, surfaces, snapshot, diagnostics and `extra`. */
    leaks(extra: Record<string, unknown> = {}) {
      return findLeaks(seeds, { ...engineOutputs(engine, logger.text()), ...recorded, ...extra });
    },
    stop: () => engine.stop(),
  };
}

export type SenderTestHost = Awaited<ReturnType<typeof startSenderTestHost>>;

/** The variable holding the address live provider tests send to. */
export const liveRecipientVariable = 'COREKIT_LIVE_RECIPIENT';

/**
 * Section options for a live provider test, read as JSON from `variable` (the section's keys, secrets
 * included); undefined when it or `COREKIT_LIVE_RECIPIENT` is unset, and always undefined under CI=true, so
 * live tests run only on a developer's machine. Tests register the live case only when it is set (no skipped test in CI).
 */
export function liveSenderOptions<T>(variable: string): T | undefined {
  const text = process.env[variable];
  if (!text || !process.env[liveRecipientVariable] || process.env.CI === 'true') return undefined;
  return JSON.parse(text) as T;
}

/** Dispatches one invitation to `COREKIT_LIVE_RECIPIENT` through the senders `register` adds; answers the result. */
export async function dispatchLive(register: (builder: EngineBuilder) => void) {
  const host = await startSenderTestHost((builder) => register(builder));
  try {
    const invitationId = await host.invite();
    return await host.dispatch(invitationId, {
      metadata: { recipientEmail: process.env[liveRecipientVariable]! },
    });
  } finally {
    await host.stop();
  }
}
