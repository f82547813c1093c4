// The pack lifecycle conformance adapter of the callback packages (not exported from the package index).
import type { Engine, EngineBuilder } from '@corekit/abstractions';
import { addMultiTenancy } from '@corekit/tenancy';
import { addTenantGovernance, addTenantGovernanceDelivery } from '@corekit/tenant-governance';
import type { PackLifecycleAdapter } from '@corekit/testing/pack-lifecycle-conformance';
import { invokeCallback, type FuzzRequest } from '../fuzz-harness';

/** The invitation a callback event reports on. */
export interface CallbackContext {
  readonly tenantId: string;
  readonly invitationId: string;
}

/** One provider's callback, as the adapter drives it. */
export interface CallbackUnderTest {
  /** In test titles: `SendGrid status callbacks`. */
  readonly name: string;
  readonly operationId: string;
  readonly surfaceId: string;
  /** Maps the callback (`mapSendGridStatusCallbacks`) with its verification keys. */
  register(builder: EngineBuilder): void;
  /**
   * A verified request carrying one `delivered` event `eventId` for `context`, signed now; a new `attempt` is a
   * new delivery of the same event (another request body, token or message id), never a replay of one.
   */
  request(eventId: string, context: CallbackContext, attempt: number): FuzzRequest | Promise<FuzzRequest>;
  /** The error code of a refused replay. Default `CALLBACK_REPLAY` (callback-kit's). */
  readonly replayCode?: string;
  /**
   * What the surfaces claim: the durability of the replay cache and of the observations behind event-id
   * idempotency, and the events reconciled by this process (when the surface counts them). Default: the
   * callback-kit surface `surfaceId`.
   */
  posture?(engine: Engine): CallbackPosture;
}

/** What a callback's surfaces say about its replay and idempotency state. */
export interface CallbackPosture {
  readonly replayDurability: unknown;
  readonly idempotencyDurability: unknown;
  readonly reconciled?: number;
}

interface Accepted {
  readonly request: FuzzRequest;
  readonly context: CallbackContext;
}

/**
 * The callback's replay protection and event-id idempotency for the pack lifecycle conformance suite: work
 * is one invitation and one signed `delivered` event accepted by the callback (recorded `done` once the
 * answer says accepted). The surface's claims are compared with what the endpoint does: every request
 * accepted before (by any engine of the test) is sent again (a duplicate request is refused with 409 where
 * the replay cache remembers it) and delivered again (a duplicate event is answered `duplicateEvents` where the
 * observations remember it, or 409 where the replay key is the event id, as SNS's MessageId). Where the surface says `process-memory`, only this engine's requests may be
 * remembered; anywhere else, all of them must be.
 */
export function callbackLifecycleAdapter(callback: CallbackUnderTest): PackLifecycleAdapter {
  const governance = new Map<number, ReturnType<typeof addTenantGovernance>>();
  const accepted = new Map<string, Accepted>();
  let attempts = 0;
  const replayCode = callback.replayCode ?? 'CALLBACK_REPLAY';
  const posture =
    callback.posture ??
    ((engine: Engine): CallbackPosture => {
      const metadata = engine.technologySurfaces().find((entry) => entry.id === callback.surfaceId)
        ?.metadata as Record<string, Record<string, unknown>> | undefined;
      return {
        replayDurability: metadata?.replayProtection?.durability,
        idempotencyDurability: metadata?.eventIdIdempotency?.durability,
        reconciled: (metadata?.counters as { eventsReconciled?: number } | undefined)?.eventsReconciled ?? 0,
      };
    });
  return {
    pack: `${callback.name} (replay and event-id idempotency)`,
    register(builder, environment) {
      addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
      governance.set(
        environment.engine,
        addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 }),
      );
      addTenantGovernanceDelivery(builder, {});
      callback.register(builder);
    },
    async work(engine, id, environment) {
      const invited = await governance.get(environment.engine)!.execute({
        command: 'invite',
        tenantId: 'acme',
        inviteeKind: 'email',
        inviteeId: `${id}@example.test`,
        roles: ['member'],
      });
      const context = { tenantId: 'acme', invitationId: invited.invitation!.invitationId };
      const request = await callback.request(id, context, 0);
      environment.record(id, 'entered');
      const answer = await invokeCallback(engine, callback.operationId, request);
      const body = answer.body as { accepted?: number } | undefined;
      if (answer.status === 200 && body?.accepted === 1) {
        accepted.set(id, { request, context });
        environment.record(id, 'done');
      } else {
        environment.record(id, 'failed');
      }
    },
    async claims(engine, environment) {
      const claimed = posture(engine);
      const done = (durability: unknown) =>
        environment
          .entries()
          .filter(
            (entry) =>
              entry.event === 'done' &&
              (durability !== 'process-memory' || entry.engine === environment.engine),
          ).length;
      return {
        // On the File store both must be durable: a callback accepted before a restart stays refused after.
        durable:
          claimed.replayDurability !== 'process-memory' && claimed.idempotencyDurability !== 'process-memory',
        rememberedRequests: done(claimed.replayDurability),
        rememberedEvents: done(claimed.idempotencyDurability),
        ...(claimed.reconciled === undefined ? {} : { reconciled: claimed.reconciled }),
      };
    },
    async facts(engine, environment) {
      const ids = environment
        .entries()
        .filter((entry) => entry.event === 'done')
        .map((entry) => entry.id);
      let rememberedRequests = 0;
      let rememberedEvents = 0;
      if (engine.state === 'Started') {
        for (const id of ids) {
          const { request, context } = accepted.get(id)!;
          const replayed = await invokeCallback(engine, callback.operationId, request);
          if (replayed.status === 409 && replayed.code === replayCode) rememberedRequests++;
          const resigned = await invokeCallback(
            engine,
            callback.operationId,
            await callback.request(id, context, ++attempts),
          );
          const body = resigned.body as { duplicateEvents?: number } | undefined;
          // Not accepted again: a duplicate event, or (where the replay key is the event id) a replay.
          const replay = resigned.status === 409 && resigned.code === replayCode;
          if (replay || (resigned.status === 200 && body?.duplicateEvents === 1)) rememberedEvents++;
        }
      }
      const reconciled = environment
        .entries()
        .filter((entry) => entry.event === 'done' && entry.engine === environment.engine).length;
      return {
        durable: environment.durable,
        rememberedRequests,
        rememberedEvents,
        ...(posture(engine).reconciled === undefined ? {} : { reconciled }),
      };
    },
  };
}
