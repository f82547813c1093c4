import type { StoreProvider } from '@corekit/abstractions';
import { addMultiTenancy } from '@corekit/tenancy';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addTenantGovernance } from './add-tenant-governance';
import {
  addTenantGovernanceDelivery,
  type TenantGovernanceDeliveryExtensions,
} from './add-tenant-governance-delivery';
import type { DeliveryOptionsInput } from './delivery-options';
import type { InvitationSender, InvitationSendRequest, InvitationSendResult } from './delivery-seams';
import type { TenantGovernanceOptionsInput } from './governance-options';

/** A sender answering from a script (one result per call, the last repeated); records safe request facts. Tests only. */
export function scriptedSender(
  id: string,
  script: ReadonlyArray<InvitationSendResult | Error | (() => Promise<InvitationSendResult>)>,
  supportedChannels: readonly string[] = ['email'],
) {
  const calls: InvitationSendRequest[] = [];
  const sender: InvitationSender = {
    id,
    supportedChannels,
    async send(request) {
      calls.push(request);
      const step = script[Math.min(calls.length - 1, script.length - 1)];
      if (step instanceof Error) throw step;
      return typeof step === 'function' ? step() : step;
    },
  };
  return { sender, calls };
}

/** A started engine with tenancy (acme, globex), governance and delivery, a movable clock. Tests only. */
export async function startDelivery(
  delivery: DeliveryOptionsInput = {},
  options: {
    governance?: TenantGovernanceOptionsInput;
    configuration?: Record<string, unknown>;
    senders?: readonly InvitationSender[];
    extensions?: TenantGovernanceDeliveryExtensions;
    contentRoot?: string;
    /** A store provider installed in code after every add* call (as a host may do). */
    storeProvider?: StoreProvider;
  } = {},
) {
  let now = new Date('2030-01-01T00:00:00.000Z');
  const clock = () => now;
  const { builder, logger } = createTestEngineBuilder({
    configuration: options.configuration ?? {},
    ...(options.contentRoot ? { contentRoot: options.contentRoot } : {}),
  });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }, { Id: 'globex' }] });
  const governance = addTenantGovernance(
    builder,
    { InvitationExpirySweepIntervalSeconds: 0, ...options.governance },
    { now: clock },
  );
  const parts = addTenantGovernanceDelivery(builder, delivery, { now: clock, ...options.extensions });
  for (const sender of options.senders ?? []) parts.senders.add(sender);
  if (options.storeProvider) builder.useStoreProvider(options.storeProvider);
  const engine = builder.build();
  await engine.start();
  return {
    engine,
    governance,
    ...parts,
    logger,
    queueCount: () => parts.retryRunner['queue'].count,
    /** Every queue entry with its store version. */
    queueSnapshot: async () =>
      (await parts.retryRunner['queue'].store.list()).map((record) => [
        record.key,
        record.version,
        record.value,
      ]),
    advance(seconds: number) {
      now = new Date(now.getTime() + seconds * 1000);
    },
    async invite(inviteeId = 'person@example.test', tenantId = 'acme', metadata?: Record<string, string>) {
      const result = await governance.execute({
        command: 'invite',
        tenantId,
        inviteeKind: 'email',
        inviteeId,
        roles: ['member'],
        ...(metadata ? { metadata } : {}),
      });
      return result.invitation!;
    },
  };
}
