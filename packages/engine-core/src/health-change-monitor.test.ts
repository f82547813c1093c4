import type { HealthStatus } from '@corekit/abstractions';
import { manualClock } from './clock';
import { HealthChangeMonitor, type HealthChangedEvent } from './health-change-monitor';
import { createMemoryLogger } from './logger';

function setup() {
  const state: { liveness: HealthStatus; readiness: HealthStatus; reasons: string[] } = {
    liveness: 'Healthy',
    readiness: 'Unhealthy',
    reasons: [],
  };
  const logger = createMemoryLogger();
  const events: HealthChangedEvent[] = [];
  const monitor = new HealthChangeMonitor({
    liveness: () => ({ status: state.liveness }),
    readiness: () => ({ status: state.readiness, reasons: state.reasons }),
    logger,
    clock: manualClock(),
    emit: (event) => void events.push(event),
  });
  return { state, logger, events, monitor };
}

describe('HealthChangeMonitor', () => {
  it('takes the first reading as the baseline, then logs 3005 and emits health-changed for each change', () => {
    const { state, logger, events, monitor } = setup();
    monitor.check();
    expect(monitor.current).toEqual({ liveness: 'Healthy', readiness: 'Unhealthy' });
    expect(logger.records).toHaveLength(0);

    state.readiness = 'Healthy';
    monitor.check();
    monitor.check();
    state.liveness = 'Degraded';
    state.readiness = 'Unhealthy';
    state.reasons = ['required dependency orders-db is Unhealthy'];
    monitor.check();

    expect(events.map((event) => `${event.probe}:${event.previous}->${event.status}`)).toEqual([
      'readiness:Unhealthy->Healthy',
      'liveness:Healthy->Degraded',
      'readiness:Healthy->Unhealthy',
    ]);
    expect(events[0].atUtc).toBe('2026-01-01T00:00:00.000Z');
    expect(logger.records.map((record) => [record.eventId, record.level, record.probe])).toEqual([
      [3005, 'info', 'readiness'],
      [3005, 'warn', 'liveness'],
      [3005, 'warn', 'readiness'],
    ]);
    expect(logger.records[2]).toMatchObject({
      status: 'Unhealthy',
      previousStatus: 'Healthy',
      message: 'Readiness is Unhealthy (was Healthy): required dependency orders-db is Unhealthy',
    });
  });

  it('notices changes that time alone causes when watching, without anyone calling check()', async () => {
    jest.useFakeTimers();
    try {
      const { state, logger, monitor } = setup();
      monitor.watch(1000);
      await jest.advanceTimersByTimeAsync(1000);
      state.readiness = 'Healthy';
      await jest.advanceTimersByTimeAsync(1000);
      expect(logger.records.map((record) => record.eventId)).toEqual([3005]);
      monitor.unwatch();
      state.readiness = 'Unhealthy';
      await jest.advanceTimersByTimeAsync(5000);
      expect(logger.records).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
