import {
  capture,
  closeHosts,
  declareCaptures,
  passNow,
  serveData,
  type ServedData,
} from './test-support/data-fixture';
import { postgresSources, postgresUrl, type PostgresSource } from './test-support/postgres-source';

// Real PostgreSQL (POSTGRES_URL or 127.0.0.1:5432, database test), own tables per test: never skipped.
afterEach(closeHosts);

const newSource = postgresSources();
const pass = (served: ServedData) => passNow(served);

async function serve(
  source: PostgresSource,
  metadata: Record<string, unknown>,
  pump: Record<string, unknown> = {},
) {
  return serveData(
    {
      CapturePump: {
        PostgreSqlConnectionString: postgresUrl,
        PostgreSqlOutboxTable: source.outbox,
        PollIntervalMilliseconds: 3_600_000,
        ...pump,
      },
      ChangeStreamPump: { Enabled: false },
    },
    (builder) =>
      declareCaptures(builder, [
        capture('orders', {
          provider: 'postgresql',
          sourceId: 'test-db',
          metadata: { sourceTable: source.source, changeColumn: 'change_id', ...metadata },
        }),
      ]),
  );
}

describe('completeness by choice (polling provider)', () => {
  it('requireCompleteness refuses a table without change_xid, naming the ALTER TABLE, and stages nothing', async () => {
    const source = await newSource('cdcreq', { transactionColumn: null });
    await source.insert(3);
    const served = await serve(source, { requireCompleteness: true });
    expect((await pass(served)).captures[0]).toMatchObject({
      outcome: 'failed',
      failureKind: 'prerequisite',
    });
    const state = (await served.request('/engine/cdc-captures/runtime/orders')).body;
    expect(state).toMatchObject({
      lastOutcome: 'failed',
      failureKind: 'prerequisite',
      checkpoint: null,
      error: expect.stringContaining(`ALTER TABLE "${source.source}" ADD COLUMN "change_xid" xid8`),
    });
    expect(await source.outboxRows('orders')).toEqual({ total: 0, distinct: 0, maxChange: 0 });

    // Once the column exists the capture starts, complete.
    await source.client.query(
      `ALTER TABLE ${source.source} ADD COLUMN change_xid xid8 NOT NULL DEFAULT pg_current_xact_id()`,
    );
    await source.insert(2);
    const started = await serve(source, { requireCompleteness: true }, { FailureBackoffMilliseconds: 0 });
    await pass(started);
    expect(await source.outboxRows('orders')).toMatchObject({ total: 5, distinct: 5 });
    expect((await started.request('/engine/cdc-captures/runtime/orders')).body.completeness.state).toBe(
      'guaranteed',
    );
  });

  it('Engine:Data:CapturePump:RequireCompleteness applies to every polling capture; a capture may opt out', async () => {
    const source = await newSource('cdcreqall', { transactionColumn: null });
    await source.insert(1);
    const refused = await serve(source, {}, { RequireCompleteness: true });
    expect((await pass(refused)).captures[0]).toMatchObject({ failureKind: 'prerequisite' });
    await closeHosts();
    const optedOut = await serve(source, { requireCompleteness: false }, { RequireCompleteness: true });
    await pass(optedOut);
    expect((await optedOut.request('/engine/cdc-captures/runtime/orders')).body.completeness.state).toBe(
      'not-guaranteed',
    );
  });

  it('the first pass reads the rows the table already holds (snapshot mode initial); never is refused', async () => {
    const source = await newSource('cdcinitial');
    await source.insert(4);
    const served = await serve(source, {});
    await pass(served);
    expect(await source.outboxRows('orders')).toEqual({ total: 4, distinct: 4, maxChange: 4 });
    await closeHosts();
    const never = await serve(source, { snapshotMode: 'never' });
    expect((await pass(never)).captures[0]).toMatchObject({ failureKind: 'prerequisite' });
  });
});
