import { capture, closeHosts, declareCaptures, serveData, testClock } from './test-support/data-fixture';

afterEach(closeHosts);

async function serveCoordinated(rejectConflicting: boolean) {
  const clock = testClock();
  const served = await serveData(
    {
      EnableExternalCdcRuntimeReporting: true,
      CapturePump: { Enabled: false },
      ChangeStreamPump: { Enabled: false },
      CdcExecutionRuntimes: [
        {
          Id: 'runners',
          Kind: 'external-managed',
          CdcCaptureIds: ['orders'],
          ReporterLeaseSeconds: 30,
          RejectConflictingReporterIds: rejectConflicting,
        },
      ],
    },
    (builder) => declareCaptures(builder, [capture('orders')]),
    { now: clock.now },
  );
  const report = (reporterId: string, extra: Record<string, unknown> = {}) =>
    served.request('/engine/cdc-capture-runtimes/runners/reports', {
      token: 'ok',
      body: [{ cdcCaptureId: 'orders', reporterId, outcome: 'captured', capturedChangeCount: 1, ...extra }],
    });
  const coordination = async () =>
    (await served.request('/engine/cdc-captures/runtime/orders')).body.reporterCoordination;
  const participants = async () =>
    Object.fromEntries(
      (await coordination()).reporterParticipants.map(
        (participant: { reporterId: string; state: string }) => [participant.reporterId, participant.state],
      ),
    );
  return { served, clock, report, coordination, participants };
}

describe('reporter coordination (3.3)', () => {
  it('rejects a conflicting reporter with 409, shows it as rejected, and a later accepted report clears the evidence (rule 1)', async () => {
    const { served, report, coordination, participants } = await serveCoordinated(true);
    expect((await report('a')).status).toBe(200);
    const refused = await report('b');
    expect([refused.status, refused.body.code]).toEqual([409, 'CDC_REPORTER_REJECTED']);
    expect(refused.body.detail).toContain('reporter "a" holds the lease until 2026-03-01T10:00:30.000Z');
    expect(await participants()).toEqual({ a: 'active', b: 'rejected' });
    expect(await coordination()).toMatchObject({
      hasRejectedReporters: true,
      rejectedReporterCount: 1,
      degradedReason: 'rejected-reporter-conflict',
    });
    const state = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state.totalCapturedChangeCount).toBe(1);
    const byIssue = await served.request(
      '/engine/cdc-captures/runtime/reporter-coordination/issues/rejected-reporter-conflict',
    );
    expect(byIssue.body).toHaveLength(1);
    expect(
      (await served.request('/engine/cdc-captures/runtime/reporter-coordination/rejected')).body,
    ).toHaveLength(1);
    expect(
      (
        await served.request(
          '/engine/cdc-capture-runtimes/reporter-coordination/issues/rejected-reporter-conflict',
        )
      ).body,
    ).toHaveLength(1);

    expect((await report('a')).status).toBe(200);
    expect(await participants()).toEqual({ a: 'active' });
    expect(await coordination()).toMatchObject({ hasRejectedReporters: false, degradedReason: null });
  });

  it('accepts both reporters when conflicts are not rejected and reports multiple-active-reporters', async () => {
    const { served, report, coordination } = await serveCoordinated(false);
    await report('a');
    expect((await report('b')).status).toBe(200);
    expect(await coordination()).toMatchObject({
      activeReporterCount: 2,
      degradedReason: 'multiple-active-reporters',
    });
    const runtime = (
      await served.request(
        '/engine/cdc-capture-runtimes/reporter-coordination/issues/multiple-active-reporters',
      )
    ).body;
    expect(runtime.map((entry: { id: string }) => entry.id)).toEqual(['runners']);
  });

  it('moves an expired lease to awaiting-takeover, records the takeover, and drops the previous owner once the replacement reasserts (rule 2)', async () => {
    const { served, clock, report, coordination, participants } = await serveCoordinated(true);
    await report('a');
    clock.advanceSeconds(31);
    expect(await participants()).toEqual({ a: 'standby' });
    expect(await coordination()).toMatchObject({
      takeoverState: 'awaiting-takeover',
      degradedReason: 'awaiting-takeover',
      requiresTakeover: true,
      hasStandbyReporters: true,
      activeReporterCount: 0,
    });
    const state = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state.reporterLease).toMatchObject({ reporterId: 'a', expired: true });
    expect(
      (await served.request('/engine/cdc-captures/runtime/reporter-coordination/awaiting-takeover')).body,
    ).toHaveLength(1);

    expect((await report('b')).status).toBe(200);
    expect(await participants()).toEqual({ a: 'standby', b: 'active' });
    expect(await coordination()).toMatchObject({
      takeoverState: null,
      degradedReason: null,
      requiresTakeover: false,
      hasCompletedTakeover: true,
      previousReporterId: 'a',
      leaseExpiredAtUtc: '2026-03-01T10:00:30.000Z',
      lastTakeoverObservedAtUtc: '2026-03-01T10:00:31.000Z',
    });

    expect(JSON.stringify((await served.request('/engine/runtime-story')).body)).toContain(
      'Reporter takeover on CDC capture orders',
    );

    clock.advanceSeconds(5);
    expect((await report('b')).status).toBe(200);
    expect(await participants()).toEqual({ b: 'active' });
    expect(await coordination()).toMatchObject({
      hasCompletedTakeover: true,
      previousReporterId: 'a',
      leaseExpiredAtUtc: '2026-03-01T10:00:30.000Z',
      lastTakeoverObservedAtUtc: '2026-03-01T10:00:31.000Z',
      participantCount: 1,
    });
    const runtime = (await served.request('/engine/cdc-capture-runtimes/runners')).body.summary;
    expect(runtime).toMatchObject({
      activeReporterId: 'b',
      lastReporterId: 'b',
      reporterLeaseExpiresAtUtc: '2026-03-01T10:01:06.000Z',
    });
  });

  it('keeps leases in the engine store: a restarted engine on the same file store still refuses the conflicting reporter', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const directory = mkdtempSync(join(tmpdir(), 'data-leases-'));
    const clock = testClock();
    const start = () =>
      serveData(
        {
          EnableExternalCdcRuntimeReporting: true,
          CapturePump: { Enabled: false },
          ChangeStreamPump: { Enabled: false },
          CdcExecutionRuntimes: [{ Id: 'runners', Kind: 'external-managed', CdcCaptureIds: ['orders'] }],
        },
        (builder) => declareCaptures(builder, [capture('orders')]),
        { now: clock.now },
        { Engine: { Stores: { Provider: 'File', Directory: directory } } },
      );
    const body = (reporterId: string) => [{ cdcCaptureId: 'orders', reporterId, outcome: 'idle' }];
    const first = await start();
    expect(
      (await first.request('/engine/cdc-capture-runtimes/runners/reports', { token: 'ok', body: body('a') }))
        .status,
    ).toBe(200);
    await closeHosts();
    const second = await start();
    const state = (await second.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state).toMatchObject({ lastOutcome: 'idle', reporterId: 'a' });
    const refused = await second.request('/engine/cdc-capture-runtimes/runners/reports', {
      token: 'ok',
      body: body('b'),
    });
    expect(refused.status).toBe(409);
  });
});
