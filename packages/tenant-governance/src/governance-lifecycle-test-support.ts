import type { Engine } from '@corekit/abstractions';
import { addMultiTenancy } from '@corekit/tenancy';
import type {
  PackLifecycleAdapter,
  PackLifecycleEnvironment,
} from '@corekit/testing/pack-lifecycle-conformance';
import { addTenantGovernance } from './add-tenant-governance';
import { addTenantGovernanceDelivery } from './add-tenant-governance-delivery';
import type { DeliveryDispatcher } from './delivery-dispatcher';

interface Parts {
  readonly governance: ReturnType<typeof addTenantGovernance>;
  readonly dispatcher: DeliveryDispatcher;
}

/** The parts of each engine the suite built, by the environment it was built with. */
const built = new Map<PackLifecycleEnvironment, Parts>();

function surface(engine: Engine): Record<string, unknown> {
  return engine.technologySurfaces().find((entry) => entry.id === 'tenant-invitations')?.metadata ?? {};
}

/**
 * Tenant governance with invitation delivery and its retry queue for the pack lifecycle conformance suite.
 * Work invites `<id>@example.test` (metadata `work: <id>`) and dispatches; the sender fails every first attempt
 * (journal `failed`), so each unit of work goes through the retry queue, which the background retry job sends
 * again through `environment.perform`. The queue's size on the `tenant-invitations` surface is compared with
 * the work that failed once and was not delivered yet.
 */
export function governanceLifecycleAdapter(packageDirectory?: string): PackLifecycleAdapter {
  return {
    pack: 'tenant-governance (invitation delivery, retry queue)',
    staged: true,
    processFixture: packageDirectory ? { packageDirectory, fixture: 'governance-lifecycle.ts' } : undefined,
    register(builder, environment) {
      addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
      const governance = addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
      const parts = addTenantGovernanceDelivery(builder, {
        EnableInvitationDeliveryRetryQueue: true,
        InvitationDeliveryRetryDelaySeconds: 0,
        EnableInvitationDeliveryRetryBackgroundScheduling: true,
        InvitationDeliveryRetryBackgroundIntervalSeconds: 1,
        InvitationDeliveryRetryBackgroundRunOnStartup: true,
      });
      parts.senders.add({
        id: 'lifecycle-sender',
        supportedChannels: ['email'],
        async send(request) {
          const id = request.invitation.metadata?.work ?? 'unknown';
          if (request.attempt === 1) {
            environment.record(id, 'failed');
            return { outcome: 'sender-failed', reason: 'first-attempt-fails', retryable: true };
          }
          await environment.perform(id, request.signal);
          return { outcome: 'dispatched', providerMessageId: `pm-${id}` };
        },
      });
      built.set(environment, { governance, dispatcher: parts.dispatcher });
    },
    async work(_engine, id, environment) {
      const { governance, dispatcher } = built.get(environment)!;
      const { invitation } = await governance.execute({
        command: 'invite',
        tenantId: 'acme',
        inviteeKind: 'email',
        inviteeId: `${id}@example.test`,
        roles: ['member'],
        metadata: { work: id },
      });
      await dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation!.invitationId });
    },
    async claims(engine) {
      const metadata = surface(engine);
      return { retryQueueCount: metadata.retryQueueCount ?? 0 };
    },
    async facts(_engine, environment) {
      const entries = environment.entries();
      const failed = new Set(entries.filter((entry) => entry.event === 'failed').map((entry) => entry.id));
      const done = new Set(entries.filter((entry) => entry.event === 'done').map((entry) => entry.id));
      return { retryQueueCount: [...failed].filter((id) => !done.has(id)).length };
    },
  };
}
