import type { EngineBuilder } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addEventing, type EventDispatcher, type EventMessage } from '@corekit/eventing';
import { expectSecondCallRefused } from '@corekit/testing/registration-refusal';
import { z } from 'zod';
import { confirmBatch } from './confirm-batch';
import { destinationTemplate } from './destination-template';
import { eventEnvelope, payloadBytes } from './event-envelope';
import { LazyConnection } from './lazy-connection';
import { defineDispatcher, registerDispatcher } from './register-dispatcher';

const message = (id: string, extra: Partial<EventMessage> = {}): EventMessage => ({
  publicationId: id,
  channelId: 'orders',
  eventType: 'order-placed',
  payload: { orderId: id },
  contentType: 'application/json',
  correlationId: null,
  tenantId: null,
  metadata: {},
  actorId: null,
  occurredAtUtc: '2026-01-01T00:00:00.000Z',
  headers: {},
  ...extra,
});

describe('confirmBatch', () => {
  it('answers per message in order: acked null, refused its error, whatever the confirm order', async () => {
    const confirms: Array<(error: Error | null) => void> = [];
    const answer = confirmBatch([message('a'), message('b'), message('c')], {
      send: (_, confirmed) => confirms.push(confirmed),
      timeoutMs: 60_000,
      acknowledgement: 'ack',
    });
    confirms[2]!(null);
    confirms[1]!(new Error('nack'));
    confirms[0]!(null);
    confirms[0]!(new Error('a second answer is ignored'));
    expect(await answer).toEqual([null, new Error('nack'), null]);
  });

  it('fails what is unconfirmed when the batch timer fires, once, and calls onTimeout', async () => {
    jest.useFakeTimers();
    try {
      const onTimeout = jest.fn();
      const answer = confirmBatch([message('a'), message('b')], {
        send: (sent, confirmed) => sent.publicationId === 'a' && confirmed(null),
        timeoutMs: 500,
        acknowledgement: 'PUBACK',
        onTimeout,
      });
      jest.advanceTimersByTime(500);
      expect(await answer).toEqual([null, new Error('no PUBACK within 500 ms')]);
      expect(onTimeout).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a throwing send fails that message and every later one; earlier ones keep their confirms', async () => {
    const onSendFailure = jest.fn();
    const answer = confirmBatch([message('a'), message('b'), message('c')], {
      send: (sent, confirmed) => {
        if (sent.publicationId === 'b') throw new Error('channel closed');
        confirmed(null);
      },
      timeoutMs: 60_000,
      acknowledgement: 'ack',
      onSendFailure,
    });
    expect(await answer).toEqual([null, new Error('channel closed'), new Error('channel closed')]);
    expect(onSendFailure).toHaveBeenCalledWith(new Error('channel closed'));
  });

  it('answers an empty batch at once', async () => {
    expect(await confirmBatch([], { send: () => undefined, timeoutMs: 1, acknowledgement: 'ack' })).toEqual(
      [],
    );
  });
});

describe('destinationTemplate', () => {
  it('replaces every placeholder, and serves a template without placeholders as a constant', () => {
    const key = destinationTemplate('{channelId}.{eventType}.{channelId}');
    expect(key(message('a'))).toBe('orders.order-placed.orders');
    expect(key(message('b', { channelId: 'billing', eventType: 'paid' }))).toBe('billing.paid.billing');
    expect(key(message('c'))).toBe('orders.order-placed.orders');
    expect(destinationTemplate('fixed')(message('a'))).toBe('fixed');
  });
});

describe('event envelope and payload bytes', () => {
  it('carries the publication id and passes a string payload through', () => {
    const sent = message('p-1', { correlationId: 'c-1', headers: { tenant: 't' } });
    expect(eventEnvelope(sent)).toEqual({
      publicationId: 'p-1',
      channelId: 'orders',
      eventType: 'order-placed',
      occurredAtUtc: '2026-01-01T00:00:00.000Z',
      contentType: 'application/json',
      correlationId: 'c-1',
      headers: { tenant: 't' },
      payload: { orderId: 'p-1' },
    });
    expect(payloadBytes(sent).toString()).toBe('{"orderId":"p-1"}');
    expect(payloadBytes(message('s', { payload: 'plain ü' })).toString('utf8')).toBe('plain ü');
  });
});

describe('LazyConnection', () => {
  const make = (connect: () => Promise<{ n: number }>) => {
    const logger = createMemoryLogger();
    const disposed: number[] = [];
    const connection = new LazyConnection({
      connect,
      dispose: (open) => disposed.push(open.n),
      logger,
      category: 'eventing.test',
      broker: 'TestBroker',
    });
    return { connection, logger, disposed };
  };

  it('connects once for concurrent callers, logs a failure (3237) and connects again on the next call', async () => {
    let attempts = 0;
    const { connection, logger } = make(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('ECONNREFUSED');
      return { n: attempts };
    });
    await expect(connection.get()).rejects.toThrow('TestBroker unreachable: ECONNREFUSED');
    const [first, second] = await Promise.all([connection.get(), connection.get()]);
    expect(first).toBe(second);
    expect(attempts).toBe(2);
    expect(logger.records.map((entry) => entry.eventId)).toEqual([3237, 3236]);
  });

  it('lost forgets the current connection once (3239), closes it, and the next call reconnects', async () => {
    let attempts = 0;
    const { connection, logger, disposed } = make(async () => ({ n: (attempts += 1) }));
    const first = await connection.get();
    connection.lost(first);
    connection.lost(first);
    expect(disposed).toEqual([1]);
    expect(logger.records.filter((entry) => entry.eventId === 3239)).toHaveLength(1);
    expect((await connection.get()).n).toBe(2);
    await connection.close();
    expect(disposed).toEqual([1, 2]);
  });

  it('after close (the engine stopped) the next call connects again (engine.restart())', async () => {
    let attempts = 0;
    const { connection, disposed } = make(async () => ({ n: (attempts += 1) }));
    expect((await connection.get()).n).toBe(1);
    await connection.close();
    expect(disposed).toEqual([1]);
    expect((await connection.get()).n).toBe(2);
    await connection.close();
    expect(disposed).toEqual([1, 2]);
  });

  it('a connect still running when close is called is closed, never kept', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    const { connection, disposed } = make(async () => {
      attempts += 1;
      if (attempts === 1) await gate;
      return { n: attempts };
    });
    const first = connection.get();
    const closing = connection.close();
    release();
    await closing;
    await expect(first).rejects.toThrow('closed while connecting');
    expect(disposed).toEqual([1]);
    expect((await connection.get()).n).toBe(2);
  });
});

describe('registerDispatcher', () => {
  const schema = z.object({ Url: z.string().default('x://local'), Retries: z.number().default(1) }).strict();
  const dispatcherPackage = {
    packageName: '@corekit/dispatch-test',
    functionName: 'addTestDispatcher',
    codePrefix: 'TEST_DISPATCHER',
    section: 'Engine:Eventing:Dispatchers:Test',
    schema,
    create: (settings: z.output<typeof schema>): EventDispatcher & { settings: unknown } => ({
      id: 'test',
      executionOwnership: 'provider-managed',
      settings,
      dispatch: async () => undefined,
    }),
  };
  const builderWith = (outbox: boolean, configuration: Record<string, unknown> = {}): EngineBuilder => {
    const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger(), configuration });
    addEventing(builder, { Outbox: { Enabled: outbox } });
    return builder;
  };

  it('binds the section with code options merged, and refuses a second call', () => {
    const builder = builderWith(true, { Engine: { Eventing: { Dispatchers: { Test: { Retries: 3 } } } } });
    const dispatcher = registerDispatcher(builder, dispatcherPackage, { Url: 'x://code' });
    expect(dispatcher.settings).toEqual({ Url: 'x://code', Retries: 3 });
    expect(() => registerDispatcher(builder, dispatcherPackage, {})).toThrow(
      expect.objectContaining({ code: 'ALREADY_REGISTERED' }),
    );
  });

  it('refuses a builder without the outbox lane, naming the setting', () => {
    expect(() => registerDispatcher(builderWith(false), dispatcherPackage, {})).toThrow(
      expect.objectContaining({
        code: 'TEST_DISPATCHER_WITHOUT_LANE',
        message: expect.stringContaining('Engine:Eventing:Outbox:Enabled'),
      }),
    );
  });
});

describe('defineDispatcher', () => {
  const schema = z.object({ Url: z.string().default('x://local') }).strict();
  const addTestDispatcher = defineDispatcher({
    packageName: '@corekit/dispatch-test',
    entry: 'addTestDispatcher',
    codePrefix: 'TEST_DISPATCHER',
    section: 'Engine:Eventing:Dispatchers:Test',
    schema,
    create: (settings): EventDispatcher & { settings: unknown } => ({
      id: 'test',
      executionOwnership: 'provider-managed',
      settings,
      dispatch: async () => undefined,
    }),
  });
  const builderWithLane = (): EngineBuilder => {
    const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
    addEventing(builder, { Outbox: { Enabled: true } });
    return builder;
  };

  it('returns the add function: it binds the full section path and refuses a second call naming it and the package', () => {
    const builder = builderWithLane();
    expect(addTestDispatcher(builder, { Url: 'x://code' }).settings).toEqual({ Url: 'x://code' });
    expectSecondCallRefused(() => addTestDispatcher(builder), 'addTestDispatcher', '@corekit/dispatch-test');
  });

  it('counts a call of the deprecated registerDispatcher of the same package as the first call', () => {
    const builder = builderWithLane();
    registerDispatcher(builder, { ...addTestDispatcherPackage(), functionName: 'addTestDispatcher' }, {});
    expect(() => addTestDispatcher(builder)).toThrow(expect.objectContaining({ code: 'ALREADY_REGISTERED' }));
  });

  function addTestDispatcherPackage() {
    return {
      packageName: '@corekit/dispatch-test',
      codePrefix: 'TEST_DISPATCHER',
      section: 'Engine:Eventing:Dispatchers:Test',
      schema,
      create: (): EventDispatcher => ({
        id: 'test',
        executionOwnership: 'provider-managed',
        dispatch: async () => undefined,
      }),
    };
  }
});
