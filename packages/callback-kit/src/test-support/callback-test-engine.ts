// Test helpers of the callback packages (not exported from the package index): a started engine with
// tenancy, governance and delivery, a movable clock, an invitation factory and an observation snapshot.
import type { EngineBuilder } from '@corekit/abstractions';
import { createEngineBuilder, manualClock } from '@corekit/engine-core';
import { addMultiTenancy } from '@corekit/tenancy';
import {
  addTenantGovernance,
  addTenantGovernanceDelivery,
  invitationDeliveryStatusKey,
  type InvitationSender,
} from '@corekit/tenant-governance';
import { captureLogger } from '@corekit/testing/capture-logger';
import { createWebHost, type WebHost } from '@corekit/web-host';
import { invokeCallback, type FuzzRequest } from '../fuzz-harness';

export const testStartMs = Date.parse('2030-01-01T00:00:00.000Z');

export interface CallbackTestEngine {
  readonly engine: import('@corekit/abstractions').Engine;
  readonly logger: ReturnType<typeof captureLogger>;
  readonly host: WebHost | undefined;
  readonly base: string | undefined;
  readonly now: () => Date;
  advance(seconds: number): void;
  /** A new pending invitation of `tenantId` (default acme); answers its id. */
  invite(tenantId?: string): Promise<string>;
  /** Every stored observation and reconciled status, serialized (compared before and after refusals). */
  snapshot(): Promise<string>;
  invoke(operationId: string, request: FuzzRequest): ReturnType<typeof invokeCallback>;
  status(): import('@corekit/tenant-governance').InvitationDeliveryStatusService;
  dispatch(
    tenantId: string,
    invitationId: string,
  ): Promise<import('@corekit/tenant-governance').InvitationDispatchResult>;
  /** The invitation's reconciled delivery status (null before any observation). */
  deliveryStatus(tenantId: string, invitationId: string): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * Builds and starts an engine (tenants acme and globex) with `register` called after the delivery
 * registration. With `http`, a web host on 127.0.0.1 whose authorize hook accepts `Bearer test-token`
 * only (401 without a header, 403 with another token).
 */
export async function startCallbackEngine(
  register: (builder: EngineBuilder, now: () => Date) => void,
  options: {
    readonly configuration?: Record<string, unknown>;
    readonly http?: boolean;
    readonly senders?: readonly InvitationSender[];
    /** Start of the manual clock (epoch ms); default 2030-01-01. */
    readonly startMs?: number;
    /** Tenant ids (default acme and globex). */
    readonly tenants?: readonly string[];
  } = {},
): Promise<CallbackTestEngine> {
  const clock = manualClock(options.startMs ?? testStartMs);
  const now = () => new Date(clock.now());
  const logger = captureLogger();
  const builder = createEngineBuilder({
    configuration: options.configuration ?? {},
    environment: {},
    clock,
    logger,
  });
  addMultiTenancy(builder, {
    Tenants: (options.tenants ?? ['acme', 'globex']).map((Id) => ({ Id })),
  });
  const governance = addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 }, { now });
  const delivery = addTenantGovernanceDelivery(builder, {}, { now });
  for (const sender of options.senders ?? []) delivery.senders.add(sender);
  register(builder, now);
  let host: WebHost | undefined;
  let base: string | undefined;
  let engine;
  if (options.http) {
    host = createWebHost({
      builder,
      port: 0,
      handleSignals: false,
      environment: {},
      authorize: (request: import('node:http').IncomingMessage) => {
        const header = request.headers.authorization;
        if (!header) return { outcome: 'unauthenticated' };
        return header === 'Bearer test-token';
      },
    } as never);
    const { url } = await host.listen();
    base = url.replace('localhost', '127.0.0.1');
    engine = host.engine;
  } else {
    engine = builder.build();
    await engine.start();
  }
  const status = () => engine.resolve(invitationDeliveryStatusKey)!;
  return {
    engine,
    logger,
    host,
    base,
    now,
    advance: (seconds) => clock.advance(seconds * 1000),
    async invite(tenantId = 'acme') {
      const result = await governance.execute({
        command: 'invite',
        tenantId,
        inviteeKind: 'email',
        inviteeId: `person-${Math.random().toString(36).slice(2)}@example.test`,
        roles: ['member'],
      });
      return result.invitation!.invitationId;
    },
    async snapshot() {
      const result = await status().query({ limit: 1000 });
      return JSON.stringify(result.observations);
    },
    invoke: (operationId, request) => invokeCallback(engine, operationId, request),
    status,
    dispatch: (tenantId, invitationId) =>
      delivery.dispatcher.dispatch({ tenantId, invitationId, channel: 'email' }),
    async deliveryStatus(tenantId, invitationId) {
      return (await status().getStatus(tenantId, invitationId))?.status ?? null;
    },
    async close() {
      if (host) await host.close();
      else await engine.stop();
    },
  };
}
