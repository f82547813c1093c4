import type { EngineBuilder } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { createWebHost, type WebHost } from '@corekit/web-host';
import { addEventing, useEventDispatcher, type EventingOptionsInput } from './index';
import { declareOrders, eventually } from './test-support/eventing-fixture';

const hosts: WebHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function serve(options: EventingOptionsInput, setup: (builder: EngineBuilder) => void) {
  const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
  setup(builder);
  addEventing(builder, options);
  const host = createWebHost(builder, { port: 0, handleSignals: false, environment: {} });
  hosts.push(host);
  const { url } = await host.listen();
  const base = url.replace('localhost', '127.0.0.1');
  return async (path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

const placed = (id: string, channelId = 'orders') => ({
  id,
  channelId,
  eventType: 'order-placed',
  payload: { n: 1 },
});

describe('eventing routes over HTTP (4.3)', () => {
  it('publishes, reads publication states by id and channel, and subscription readiness', async () => {
    const request = await serve({}, (builder) =>
      declareOrders(builder, { billing: () => undefined, audit: undefined }),
    );
    const published = await request('/engine/event-publications', placed('h-1'));
    expect(published).toMatchObject({
      status: 200,
      body: { publicationId: 'h-1', outcome: 'accepted', metadata: { route: '/engine/event-publications' } },
    });
    expect((await request('/engine/event-publications/runtime')).body).toEqual([
      expect.objectContaining({ publicationId: 'h-1', outcome: 'succeeded' }),
    ]);
    expect(await request('/engine/event-publications/runtime/h-1')).toMatchObject({
      status: 200,
      body: { publicationId: 'h-1', channelId: 'orders' },
    });
    expect((await request('/engine/event-publications/runtime/unknown')).status).toBe(404);
    expect((await request('/engine/event-publications/runtime/channels/orders')).body).toHaveLength(1);
    expect((await request('/engine/event-publications/runtime/channels/payments')).body).toEqual([]);

    const readiness = await request('/engine/event-subscription-readiness');
    expect(readiness.body.map((entry: { readinessState: string }) => entry.readinessState)).toEqual([
      'runtime-bound',
      'declared-only',
    ]);
    expect(await request('/engine/event-subscription-readiness/billing')).toMatchObject({
      status: 200,
      body: { subscriptionId: 'billing', metadata: { 'publicationMetadata.publicationId': 'h-1' } },
    });
    expect((await request('/engine/event-subscription-readiness/nope')).status).toBe(404);

    const snapshot = (await request('/engine/snapshot')).body;
    expect(snapshot).toMatchObject({
      eventPublicationStates: [expect.objectContaining({ publicationId: 'h-1' })],
      eventSubscriptionExecutionReadiness: expect.arrayContaining([
        expect.objectContaining({ subscriptionId: 'billing' }),
      ]),
      eventDispatchRuntimes: [],
      eventDispatchStates: [],
    });
    const surfaces = (await request('/engine/technology-surfaces')).body as Array<{ kind: string }>;
    expect(surfaces.map((surface) => surface.kind)).toEqual(
      expect.arrayContaining(['event-channels', 'event-subscriptions', 'event-publishers']),
    );
  });

  it('answers 400 for an invalid body and 404 for an unknown channel or inactive publication', async () => {
    const request = await serve({}, (builder) => declareOrders(builder, {}));
    expect((await request('/engine/event-publications', { channelId: 'orders' })).status).toBe(400);
    expect((await request('/engine/event-publications', '{not json')).status).toBe(400);
    const unknown = await request('/engine/event-publications', placed('h-2', 'payments'));
    expect(unknown).toMatchObject({ status: 404, body: { code: 'EVENT_CHANNEL_NOT_FOUND' } });
    const inactive = await serve({ EnablePublication: false }, (builder) => declareOrders(builder, {}));
    expect(await inactive('/engine/event-publications', placed('h-3'))).toMatchObject({
      status: 404,
      body: { code: 'EVENT_PUBLICATION_NOT_ACTIVE' },
    });
  });

  it('serves dispatch runtimes, dispatch states and terminal failures with the outbox lane', async () => {
    let up = false;
    const request = await serve(
      {
        Outbox: {
          Enabled: true,
          DispatchIntervalMilliseconds: 10,
          RetryDelayMilliseconds: 0,
          MaxAttempts: 2,
        },
      },
      (builder) => {
        declareOrders(builder, {});
        useEventDispatcher(builder, {
          id: 'flaky-broker',
          executionOwnership: 'provider-managed',
          dispatch: async () => {
            if (!up) throw new Error('unreachable');
          },
        });
      },
    );
    expect((await request('/engine/event-dispatches/eventing-outbox')).status).toBe(404);
    expect((await request('/engine/event-dispatches/terminal-failures')).body).toEqual([]);
    expect(await request('/engine/event-dispatch-runtimes/eventing-dispatch')).toMatchObject({
      status: 200,
      body: { id: 'eventing-dispatch', outboxIds: ['eventing-outbox'], summary: null },
    });
    expect((await request('/engine/event-dispatch-runtimes/other')).status).toBe(404);

    expect(await request('/engine/event-publications', placed('h-4'))).toMatchObject({
      status: 200,
      body: { metadata: { staged: true } },
    });
    const failures = await eventually(async () => {
      const answer = await request('/engine/event-dispatches/terminal-failures');
      return answer.body.length > 0 ? answer.body : undefined;
    });
    expect(failures).toEqual([
      expect.objectContaining({ outboxId: 'eventing-outbox', terminalFailure: true, attempt: 2 }),
    ]);
    expect(await request('/engine/event-dispatches/eventing-outbox')).toMatchObject({
      status: 200,
      body: { outcome: 'failed', retryScheduledCount: 1, failedCount: 1 },
    });
    expect((await request('/engine/event-dispatches')).body).toHaveLength(1);
    expect((await request('/engine/event-dispatch-runtimes')).body).toEqual([
      expect.objectContaining({
        summary: expect.objectContaining({ hasTerminalFailures: true, terminalOutboxCount: 1 }),
      }),
    ]);
    const snapshot = (await request('/engine/snapshot')).body;
    expect(snapshot.eventDispatchStates).toEqual([expect.objectContaining({ outboxId: 'eventing-outbox' })]);
    expect(snapshot.eventDispatchRuntimes).toEqual([expect.objectContaining({ id: 'eventing-dispatch' })]);
    up = true;
  });
});
