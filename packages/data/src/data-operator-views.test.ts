import { capture, closeHosts, declareCaptures, serveData, testClock } from './test-support/data-fixture';

afterEach(closeHosts);

/** The data pack's declared operator views, read the way an operator surface reads them. */
async function serveWithViews(lagAttentionSeconds?: number) {
  const clock = testClock();
  const served = await serveData(
    {
      EnableExternalCdcRuntimeReporting: true,
      StaleAfterSeconds: 300,
      ...(lagAttentionSeconds ? { LagAttentionSeconds: lagAttentionSeconds } : {}),
      CapturePump: { Enabled: false },
      ChangeStreamPump: { Enabled: false },
      CdcExecutionRuntimes: [
        {
          Id: 'runners',
          Kind: 'external-managed',
          CdcCaptureIds: ['orders', 'invoices'],
          ReporterLeaseSeconds: 30,
          RejectConflictingReporterIds: true,
        },
      ],
    },
    (builder) => declareCaptures(builder, [capture('orders'), capture('invoices')]),
    { now: clock.now },
  );
  const view = (id: string) => served.host.engine.operatorViews().find((candidate) => candidate.id === id)!;
  const rows = async (id: string) => {
    const declared = view(id);
    return (await declared.rows()).map((row) => [
      (row as Record<string, unknown>)[declared.idField],
      ...declared.columns.map((column) => column.value(row)),
    ]);
  };
  const report = (cdcCaptureId: string, reporterId: string, extra: Record<string, unknown> = {}) =>
    served.request('/engine/cdc-capture-runtimes/runners/reports', {
      token: 'ok',
      body: [{ cdcCaptureId, reporterId, outcome: 'captured', capturedChangeCount: 1, ...extra }],
    });
  return { served, clock, view, rows, report };
}

describe('data operator views', () => {
  it('declares cdc-capture-lag and cdc-reporter-coordination, linked to the capture state routes', async () => {
    const { view } = await serveWithViews();
    for (const id of ['cdc-capture-lag', 'cdc-reporter-coordination']) {
      expect(view(id)).toMatchObject({
        listPath: '/engine/cdc-captures/runtime',
        idField: 'cdcCaptureId',
        entryPath: '/engine/cdc-captures/runtime/{cdcCaptureId}',
      });
    }
    expect(view('cdc-capture-lag').columns.map((column) => column.label)).toEqual([
      'Why',
      'Lag (s)',
      'Age (s)',
      'Last outcome',
      'Error',
      'Retained (bytes)',
    ]);
    expect(view('cdc-capture-lag').description).toContain('60 s (Engine:Data:LagAttentionSeconds)');
  });

  it('lists captures over the lag bound, failed or stale, and nothing once they are healthy again', async () => {
    const { clock, rows, report } = await serveWithViews(30);
    expect((await report('orders', 'a', { lagSeconds: 5 })).status).toBe(200);
    expect((await report('invoices', 'a', { lagSeconds: 5 })).status).toBe(200);
    expect(await rows('cdc-capture-lag')).toEqual([]);
    await report('orders', 'a', { lagSeconds: 45 });
    await report('invoices', 'a', { outcome: 'failed', error: 'source unreachable', failureKind: 'source' });
    expect(await rows('cdc-capture-lag')).toEqual(
      expect.arrayContaining([
        ['orders', 'lag above 30 s', 45, 0, 'captured', null, null],
        ['invoices', 'failed (source)', 5, 0, 'failed', 'source unreachable', null],
      ]),
    );
    await report('orders', 'a', { lagSeconds: 1 });
    await report('invoices', 'a', { lagSeconds: 1 });
    expect(await rows('cdc-capture-lag')).toEqual([]);
    // A source holding back more than Engine:Data:RetentionAttentionBytes (default 1 GiB) for a capture.
    await report('orders', 'a', { lagSeconds: 1, retention: { bytes: 2 * 1024 ** 3, seconds: 600 } });
    expect(await rows('cdc-capture-lag')).toEqual([
      ['orders', 'source retains above 1073741824 bytes', 1, 0, 'captured', null, 2 * 1024 ** 3],
    ]);
    await report('orders', 'a', { lagSeconds: 1, retention: { bytes: 0, seconds: 0 } });
    expect(await rows('cdc-capture-lag')).toEqual([]);
    clock.advanceSeconds(301);
    expect((await rows('cdc-capture-lag')).map((row) => row.slice(0, 2))).toEqual(
      expect.arrayContaining([
        ['orders', 'stale'],
        ['invoices', 'stale'],
      ]),
    );
  });

  it('lists a capture whose reporter coordination is degraded, and drops it when the conflict clears', async () => {
    const { rows, report } = await serveWithViews();
    await report('orders', 'a');
    expect(await rows('cdc-reporter-coordination')).toEqual([]);
    expect((await report('orders', 'b')).status).toBe(409);
    expect(await rows('cdc-reporter-coordination')).toEqual([
      ['orders', 'rejected-reporter-conflict', 1, 0, 1, 'a'],
    ]);
    await report('orders', 'a');
    expect(await rows('cdc-reporter-coordination')).toEqual([]);
  });
});
