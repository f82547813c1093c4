import type { InstanceEntry } from '@corekit/abstractions';
import { serviceStatus } from './instances-status';

function instance(patch: Partial<InstanceEntry>): InstanceEntry {
  return {
    instanceId: 'host:1:a',
    serviceName: 'orders',
    serviceVersion: null,
    engineVersion: '0.1.0',
    hostName: 'host',
    pid: 1,
    startedAtUtc: '2026-12-02T06:00:00.000Z',
    lastSeenAtUtc: '2026-12-02T06:00:10.000Z',
    lastSeenAtMs: Date.parse('2026-12-02T06:00:10.000Z'),
    lifecycleState: 'Started',
    readiness: 'Healthy',
    restartCount: 0,
    stoppedAtUtc: null,
    heartbeatIntervalMs: 5000,
    presence: 'online',
    current: false,
    scope: 'shared',
    offlineAfterUtc: '2026-12-02T06:00:30.000Z',
    removeAfterUtc: '2026-12-02T06:10:10.000Z',
    heartbeatFailure: null,
    ...patch,
  };
}

describe('the service status across instances', () => {
  it('is Healthy when every instance is online and ready; a gracefully stopped one does not count against it', () => {
    const status = serviceStatus([instance({}), instance({ presence: 'stopped', readiness: 'Unhealthy' })]);
    expect(status).toMatchObject({
      status: 'Healthy',
      online: 1,
      stopped: 1,
      text: '1 of 1 instance online · 1 stopped',
    });
  });

  it('is Degraded with an instance offline or one not Healthy while another serves', () => {
    expect(serviceStatus([instance({}), instance({ presence: 'offline' })])).toMatchObject({
      status: 'Degraded',
      text: '1 of 2 instances online · 1 offline',
    });
    expect(serviceStatus([instance({}), instance({ readiness: 'Unhealthy' })]).status).toBe('Degraded');
  });

  it('is Unhealthy when no online instance is ready, Unknown with none listed', () => {
    expect(
      serviceStatus([instance({ readiness: 'Unhealthy' }), instance({ presence: 'offline' })]).status,
    ).toBe('Unhealthy');
    expect(serviceStatus([]).status).toBe('Unknown');
  });
});
