import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { EventClients, refusalLogIntervalMs } from './event-clients';

describe('EventClients refusals', () => {
  it('logs the first refusal at once, then the count of the next ones at most once per interval', () => {
    const logger = createMemoryLogger();
    const engine = createEngineBuilder({ environment: {}, logger }).build();
    let now = 1_000;
    const clients = new EventClients(
      engine,
      logger,
      { maxConnections: 1, maxBufferedBytes: 1024 },
      () => now,
    );
    const refusals = () => logger.records.filter((record) => record.eventId === 2016);
    clients.refuse('ServerSentEvents');
    for (let index = 0; index < 500; index++) clients.refuse('WebSocket');
    expect(refusals()).toHaveLength(1);
    expect(refusals()[0]).toMatchObject({ level: 'warn', refusedCount: 1, refusedTotal: 1 });
    now += refusalLogIntervalMs - 1;
    clients.refuse('WebSocket');
    expect(refusals()).toHaveLength(1);
    now += 1;
    clients.refuse('ServerSentEvents');
    expect(refusals()).toHaveLength(2);
    expect(refusals()[1]).toMatchObject({ refusedCount: 502, refusedTotal: 503 });
    expect(clients.refusedCount).toBe(503);
  });
});
