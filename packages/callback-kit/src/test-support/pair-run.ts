// The sender ↔ callback pair run of the callback packages' pair tests (not exported from the package).
import type { EngineBuilder } from '@corekit/abstractions';
import type {
  PairAnswer,
  RecordingProvider,
  SenderCallbackPairRun,
} from '@corekit/testing/sender-callback-pair';
import { startCallbackEngine } from './callback-test-engine';

/**
 * Starts the provider fake, then a callback test engine (tenants `tenants`, clock at the real time so
 * signatures made now are fresh) where `register` adds the sender aimed at the fake and the callback; the
 * run posts webhooks to the operation `operationId` in process and reads outcomes with `outcomesOf`.
 */
export async function startPairRun(options: {
  readonly tenants: readonly string[];
  readonly provider: () => Promise<RecordingProvider>;
  readonly register: (provider: RecordingProvider, builder: EngineBuilder, now: () => Date) => void;
  readonly operationId: string;
  readonly senderId: string;
  readonly outcomesOf?: (body: unknown) => readonly string[];
}): Promise<SenderCallbackPairRun> {
  const provider = await options.provider();
  let test;
  try {
    test = await startCallbackEngine((builder, now) => options.register(provider, builder, now), {
      tenants: options.tenants,
      startMs: Date.now(),
    });
  } catch (error) {
    await provider.close();
    throw error;
  }
  const engine = test;
  const outcomesOf =
    options.outcomesOf ??
    ((body: unknown) =>
      ((body as { outcomes?: Array<{ outcome: string }> }).outcomes ?? []).map((item) => item.outcome));
  return {
    invite: (tenantId) => engine.invite(tenantId),
    async dispatch(tenantId, invitationId) {
      const result = await engine.dispatch(tenantId, invitationId);
      const outcome = result.outcomes.find((item) => item.senderId === options.senderId);
      return {
        outcome: outcome?.outcome ?? 'missing',
        providerMessageId: outcome?.providerMessageId ?? null,
      };
    },
    exchanges: provider.exchanges,
    async post(webhook): Promise<PairAnswer> {
      const answer = await engine.invoke(options.operationId, webhook);
      return { status: answer.status, outcomes: answer.status === 200 ? outcomesOf(answer.body) : [] };
    },
    deliveryStatus: (tenantId, invitationId) => engine.deliveryStatus(tenantId, invitationId),
    async stop() {
      await engine.close();
      await provider.close();
    },
  };
}
